// Reads an input file into memory and undoes gzip or zip compression found by magic bytes
// (never by the file name). Used by every importer before it sniffs the content.
#pragma once

#include <filesystem>
#include <string>

#include "importers/common/byte_buffer.h"
#include "importers/common/format_sniffer.h"

namespace importers {

struct DecodedInput {
  ByteBuffer bytes;      // the content: the file itself, or the inflated gzip stream / zip member
  std::string label;     // names the content in messages: "trace.json.gz", "a.zip:inner.json"
  FileFormat container = FileFormat::kUnknown;  // kGzip, kZip, or kUnknown for a plain file
  FileFormat content = FileFormat::kUnknown;    // what the content itself sniffs as
  uint64_t file_size = 0;                       // bytes of the file on disk
};

// Throws core::Error naming the file and the byte offset (in the compressed file) of a bad
// gzip stream, a damaged zip directory or member, a CRC mismatch, or a truncated stream.
DecodedInput ReadInput(const std::filesystem::path& path);

// The same on bytes already in memory (`label` names them in messages).
DecodedInput DecodeBytes(std::string_view file_bytes, const std::string& label);

// Inflates one gzip file (all members, RFC 1952). Exposed for tests.
ByteBuffer InflateGzip(std::string_view compressed, const std::string& label);

}  // namespace importers
