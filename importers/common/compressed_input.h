// Reads an input file into memory and undoes gzip or zip compression found by magic bytes
// (never by the file name). Used by every importer before it sniffs the content.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

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

// What a compressed input may inflate to unless told otherwise (`--max-inflated` of import and
// view): 4 GiB. Sizes a file declares (the gzip trailer, a zip directory entry) are only hints
// for the first buffer, capped by this limit and by what deflate can produce from the
// compressed bytes; memory grows with what is actually inflated.
inline constexpr uint64_t kDefaultMaxInflated = uint64_t{4} << 30;

// Throws core::Error naming the file and the byte offset (in the compressed file) of a bad
// gzip stream, a damaged zip directory or member, a CRC mismatch, a truncated stream, or the
// place where the content passed `max_inflated` bytes.
DecodedInput ReadInput(const std::filesystem::path& path,
                       uint64_t max_inflated = kDefaultMaxInflated);

// The same on bytes already in memory (`label` names them in messages).
DecodedInput DecodeBytes(std::string_view file_bytes, const std::string& label,
                         uint64_t max_inflated = kDefaultMaxInflated);

// Every file of a zip archive (folder entries left out) in directory order, each inflated and
// labelled as DecodeBytes does its first one: for inputs made of several files (rocprofv3's CSV
// output folder, zipped). The max_inflated limit holds for each member.
std::vector<DecodedInput> DecodeZipMembers(std::string_view zip_bytes, const std::string& label,
                                           uint64_t max_inflated = kDefaultMaxInflated);

// Inflates one gzip file (all members, RFC 1952). Exposed for tests.
ByteBuffer InflateGzip(std::string_view compressed, const std::string& label,
                       uint64_t max_inflated = kDefaultMaxInflated);

}  // namespace importers
