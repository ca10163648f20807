#include "importers/common/compressed_input.h"

#include <algorithm>
#include <cerrno>
#include <new>
#include <cstring>
#include <fstream>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>
#include <zlib.h>

#include "core/model/error.h"
#include "importers/common/inflated_output.h"
#include "importers/common/release_pages.h"

namespace importers {
namespace {

uint16_t U16(const char* p) {
  return static_cast<uint16_t>(static_cast<unsigned char>(p[0]) |
                               (static_cast<unsigned char>(p[1]) << 8));
}
uint32_t U32(const char* p) { return U16(p) | (static_cast<uint32_t>(U16(p + 2)) << 16); }
uint64_t U64(const char* p) { return U32(p) | (static_cast<uint64_t>(U32(p + 4)) << 32); }

// Deflate produces at most about 1032 bytes per compressed byte.
constexpr uint64_t kMaxDeflateRatio = 1032;
// The most a declared size may reserve up front; beyond it the buffer grows as data arrives.
constexpr uint64_t kMaxFirstBuffer = uint64_t{256} << 20;

// The first buffer for content that declares `declared` bytes from `compressed` bytes: the
// declaration is only a hint, capped by what deflate can produce, the limit and kMaxFirstBuffer.
size_t FirstBufferSize(uint64_t declared, uint64_t compressed, uint64_t limit) {
  const uint64_t ceiling = compressed > UINT64_MAX / kMaxDeflateRatio
                               ? UINT64_MAX
                               : compressed * kMaxDeflateRatio + 1024;
  return static_cast<size_t>(std::min({declared, ceiling, limit + 1, kMaxFirstBuffer}));
}

// What output past a limit means, for the message: the --max-inflated limit, or a zip member's
// declared size.
struct InflateLimit {
  uint64_t bytes = kDefaultMaxInflated;
  std::string what;  // "the --max-inflated limit of N bytes", ...
};

InflateLimit MaxInflatedLimit(uint64_t max_inflated) {
  return {max_inflated,
          fmt::format("the --max-inflated limit of {} bytes (raise it to read this file)",
                      max_inflated)};
}

// Inflates `in` with the given zlib window setting (16 + MAX_WBITS: gzip; -MAX_WBITS: raw
// deflate as in zip). `base` is the offset of `in` in the file, for messages. Gzip files may
// hold several members back to back; each one is inflated in turn. Throws once the output
// passes `limit.bytes`, naming the compressed byte reached. Output goes out a megabyte at a time.
void Inflate(std::string_view in, int window_bits, uint64_t base, const std::string& label,
             const InflateLimit& limit, InflatedOutput& out) {
  constexpr size_t kPiece = size_t{1} << 20;
  std::unique_ptr<char[]> piece(new char[kPiece]);
  z_stream stream{};
  if (inflateInit2(&stream, window_bits) != Z_OK) {
    throw core::Error(label + ": cannot initialise zlib");
  }
  struct Guard {
    z_stream* s;
    ~Guard() { inflateEnd(s); }
  } guard{&stream};
  size_t consumed = 0;
  const bool gzip = window_bits > MAX_WBITS;
  while (true) {
    const size_t chunk = std::min<size_t>(in.size() - consumed, 1u << 30);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
    stream.avail_in = static_cast<uInt>(chunk);
    int rc = Z_OK;
    while (rc == Z_OK) {
      stream.next_out = reinterpret_cast<Bytef*>(piece.get());
      stream.avail_out = static_cast<uInt>(kPiece);
      rc = inflate(&stream, Z_NO_FLUSH);
      out.Append(piece.get(), kPiece - stream.avail_out, label);
      if (out.size() > limit.bytes) {
        throw core::Error(fmt::format(
            "{}: byte {}: the {} content inflates to more than {}; stopped there", label,
            base + consumed + (chunk - stream.avail_in), gzip ? "gzip" : "zip member",
            limit.what));
      }
      if (rc == Z_BUF_ERROR && stream.avail_in == 0) break;
      if (rc == Z_BUF_ERROR) rc = Z_OK;  // the piece was full: go on with another
    }
    consumed += chunk - stream.avail_in;
    if (rc == Z_STREAM_END) {
      // Another gzip member may follow (skip zero padding some writers append).
      size_t next = consumed;
      while (gzip && next < in.size() && in[next] == '\0') ++next;
      if (!gzip || next >= in.size()) return;
      if (in.size() - next < 2 || static_cast<unsigned char>(in[next]) != 0x1f ||
          static_cast<unsigned char>(in[next + 1]) != 0x8b) {
        throw core::Error(fmt::format(
            "{}: byte {}: unexpected data after the end of the gzip stream", label, base + next));
      }
      consumed = next;
      inflateReset(&stream);
      continue;
    }
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR) {
      throw core::Error(fmt::format("{}: byte {}: corrupt {} data ({})", label, base + consumed,
                                    gzip ? "gzip" : "deflate",
                                    stream.msg ? stream.msg : "zlib error"));
    }
    if (rc == Z_MEM_ERROR) throw core::Error(label + ": out of memory while inflating");
    if (consumed >= in.size()) {
      throw core::Error(fmt::format(
          "{}: byte {}: the {} stream is truncated (the file ends before the compressed data "
          "does)",
          label, base + consumed, gzip ? "gzip" : "deflate"));
    }
  }
}

struct ZipMember {
  std::string name;
  uint16_t method = 0;
  uint32_t crc = 0;
  uint64_t compressed = 0;
  uint64_t uncompressed = 0;
  uint64_t local_header = 0;
};

// Reads the central directory (APPNOTE.TXT 4.3.12-4.3.16, with the zip64 extra field 4.5.3).
// True when `length` bytes from `offset` lie inside a file of `size` bytes; offsets read from
// the file may be anything, so the sum is never formed (it could wrap around).
bool Fits(uint64_t offset, uint64_t length, size_t size) {
  return offset <= size && length <= size - offset;
}

std::vector<ZipMember> ReadZipDirectory(std::string_view zip, const std::string& label) {
  const size_t kEocd = 22;
  if (zip.size() < kEocd) {
    throw core::Error(fmt::format("{}: byte {}: zip file too short for its directory", label,
                                  zip.size()));
  }
  size_t eocd = std::string_view::npos;
  const size_t lowest = zip.size() >= kEocd + 65535 ? zip.size() - kEocd - 65535 : 0;
  for (size_t i = zip.size() - kEocd + 1; i-- > lowest;) {
    if (std::memcmp(zip.data() + i, "PK\x05\x06", 4) == 0) {
      eocd = i;
      break;
    }
  }
  if (eocd == std::string_view::npos) {
    throw core::Error(fmt::format(
        "{}: byte {}: no zip end-of-central-directory record (truncated or damaged zip)", label,
        zip.size()));
  }
  uint64_t entries = U16(zip.data() + eocd + 10);
  uint64_t dir_offset = U32(zip.data() + eocd + 16);
  // Zip64: a locator 20 bytes before the end record points at the zip64 end record.
  if ((entries == 0xFFFF || dir_offset == 0xFFFFFFFF) && eocd >= 20 &&
      std::memcmp(zip.data() + eocd - 20, "PK\x06\x07", 4) == 0) {
    const uint64_t z64 = U64(zip.data() + eocd - 20 + 8);
    if (!Fits(z64, 56, zip.size()) || std::memcmp(zip.data() + z64, "PK\x06\x06", 4) != 0) {
      throw core::Error(fmt::format("{}: byte {}: bad zip64 end record", label, z64));
    }
    entries = U64(zip.data() + z64 + 32);
    dir_offset = U64(zip.data() + z64 + 48);
  }
  std::vector<ZipMember> members;
  uint64_t p = dir_offset;
  for (uint64_t i = 0; i < entries; ++i) {
    if (!Fits(p, 46, zip.size()) || std::memcmp(zip.data() + p, "PK\x01\x02", 4) != 0) {
      throw core::Error(fmt::format("{}: byte {}: bad zip central directory entry {}", label,
                                    p, i));
    }
    const char* h = zip.data() + p;
    ZipMember m;
    m.method = U16(h + 10);
    m.crc = U32(h + 16);
    m.compressed = U32(h + 20);
    m.uncompressed = U32(h + 24);
    const uint16_t name_len = U16(h + 28), extra_len = U16(h + 30), comment_len = U16(h + 32);
    m.local_header = U32(h + 42);
    if (!Fits(p, uint64_t{46} + name_len + extra_len + comment_len, zip.size())) {
      throw core::Error(fmt::format("{}: byte {}: zip directory entry runs past the end", label,
                                    p));
    }
    m.name.assign(h + 46, name_len);
    // Zip64 extra field: the 64-bit values present are those whose 32-bit field is all ones.
    // Each value is read only when it lies inside both the field and the extra area.
    const char* const extra_end = h + 46 + name_len + extra_len;
    for (const char* x = h + 46 + name_len; extra_end - x >= 4;) {
      const uint16_t id = U16(x), size = U16(x + 2);
      const char* const field_end = extra_end - (x + 4) >= size ? x + 4 + size : extra_end;
      if (id == 0x0001) {
        const char* v = x + 4;
        auto next = [&](uint64_t& value) {
          if (value == 0xFFFFFFFF && field_end - v >= 8) value = U64(v), v += 8;
        };
        next(m.uncompressed);
        next(m.compressed);
        next(m.local_header);
      }
      if (field_end == extra_end) break;
      x = field_end;
    }
    members.push_back(std::move(m));
    p += 46 + name_len + extra_len + comment_len;
  }
  return members;
}

ByteBuffer ExtractZipMember(std::string_view zip, const ZipMember& m, const std::string& label,
                            uint64_t max_inflated) {
  const uint64_t h = m.local_header;
  if (!Fits(h, 30, zip.size()) || std::memcmp(zip.data() + h, "PK\x03\x04", 4) != 0) {
    throw core::Error(fmt::format("{}: byte {}: bad zip local header of member '{}'", label, h,
                                  m.name));
  }
  const uint64_t data = h + 30 + U16(zip.data() + h + 26) + U16(zip.data() + h + 28);
  if (!Fits(data, m.compressed, zip.size())) {
    throw core::Error(fmt::format("{}: byte {}: zip member '{}' runs past the end of the file",
                                  label, data, m.name));
  }
  const std::string member_label = label + ":" + m.name;
  std::string_view body = zip.substr(data, m.compressed);
  // The declared size is a hint for a heap buffer and a limit (more is an error anyway).
  InflatedOutput out(FirstBufferSize(m.uncompressed, m.compressed, max_inflated));
  InflateLimit limit = MaxInflatedLimit(max_inflated);
  if (m.uncompressed < max_inflated) {
    limit = {m.uncompressed,
             fmt::format("the {} bytes its zip directory entry declares", m.uncompressed)};
  }
  if (m.method == 0) {
    if (body.size() > limit.bytes) {
      throw core::Error(fmt::format("{}: byte {}: the stored zip member holds {} bytes, more "
                                    "than {}",
                                    member_label, data, body.size(), limit.what));
    }
    out.Append(body.data(), body.size(), member_label);
  } else if (m.method == 8) {
    Inflate(body, -MAX_WBITS, data, member_label, limit, out);
  } else {
    throw core::Error(fmt::format(
        "{}: byte {}: zip member '{}' uses compression method {} (only stored and deflate are "
        "read)",
        label, h, m.name, m.method));
  }
  if (out.size() != m.uncompressed) {
    throw core::Error(fmt::format("{}: byte {}: zip member '{}' inflates to {} bytes, the "
                                  "directory says {}",
                                  label, data, m.name, out.size(), m.uncompressed));
  }
  const uLong crc = out.crc();
  if (crc != m.crc) {
    throw core::Error(fmt::format("{}: byte {}: CRC mismatch in zip member '{}'", label, data,
                                  m.name));
  }
  return out.Finish(member_label);
}

}  // namespace

ByteBuffer InflateGzip(std::string_view compressed, const std::string& label,
                       uint64_t max_inflated) {
  // The gzip trailer holds the size modulo 2^32: a first guess for a heap buffer, no more.
  uint64_t declared = uint64_t{compressed.size()} * 4;
  if (compressed.size() >= 18) declared = std::max<uint64_t>(declared, U32(compressed.end() - 4));
  InflatedOutput out(FirstBufferSize(declared, compressed.size(), max_inflated));
  Inflate(compressed, 16 + MAX_WBITS, 0, label, MaxInflatedLimit(max_inflated), out);
  return out.Finish(label);
}

DecodedInput DecodeBytes(std::string_view file_bytes, const std::string& label,
                         uint64_t max_inflated) {
  DecodedInput input;
  input.label = label;
  input.file_size = file_bytes.size();
  input.container = SniffBytes(file_bytes.substr(0, 512));
  if (input.container == FileFormat::kGzip) {
    input.bytes = InflateGzip(file_bytes, label, max_inflated);
  } else if (input.container == FileFormat::kZip) {
    std::vector<ZipMember> members = ReadZipDirectory(file_bytes, label);
    const ZipMember* chosen = nullptr;
    for (const ZipMember& m : members) {
      if (!m.name.empty() && m.name.back() == '/') continue;  // a folder entry
      chosen = &m;
      break;
    }
    if (!chosen) throw core::Error(label + ": the zip archive holds no file");
    input.bytes = ExtractZipMember(file_bytes, *chosen, label, max_inflated);
    input.label = label + ":" + chosen->name;
  } else {
    input.container = FileFormat::kUnknown;
    input.bytes.Append(file_bytes.data(), file_bytes.size());
  }
  input.content = SniffBytes(input.bytes.view().substr(0, 512));
  return input;
}

std::vector<DecodedInput> DecodeZipMembers(std::string_view zip_bytes, const std::string& label,
                                           uint64_t max_inflated) {
  std::vector<DecodedInput> out;
  for (const ZipMember& m : ReadZipDirectory(zip_bytes, label)) {
    if (m.name.empty() || m.name.back() == '/') continue;  // a folder entry
    DecodedInput input;
    input.container = FileFormat::kZip;
    input.file_size = zip_bytes.size();
    input.bytes = ExtractZipMember(zip_bytes, m, label, max_inflated);
    input.label = label + ":" + m.name;
    input.content = SniffBytes(input.bytes.view().substr(0, 512));
    out.push_back(std::move(input));
  }
  return out;
}

void ByteBufferRelease::operator()(char* p) const {
  if (mapped_length) {
    munmap(p, mapped_length);
  } else {
    delete[] p;
  }
}

void ByteBuffer::DropMappedPagesBefore(size_t end) const {
  if (!m_data || m_data.get_deleter().mapped_length == 0) return;
  // On a private, never-written file mapping the next read refaults the file's bytes, so this
  // changes what is resident, never what is read.
  ReleaseFinishedPages(m_data.get(), m_data.get() + std::min(end, m_size));
}

ByteBuffer ByteBuffer::MapFile(const std::filesystem::path& path, size_t size) {
  if (size == 0) return MapDescriptor(-1, 0, path.string());
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) throw core::Error(path.string() + ": cannot open");
  try {
    ByteBuffer buffer = MapDescriptor(fd, size, path.string());
    close(fd);
    return buffer;
  } catch (...) {
    close(fd);
    throw;
  }
}

ByteBuffer ByteBuffer::MapDescriptor(int fd, size_t size, const std::string& what) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  // Whole pages for the file and its padding, plus one: the anonymous mapping reserves them as
  // zero pages, and the file is then mapped over the start.
  const size_t length = (size + kPadding + page - 1) / page * page + page;
  void* base = mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  // No address space left (a memory limit): reported like any other allocation that failed,
  // with the file and the step (import_file.cpp).
  if (base == MAP_FAILED && errno == ENOMEM) throw std::bad_alloc();
  if (base == MAP_FAILED) throw core::Error(what + ": cannot map the file into memory");
  ByteBuffer buffer;
  buffer.m_data = std::unique_ptr<char, Release>(static_cast<char*>(base), Release{length});
  if (size > 0) {
    void* mapped = mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
    if (mapped == MAP_FAILED) throw core::Error(what + ": cannot map the file into memory");
  }
  buffer.m_size = size;
  buffer.m_capacity = size;
  return buffer;
}

DecodedInput ReadInput(const std::filesystem::path& path, uint64_t max_inflated) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw core::Error(path.string() + ": cannot open (not a readable file)");
  }
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw core::Error(path.string() + ": cannot read its size: " + ec.message());
  ByteBuffer raw = ByteBuffer::MapFile(path, size);
  FileFormat container = SniffBytes(raw.view().substr(0, 512));
  if (container != FileFormat::kGzip && container != FileFormat::kZip) {
    // A plain file: read in place from the mapping.
    DecodedInput input;
    input.label = path.string();
    input.file_size = size;
    input.content = container;
    input.bytes = std::move(raw);
    return input;
  }
  return DecodeBytes(raw.view(), path.string(), max_inflated);
}

}  // namespace importers
