// The import dispatcher: reads a file, undoes gzip / zip, sniffs the content by its first bytes
// (never by the file name) and runs the importer for that format, writing a fencescope trace.
// Nothing is left at `output` unless the import succeeded (TraceWriter's atomic commit).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "importers/common/format_sniffer.h"
#include "importers/import_options.h"

namespace importers {

struct ImportSummary {
  FileFormat format = FileFormat::kUnknown;     // what the content was
  std::string format_name;                      // its name, for formats FileFormat lacks too
  FileFormat container = FileFormat::kUnknown;  // gzip / zip wrapper, or kUnknown
  std::string label;                            // file (and zip member) read
  uint64_t file_bytes = 0;                      // size on disk
  uint64_t content_bytes = 0;                   // size after decompression
  uint64_t events_written = 0;
};

// Throws core::Error (naming the file and place) for unreadable, unknown or malformed input.
ImportSummary ImportFile(const std::filesystem::path& input, const std::filesystem::path& output,
                         const ImportOptions& options = {});

// Whether `path` is an SQLite file to open as a trace database as it is, rather than another
// tool's SQLite export to import (an Nsight Systems export, a rocpd database). Throws
// core::Error when it cannot be read.
bool IsTraceDatabaseFile(const std::filesystem::path& path);

// For opening "any file" (`fencescope view FILE`): a fencescope trace is returned as it is;
// anything else is imported into `scratch_dir` (a file named after the input) and that path is
// returned. Throws core::Error like ImportFile.
std::filesystem::path TraceDatabaseFor(const std::filesystem::path& input,
                                       const std::filesystem::path& scratch_dir,
                                       const ImportOptions& options = {});

}  // namespace importers
