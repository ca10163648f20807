// Reads a trace-cmd `.dat` file through libtracecmd / libtraceevent: every CPU buffer, merged in
// time order by the library; each record's fields decoded with the event formats stored in the
// file's own headers; timestamps in the file's trace clock (ns).
//
// Before the library sees the file, the section sizes of a version 6 header are walked
// (magic, header_page, header_event, ftrace and event formats, kallsyms, printk formats, saved
// cmdlines, CPU count, options, per-CPU data offsets), only to give a truncated or damaged file
// a clear error naming the file, the section and the byte offset, and to read the options:
//   * TRACECLOCK names the clock;
//   * id 8 with more than 8 bytes is the `pid tgid` table a patched trace-cmd writes (gpuvis
//     captures) where upstream has the 4-byte CPUCOUNT; its id is changed in the in-memory copy
//     handed to libtracecmd, which would otherwise take the text for a CPU count and fail.
// The library reads from a memory file (memfd), so a member of a zip or a gzip stream is never
// written to disk.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "importers/ftrace/ftrace_event.h"

namespace importers::ftrace {

struct TraceDatInfo {
  std::string version;      // file format version ("6", "7")
  int cpus = 0;
  std::string clock;        // trace clock ("local", "mono", ...), empty when not recorded
  std::string uname;
  uint64_t records = 0;
  uint64_t unknown_event_records = 0;  // records whose event id has no format in the file
  bool tgid_table_option = false;      // the gpuvis `pid tgid` option was found
  std::unordered_map<int32_t, int32_t> tgids;  // pid -> tgid, from that option
};

// True when `prefix` starts with the trace-cmd magic (17 08 44 "tracing").
bool LooksLikeTraceDat(std::string_view prefix);

// Reads every record of `bytes` (a whole .dat file; `label` names it in messages) in time order.
// `on_header` (may be empty) sees what the headers say before the first record.
// Throws core::Error naming the file and the place for a truncated or unreadable file.
TraceDatInfo ReadTraceDat(std::string_view bytes, const std::string& label,
                          const std::function<void(const FtraceEvent&)>& on_event,
                          const std::function<void(const TraceDatInfo&)>& on_header = {});

}  // namespace importers::ftrace
