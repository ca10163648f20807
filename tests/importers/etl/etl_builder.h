// Builds small .etl files byte by byte for the ETL tests, following the layout in
// shared/guide/trace-formats.md section 2.1 (written from the guide, not from the reader).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace etl_test {

inline constexpr uint32_t kBufferSize = 4096;
inline constexpr int64_t kPerfFreq = 10'000'000;  // 10 MHz: 1 tick = 100 ns
inline constexpr char kDxgKrnl[] = "802ec45a-1e99-4b83-9920-87c98277ba9d";
inline constexpr char kMarkerProvider[] = "8f8f13b1-60eb-4b6a-a433-de86104115ac";

// Little-endian payload bytes.
class Bytes {
 public:
  Bytes& U8(uint8_t v) { return Raw(&v, 1); }
  Bytes& U16(uint16_t v) { return Raw(&v, 2); }
  Bytes& U32(uint32_t v) { return Raw(&v, 4); }
  Bytes& U64(uint64_t v) { return Raw(&v, 8); }
  Bytes& Text(std::string_view s) {
    m_data.append(s.data(), s.size());
    m_data.push_back('\0');
    return *this;
  }
  Bytes& Utf16(std::string_view ascii) {
    for (char c : ascii) U16(static_cast<uint16_t>(c));
    return U16(0);
  }
  Bytes& Zeros(size_t n) {
    m_data.append(n, '\0');
    return *this;
  }
  Bytes& Raw(const void* p, size_t n) {
    m_data.append(static_cast<const char*>(p), n);
    return *this;
  }
  const std::string& str() const { return m_data; }
  size_t size() const { return m_data.size(); }

 private:
  std::string m_data;
};

inline void PutGuid(Bytes& b, std::string_view text) {
  auto hex = [&](size_t at, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
      char c = text[at + i];
      v = v * 16 + static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return v;
  };
  b.U32(static_cast<uint32_t>(hex(0, 8))).U16(static_cast<uint16_t>(hex(9, 4)));
  b.U16(static_cast<uint16_t>(hex(14, 4)));
  const size_t tail[8] = {19, 21, 24, 26, 28, 30, 32, 34};
  for (size_t t : tail) b.U8(static_cast<uint8_t>(hex(t, 2)));
}

// Writes buffers of kBufferSize bytes: 0x48-byte WMI buffer header (size at 0x00, bytes in use at
// 0x30), records 8-aligned from 0x48, 0xFF filler after the last record.
class EtlBuilder {
 public:
  explicit EtlBuilder(uint32_t buffers_written_override = 0)
      : m_buffers_override(buffers_written_override) {}

  // The TRACE_LOGFILE_HEADER in a 32-bit SYSTEM_TRACE_HEADER (pointer size 4).
  void LogfileHeader() {
    Bytes h;
    h.U32(kBufferSize).U8(10).U8(0).U8(1).U8(5).U32(17134).U32(8);  // size, version, build, cpus
    h.U64(0);                                                        // EndTime
    h.U32(156250).U32(0).U32(0x08000001);  // TimerResolution, MaximumFileSize, LogFileMode
    m_buffers_written_at = h.size() + 32;  // record header is 32 bytes
    h.U32(0);                              // BuffersWritten (patched in Finish)
    h.U32(1).U32(4).U32(0).U32(3194);      // StartBuffers, PointerSize, EventsLost, CpuSpeedInMHz
    h.U32(0).U32(0);                       // LoggerName, LogFileName (4-byte pointers)
    h.Zeros(172);                          // TIME_ZONE_INFORMATION: ends at 0x40 + 172 = 0xEC
    h.Zeros(4);                            // align BootTime to 8 (0xF0)
    h.U64(0).U64(static_cast<uint64_t>(kPerfFreq)).U64(132006397840000000ULL);  // Boot, PerfFreq, Start
    h.U32(1).U32(0);                       // ReservedFlags (clock type 1 = QPC), BuffersLost
    h.Utf16("TestSession").Utf16("C:\\test.etl");
    Bytes r;
    r.U16(2).U8(0x01).U8(0xC0).U16(static_cast<uint16_t>(32 + h.size())).U16(0);
    r.U32(1).U32(2).U64(0).U32(0).U32(0);  // tid, pid, SystemTime, KernelTime, UserTime
    r.Raw(h.str().data(), h.size());
    m_logfile_buffer = m_buffers.size();
    AddRecord(r.str());
  }

  // A 64-bit SYSTEM_TRACE_HEADER record of the classic kernel logger (HookId group and type).
  void SystemEvent(uint8_t group, uint8_t type, uint16_t version, int64_t qpc, const Bytes& payload,
                   uint32_t pid = 4, uint32_t tid = 8) {
    Bytes r;
    r.U16(version).U8(0x02).U8(0xC0).U16(static_cast<uint16_t>(40 + payload.size()));
    r.U8(type).U8(group);
    r.U32(tid).U32(pid).U64(static_cast<uint64_t>(qpc)).U32(0).U32(0).Zeros(8);
    r.Raw(payload.str().data(), payload.size());
    AddRecord(r.str());
  }

  // An EVENT_HEADER (64-bit) record.
  void Event(std::string_view provider, uint16_t id, uint8_t version, int64_t qpc,
             const Bytes& payload, uint32_t pid = 100, uint32_t tid = 200, uint8_t opcode = 0) {
    EventWith(0x13, Bytes(), provider, id, version, qpc, payload, pid, tid, opcode);
  }

  // An EVENT_HEADER record of `header_type` (0x12 32-bit, 0x13 64-bit); a non-empty `extended`
  // (already laid out as extended data items) sets EVENT_HEADER_FLAG_EXTENDED_INFO.
  void EventWith(uint8_t header_type, const Bytes& extended, std::string_view provider, uint16_t id,
                 uint8_t version, int64_t qpc, const Bytes& payload, uint32_t pid = 100,
                 uint32_t tid = 200, uint8_t opcode = 0) {
    Bytes r;
    r.U16(static_cast<uint16_t>(80 + extended.size() + payload.size())).U8(header_type).U8(0xC0);
    r.U16(extended.size() ? 1 : 0).U16(0);  // Flags, EventProperty
    r.U32(tid).U32(pid).U64(static_cast<uint64_t>(qpc));
    PutGuid(r, provider);
    r.U16(id).U8(version).U8(0x11).U8(0).U8(opcode).U16(0).U64(0);  // EVENT_DESCRIPTOR
    r.U64(0);                                                        // ProcessorTime
    r.Zeros(16);                                                     // ActivityId
    r.Raw(extended.str().data(), extended.size());
    r.Raw(payload.str().data(), payload.size());
    AddRecord(r.str());
  }

  // Starts a new buffer even if the current one has room.
  void NextBuffer() { m_buffers.emplace_back(); }

  std::string Finish() {
    std::string out;
    const uint32_t written =
        m_buffers_override ? m_buffers_override : static_cast<uint32_t>(m_buffers.size());
    for (size_t i = 0; i < m_buffers.size(); ++i) {
      std::string buf(kBufferSize, '\xFF');
      Bytes header;
      header.U32(kBufferSize).U32(0).U32(0).U32(0).U64(0).U64(i).U64(0);
      header.U8(0).U8(0).U16(0x24).U32(3);  // ClientContext, State
      header.U32(static_cast<uint32_t>(0x48 + m_buffers[i].size())).U16(0x21).U16(4).Zeros(16);
      std::memcpy(buf.data(), header.str().data(), header.size());
      std::memcpy(buf.data() + 0x48, m_buffers[i].data(), m_buffers[i].size());
      if (i == m_logfile_buffer) {
        std::memcpy(buf.data() + 0x48 + m_buffers_written_at, &written, 4);
      }
      out += buf;
    }
    return out;
  }

 private:
  void AddRecord(const std::string& record) {
    std::string padded = record;
    padded.resize((record.size() + 7) & ~size_t{7}, '\0');
    if (m_buffers.empty() || 0x48 + m_buffers.back().size() + padded.size() > kBufferSize) {
      m_buffers.emplace_back();
    }
    m_buffers.back() += padded;
  }

  std::vector<std::string> m_buffers;
  size_t m_logfile_buffer = 0;
  size_t m_buffers_written_at = 0;
  uint32_t m_buffers_override;
};

}  // namespace etl_test
