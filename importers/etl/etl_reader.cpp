#include "importers/etl/etl_reader.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/model/error.h"

namespace importers::etl {
namespace {

constexpr uint32_t kBufferHeaderSize = 0x48;
constexpr uint32_t kBytesInUseOffset = 0x30;
constexpr uint32_t kEventHeaderSize = 80;
constexpr uint32_t kMinBufferSize = 0x400;
constexpr uint32_t kMaxBufferSize = 64u << 20;

// TRACE_HEADER_TYPE values (byte 2 of a record's marker).
constexpr uint8_t kSystem32 = 0x01;
constexpr uint8_t kSystem64 = 0x02;
constexpr uint8_t kEventHeader32 = 0x12;
constexpr uint8_t kEventHeader64 = 0x13;

// EVENT_HEADER.Flags bits.
constexpr uint16_t kFlagExtendedInfo = 0x0001;
constexpr uint16_t kFlag32BitHeader = 0x0020;
constexpr uint16_t kFlag64BitHeader = 0x0040;

template <typename T>
T Load(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// A failure inside one buffer; ReadEtl turns it into core::Error or a skipped buffer.
struct BufferFault {
  uint64_t offset;
  std::string reason;
};

std::string Utf16ToUtf8(const char* p, const char* end, const char** after) {
  std::string out;
  while (p + 2 <= end) {
    uint32_t c = Load<uint16_t>(p);
    p += 2;
    if (c == 0) break;
    if (c >= 0xD800 && c <= 0xDBFF && p + 2 <= end) {  // surrogate pair
      uint32_t low = Load<uint16_t>(p);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        p += 2;
        c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
      }
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  *after = p;
  return out;
}

// TRACE_LOGFILE_HEADER (evntrace.h), laid out with `pointer_size`-byte LoggerName/LogFileName
// pointers; TIME_ZONE_INFORMATION is 172 bytes and the LARGE_INTEGERs after it are 8-aligned.
LogfileHeader ParseLogfileHeader(const char* p, const char* end, uint32_t pointer_size,
                                 uint64_t offset) {
  const uint32_t tz_offset = 0x38 + 2 * pointer_size;
  const uint32_t boot_offset = (tz_offset + 172 + 7) & ~7u;
  const uint32_t fixed_size = boot_offset + 32;
  if (end - p < static_cast<ptrdiff_t>(fixed_size)) {
    throw BufferFault{offset, fmt::format("logfile header needs {} bytes, record holds {}",
                                          fixed_size, end - p)};
  }
  LogfileHeader h;
  h.present = true;
  h.buffer_size = Load<uint32_t>(p + 0x00);
  h.os_major = static_cast<uint8_t>(p[0x04]);
  h.os_minor = static_cast<uint8_t>(p[0x05]);
  h.os_build = Load<uint32_t>(p + 0x08);
  h.processors = Load<uint32_t>(p + 0x0C);
  h.end_time_filetime = Load<int64_t>(p + 0x10);
  h.log_file_mode = Load<uint32_t>(p + 0x20);
  h.buffers_written = Load<uint32_t>(p + 0x24);
  // 0x28 StartBuffers
  h.pointer_size = Load<uint32_t>(p + 0x2C);
  h.events_lost = Load<uint32_t>(p + 0x30);
  h.cpu_mhz = Load<uint32_t>(p + 0x34);
  h.boot_time_filetime = Load<int64_t>(p + boot_offset);
  h.perf_freq = Load<int64_t>(p + boot_offset + 8);
  h.start_time_filetime = Load<int64_t>(p + boot_offset + 16);
  h.clock_type = Load<uint32_t>(p + boot_offset + 24);
  h.buffers_lost = Load<uint32_t>(p + boot_offset + 28);
  const char* names = p + fixed_size;
  const char* after = names;
  h.logger_name = Utf16ToUtf8(names, end, &after);
  h.log_file_name = Utf16ToUtf8(after, end, &after);
  return h;
}

class BufferWalker {
 public:
  BufferWalker(std::string_view bytes, EtlFile& file) : m_bytes(bytes), m_file(file) {}

  // Reads the records of the buffer at `start` (whose size was already checked).
  void Walk(uint64_t start, uint32_t size) {
    const char* base = m_bytes.data() + start;
    uint32_t in_use = Load<uint32_t>(base + kBytesInUseOffset);
    if (in_use < kBufferHeaderSize || in_use > size) {
      throw BufferFault{start + kBytesInUseOffset,
                        fmt::format("bytes in use {} outside the buffer (size {})", in_use, size)};
    }
    // A skipped buffer contributes nothing: ReadEtl drops the events added after `first_event`
    // when this throws.
    uint64_t system_records = 0;
    uint64_t other_records = 0;
    uint64_t extended = 0;
    uint32_t pos = kBufferHeaderSize;
    while (pos + 4 <= in_use) {
      const char* rec = base + pos;
      const uint64_t rec_offset = start + pos;
      const uint8_t header_type = static_cast<uint8_t>(rec[2]);
      const uint8_t marker_flags = static_cast<uint8_t>(rec[3]);
      if ((marker_flags & 0xC0) != 0xC0) {
        throw BufferFault{rec_offset, fmt::format("record marker 0x{:08x} lacks the 0xC0 bits",
                                                  Load<uint32_t>(rec))};
      }
      uint32_t record_size = 0;
      if (header_type == kSystem32 || header_type == kSystem64) {
        if (pos + 8 > in_use) throw BufferFault{rec_offset, "system record header cut short"};
        record_size = Load<uint16_t>(rec + 4);
        const uint32_t header_size = header_type == kSystem32 ? 32 : 40;
        CheckSize(rec_offset, pos, record_size, header_size, in_use);
        ++system_records;
        constexpr uint8_t kProcessGroup = 3;
        if (m_file.header.present && static_cast<uint8_t>(rec[7]) == kProcessGroup) {
          EtlProcessRecord process;
          process.type = static_cast<uint8_t>(rec[6]);
          process.version = Load<uint16_t>(rec);
          process.pointer_size = header_type == kSystem32 ? 4 : 8;
          process.process_id = Load<uint32_t>(rec + 12);
          process.payload_offset = rec_offset + header_size;
          process.payload_size = record_size - header_size;
          m_file.process_records.push_back(process);
        }
        if (!m_file.header.present) {
          m_file.header = ParseLogfileHeader(rec + header_size, rec + record_size,
                                             header_type == kSystem32 ? 4 : 8,
                                             rec_offset + header_size);
        }
      } else if (header_type == kEventHeader32 || header_type == kEventHeader64) {
        if (pos + 4 > in_use) throw BufferFault{rec_offset, "event header cut short"};
        record_size = Load<uint16_t>(rec);
        CheckSize(rec_offset, pos, record_size, kEventHeaderSize, in_use);
        EtlEvent event;
        event.header_flags = Load<uint16_t>(rec + 4);
        event.thread_id = Load<uint32_t>(rec + 8);
        event.process_id = Load<uint32_t>(rec + 12);
        event.timestamp = Load<int64_t>(rec + 16);
        event.provider = ProviderIndex(rec + 24);
        event.id = Load<uint16_t>(rec + 40);
        event.version = static_cast<uint8_t>(rec[42]);
        event.opcode = static_cast<uint8_t>(rec[45]);
        event.task = Load<uint16_t>(rec + 46);
        event.pointer_size = header_type == kEventHeader32 ? 4 : 8;
        if (event.header_flags & kFlag32BitHeader) event.pointer_size = 4;
        if (event.header_flags & kFlag64BitHeader) event.pointer_size = 8;
        uint32_t payload = kEventHeaderSize;
        if (event.header_flags & kFlagExtendedInfo) {
          payload = SkipExtendedItems(rec, rec_offset, record_size);
          ++extended;
        }
        event.payload_offset = rec_offset + payload;
        event.payload_size = record_size - payload;
        m_file.events.push_back(event);
      } else {
        // Other header types (compact, perfinfo, full, instance, ...): the u16 at +0 is the size
        // for every one of them except the system headers handled above.
        record_size = Load<uint16_t>(rec);
        CheckSize(rec_offset, pos, record_size, 8, in_use);
        ++other_records;
      }
      pos += (record_size + 7) & ~7u;
    }
    m_file.system_records += system_records;
    m_file.other_records += other_records;
    m_file.extended_events += extended;
  }

 private:
  static void CheckSize(uint64_t rec_offset, uint32_t pos, uint32_t record_size,
                        uint32_t header_size, uint32_t in_use) {
    if (record_size < header_size) {
      throw BufferFault{rec_offset, fmt::format("record size {} is smaller than its {}-byte header",
                                                record_size, header_size)};
    }
    if (pos + record_size > in_use) {
      throw BufferFault{rec_offset,
                        fmt::format("record of {} bytes runs past the {} bytes in use",
                                    record_size, in_use)};
    }
  }

  // Extended data items (EVENT_HEADER_EXTENDED_DATA_ITEM as stored in buffers: u16 reserved,
  // u16 type, u16 linkage bit, u16 data size, data, each item 8-aligned) sit between the header
  // and the payload. Returns the payload offset within the record.
  static uint32_t SkipExtendedItems(const char* rec, uint64_t rec_offset, uint32_t record_size) {
    uint32_t pos = kEventHeaderSize;
    for (;;) {
      if (pos + 8 > record_size) throw BufferFault{rec_offset + pos, "extended data item cut short"};
      const uint16_t linkage = Load<uint16_t>(rec + pos + 4);
      const uint16_t data_size = Load<uint16_t>(rec + pos + 6);
      pos += (8 + data_size + 7) & ~7u;
      if (pos > record_size) throw BufferFault{rec_offset, "extended data runs past the record"};
      if ((linkage & 1) == 0) return pos;
    }
  }

  uint16_t ProviderIndex(const char* guid_bytes) {
    if (m_last_provider >= 0 &&
        std::memcmp(m_file.providers[m_last_provider].bytes.data(), guid_bytes, 16) == 0) {
      return static_cast<uint16_t>(m_last_provider);
    }
    for (size_t i = 0; i < m_file.providers.size(); ++i) {
      if (std::memcmp(m_file.providers[i].bytes.data(), guid_bytes, 16) == 0) {
        m_last_provider = static_cast<int>(i);
        return static_cast<uint16_t>(i);
      }
    }
    Guid guid;
    std::memcpy(guid.bytes.data(), guid_bytes, 16);
    m_file.providers.push_back(guid);
    m_last_provider = static_cast<int>(m_file.providers.size() - 1);
    return static_cast<uint16_t>(m_last_provider);
  }

  std::string_view m_bytes;
  EtlFile& m_file;
  int m_last_provider = -1;
};

}  // namespace

std::string Guid::ToString() const {
  return fmt::format(
      "{:08x}-{:04x}-{:04x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
      Load<uint32_t>(reinterpret_cast<const char*>(bytes.data())),
      Load<uint16_t>(reinterpret_cast<const char*>(bytes.data() + 4)),
      Load<uint16_t>(reinterpret_cast<const char*>(bytes.data() + 6)), bytes[8], bytes[9],
      bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
}

Guid ParseGuid(std::string_view text) {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
      text[23] != '-') {
    throw std::invalid_argument("malformed GUID");
  }
  auto hex = [&](size_t at, size_t digits) {
    uint64_t v = 0;
    for (size_t i = 0; i < digits; ++i) {
      char c = text[at + i];
      int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) throw std::invalid_argument("malformed GUID");
      v = v * 16 + static_cast<uint64_t>(d);
    }
    return v;
  };
  Guid g;
  uint32_t d1 = static_cast<uint32_t>(hex(0, 8));
  uint16_t d2 = static_cast<uint16_t>(hex(9, 4));
  uint16_t d3 = static_cast<uint16_t>(hex(14, 4));
  std::memcpy(g.bytes.data(), &d1, 4);
  std::memcpy(g.bytes.data() + 4, &d2, 2);
  std::memcpy(g.bytes.data() + 6, &d3, 2);
  const size_t tail[8] = {19, 21, 24, 26, 28, 30, 32, 34};
  for (int i = 0; i < 8; ++i) g.bytes[8 + i] = static_cast<uint8_t>(hex(tail[i], 2));
  return g;
}

int64_t QpcToNs(int64_t ticks, int64_t perf_freq) {
  if (perf_freq <= 0) return ticks;
  // Whole seconds and the remainder apart: exact, and two 64-bit divisions instead of a 128-bit
  // one (this runs once per record). The remainder's product fits 64 bits while perf_freq is
  // under 9.2e9 (real counters run at 10 MHz to a few GHz); a larger one, read from a damaged
  // header, takes the 128-bit product (found by fuzz_etl).
  const int64_t seconds = ticks / perf_freq;
  const int64_t rest = ticks % perf_freq;
  // A corrupt timestamp beyond +-292 years saturates instead of overflowing.
  constexpr int64_t kMaxSeconds = INT64_MAX / 1'000'000'000 - 1;
  if (seconds > kMaxSeconds) return INT64_MAX;
  if (seconds < -kMaxSeconds) return INT64_MIN;
  constexpr int64_t kExactFreq = INT64_MAX / 1'000'000'000;
  const int64_t fraction =
      perf_freq <= kExactFreq
          ? rest * 1'000'000'000 / perf_freq
          : static_cast<int64_t>(static_cast<__int128>(rest) * 1'000'000'000 / perf_freq);
  return seconds * 1'000'000'000 + fraction;
}

bool LooksLikeEtl(std::string_view prefix) {
  if (prefix.size() < kBufferHeaderSize + 8) return false;
  const char* p = prefix.data();
  const uint32_t size = Load<uint32_t>(p);
  const uint32_t in_use = Load<uint32_t>(p + kBytesInUseOffset);
  if (size < kMinBufferSize || size > kMaxBufferSize || size % 8 != 0) return false;
  if (in_use < kBufferHeaderSize + 8 || in_use > size) return false;
  const uint8_t header_type = static_cast<uint8_t>(p[kBufferHeaderSize + 2]);
  const uint8_t marker_flags = static_cast<uint8_t>(p[kBufferHeaderSize + 3]);
  // The first record of an .etl file is the TRACE_LOGFILE_HEADER in a system trace header.
  return (marker_flags & 0xC0) == 0xC0 && (header_type == kSystem32 || header_type == kSystem64);
}

EtlFile ReadEtl(std::string_view bytes, std::string_view source, const EtlReadOptions& options) {
  EtlFile file;
  file.events.reserve(bytes.size() / 128);  // the sample averages 107 bytes per record
  BufferWalker walker(bytes, file);
  uint64_t offset = 0;
  uint64_t next_progress = 0;
  while (offset < bytes.size()) {
    if (options.progress && offset >= next_progress) {
      options.progress(static_cast<double>(offset) / static_cast<double>(bytes.size()));
      next_progress = offset + (4u << 20);
    }
    ++file.buffers;
    const size_t events_before = file.events.size();
    const size_t processes_before = file.process_records.size();
    const uint64_t left = bytes.size() - offset;
    uint32_t size = 0;
    try {
      if (left < kBufferHeaderSize) {
        throw BufferFault{offset, fmt::format("truncated buffer header ({} of {} bytes)", left,
                                              kBufferHeaderSize)};
      }
      size = Load<uint32_t>(bytes.data() + offset);
      if (size < kMinBufferSize || size > kMaxBufferSize || size % 8 != 0) {
        throw BufferFault{offset, fmt::format("implausible buffer size {}", size)};
      }
      if (size > left) {
        throw BufferFault{offset, fmt::format("truncated buffer ({} of {} bytes present)", left,
                                              size)};
      }
      walker.Walk(offset, size);
    } catch (const BufferFault& fault) {
      file.events.resize(events_before);
      file.process_records.resize(processes_before);
      const std::string place = fmt::format("byte offset {}: {}", fault.offset, fault.reason);
      if (!options.lenient) {
        throw core::Error(fmt::format("{}: corrupt ETL buffer {} at {}", source, file.buffers,
                                      place));
      }
      if (file.skipped_buffers++ == 0) file.first_skip_place = place;
      // Without a trustworthy size the rest of the file cannot be framed.
      if (size < kMinBufferSize || size > kMaxBufferSize || size % 8 != 0 || size > left) break;
    }
    offset += size;
  }
  if (!file.header.present && !options.lenient) {
    throw core::Error(fmt::format("{}: no TRACE_LOGFILE_HEADER record found (not an ETL file?)",
                                  source));
  }
  // A file cut exactly at a buffer boundary frames cleanly; the logfile header's count of
  // buffers written tells it apart from a complete capture.
  const uint64_t expected = file.header.buffers_written;
  if (file.header.present && expected != 0 && file.buffers < expected) {
    const std::string place = fmt::format("byte offset {}: {} buffers present, the logfile header "
                                          "says {} were written",
                                          bytes.size(), file.buffers, expected);
    if (!options.lenient) throw core::Error(fmt::format("{}: truncated ETL file at {}", source, place));
    if (file.skipped_buffers == 0) file.first_skip_place = place;
    file.missing_buffers = expected - file.buffers;
  }
  if (options.progress) options.progress(1.0);
  return file;
}

}  // namespace importers::etl
