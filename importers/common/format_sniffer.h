// Tells what kind of file a path holds from its first bytes, never from its name.
#pragma once

#include <filesystem>
#include <string_view>

namespace importers {

enum class FileFormat {
  kUnknown,
  kFencescopeTrace,  // SQLite database (a fencescope trace, checked when opened)
  kGzip,             // gzip stream (content sniffed after inflating)
  kZip,              // zip archive (content sniffed per member)
  kJson,             // starts with '[' or '{' after optional BOM and white space
  kEtl,              // ETW log: WMI buffer header followed by the logfile header
  kTraceDat,         // trace-cmd .dat: 17 08 44 "tracing"
  kFtraceText,       // ftrace text: `# tracer:` / `cpus=N` header or TASK-PID [CPU] lines
  kSystraceHtml,     // an HTML page (systrace: ftrace text inside; checked when imported)
  kNsysReport,       // an Nsight Systems report (.nsys-rep): "NVIDIA Tegra Profiler Report"
  kNsysSqlite,       // an Nsight Systems SQLite export (an SQLite file, told by its tables)
};

std::string_view FileFormatName(FileFormat format);

// Sniffs a memory prefix (the first bytes of a file or of an inflated stream).
FileFormat SniffBytes(std::string_view prefix);

// Sniffs the first bytes of a file. Throws core::Error when it cannot be read.
FileFormat SniffFile(const std::filesystem::path& path);

}  // namespace importers
