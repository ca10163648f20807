// Reads the ETW .etl container natively (no Windows library): buffers -> records.
//
// Layout (shared/guide/trace-formats.md section 2.1, checked on gpuvis/windows_etl.zip):
//
//   file   = buffer, buffer, ...            each BufferSize bytes (u32 at buffer offset 0x00)
//   buffer = WMI_BUFFER_HEADER (0x48 bytes) records... filler
//            u32 at 0x30 = bytes in use (end of the last record), records 8-byte aligned from 0x48
//   record = marker u32: byte 2 header type, byte 3 has 0xC0 set
//            0x01 / 0x02 SYSTEM_TRACE_HEADER (32 / 40 bytes, u16 Size at +4)
//            0x12 / 0x13 EVENT_HEADER (80 bytes, u16 Size at +0), payload at +80
//
// The first system record is the TRACE_LOGFILE_HEADER; its pointer-sized fields follow the
// record's header type. Timestamps are raw QueryPerformanceCounter ticks when the clock type
// (ReservedFlags) is 1; QpcToNs converts them to nanoseconds on that one time base.
//
// Errors: a truncated buffer, a record running past the bytes in use, or a bad marker throws
// core::Error naming the source and the byte offset; with `lenient` the buffer is skipped and
// counted in EtlFile::skipped_buffers instead.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace importers::etl {

struct Guid {
  std::array<uint8_t, 16> bytes{};
  bool operator==(const Guid& other) const { return bytes == other.bytes; }
  // Canonical lower-case text, e.g. 802ec45a-1e99-4b83-9920-87c98277ba9d.
  std::string ToString() const;
};

// Parses canonical GUID text; throws std::invalid_argument on malformed text.
Guid ParseGuid(std::string_view text);

// What TRACE_LOGFILE_HEADER says about the capture.
struct LogfileHeader {
  bool present = false;
  uint32_t buffer_size = 0;
  uint32_t os_major = 0;
  uint32_t os_minor = 0;
  uint32_t os_build = 0;         // ProviderVersion
  uint32_t processors = 0;
  int64_t end_time_filetime = 0;
  uint32_t log_file_mode = 0;
  uint32_t buffers_written = 0;
  uint32_t pointer_size = 0;
  uint32_t events_lost = 0;
  uint32_t cpu_mhz = 0;
  int64_t boot_time_filetime = 0;
  int64_t perf_freq = 0;         // QPC ticks per second
  int64_t start_time_filetime = 0;
  uint32_t clock_type = 0;       // ReservedFlags: 1 QPC, 2 system time, 3 CPU cycle counter
  uint32_t buffers_lost = 0;
  std::string logger_name;
  std::string log_file_name;
};

// One EVENT_HEADER record (manifest or TraceLogging event).
struct EtlEvent {
  int64_t timestamp = 0;        // raw clock value (QPC ticks with clock type 1)
  uint32_t process_id = 0;
  uint32_t thread_id = 0;
  uint16_t provider = 0;        // index into EtlFile::providers
  uint16_t id = 0;
  uint8_t version = 0;
  uint8_t opcode = 0;
  uint16_t task = 0;
  uint8_t pointer_size = 8;     // 4 or 8: pointer-sized payload fields
  uint16_t header_flags = 0;    // EVENT_HEADER.Flags
  uint32_t payload_size = 0;
  uint64_t payload_offset = 0;  // byte offset of the payload in the container
};

// A SYSTEM_TRACE_HEADER record of the classic kernel logger's process group (HookId group 3):
// Process Start (type 1), DCStart (3, the processes alive when the session began), DCEnd (4).
struct EtlProcessRecord {
  uint8_t type = 0;          // HookId type (the event's opcode)
  uint16_t version = 0;      // the header's Version: the payload's layout
  uint8_t pointer_size = 8;  // 4 for a 32-bit header, else 8
  uint32_t process_id = 0;   // the header's ProcessId (of the writer, not the payload's)
  uint32_t payload_size = 0;
  uint64_t payload_offset = 0;
};

struct EtlFile {
  LogfileHeader header;
  std::vector<Guid> providers;  // distinct providers in order of first appearance
  std::vector<EtlEvent> events;  // EVENT_HEADER records in file order (not time order)
  uint64_t buffers = 0;          // buffers walked (including skipped ones)
  uint64_t skipped_buffers = 0;  // corrupt or truncated buffers skipped (lenient only)
  uint64_t missing_buffers = 0;  // buffers the logfile header counts but the file lacks
  std::string first_skip_place;  // "byte offset N: reason" of the first skipped buffer
  uint64_t system_records = 0;   // SYSTEM_TRACE_HEADER records (incl. the logfile header)
  std::vector<EtlProcessRecord> process_records;  // those of the process group
  uint64_t other_records = 0;    // records of other header types (skipped, counted)
  uint64_t extended_events = 0;  // EVENT_HEADER records with extended data items
};

struct EtlReadOptions {
  bool lenient = false;
  // Called with the fraction of bytes walked, now and then.
  std::function<void(double)> progress;
};

// Walks every buffer of `bytes` (the whole .etl file). `source` names the file in errors.
EtlFile ReadEtl(std::string_view bytes, std::string_view source, const EtlReadOptions& options);

// QPC ticks -> ns on the same base (no offset), exact up to +-292 years, saturating beyond.
int64_t QpcToNs(int64_t ticks, int64_t perf_freq);

// True when `prefix` (the first bytes of a file) looks like an ETL container: a WMI buffer header
// with a plausible size and bytes-in-use, and a system-trace-header record at 0x48.
bool LooksLikeEtl(std::string_view prefix);

}  // namespace importers::etl
