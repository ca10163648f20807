// Reads ftrace text: `trace-cmd report` output, systrace / atrace text and raw
// /sys/kernel/tracing/trace or trace_pipe lines.
//
//   TASK-PID [(TGID)] [CPU] [FLAGS] SECONDS.FRACTION: EVENT: DETAILS
//       steam-25475 [003] 630659.115986: sched_switch: steam:25475 [120] S ==> swapper/3:0 [120]
//       <idle>-0 (-----) [006] d..3 20.258855: sched_blocked_reason: pid=269 iowait=0
//       <...>-19999 [001] d..3. 1234.000002: dma_fence_signaled: driver=i915 ...
//
// The TGID column is optional ((-----) when unknown), the flags field has 4 or 5 characters or
// is absent (trace-cmd report without -l, kernels before 3.3), the timestamp has 6 or 9
// decimals, `<...>` means the task name was not recorded. Comment lines (`#`) and the
// `cpus=N` header of trace-cmd report are read as headers. A line that does not have this
// layout is a broken line: it is handed to `on_bad_line` with its number and never stops the
// reading.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "importers/ftrace/ftrace_event.h"

namespace importers::ftrace {

// Parses one line (without its newline) into `event` (fields split from the details unless
// `with_fields` is false). Returns false when the line is not an event line.
bool ParseFtraceLine(std::string_view line, FtraceEvent& event, bool with_fields = true);

// A physical line without surrounding white space and without the JavaScript `\n\` escape that
// ends every line of ftrace text cut out of a systrace HTML page's string.
std::string_view CleanFtraceLine(std::string_view line);

// True when the first bytes of a file look like ftrace text: a `# tracer:` or `cpus=N` header,
// or event lines.
bool LooksLikeFtraceText(std::string_view prefix);

struct TextScanCounts {
  uint64_t lines = 0;
  uint64_t events = 0;
  uint64_t bad_lines = 0;
  uint64_t first_bad_line = 0;
  bool sorted = true;      // events came in non-decreasing time order
  std::string_view clock;  // `# clock_type=...` / trace_clock header, when given
};

// Calls `on_event` for every event line in file order, `on_bad_line(line_number, line)` for
// broken ones (events without their fields unless `with_fields`). Views are valid during the
// call.
TextScanCounts ScanFtraceText(std::string_view text,
                              const std::function<void(const FtraceEvent&)>& on_event,
                              const std::function<void(uint64_t, std::string_view)>& on_bad_line,
                              bool with_fields = true);

}  // namespace importers::ftrace
