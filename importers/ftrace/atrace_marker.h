// Userspace annotations written to trace_marker in Android's atrace convention, as they arrive in
// print / tracing_mark_write events:
//
//   B|pid|name          a slice begins on the writing thread (pid: its process)
//   E|pid  (or E, E|pid|name)   the thread's innermost open slice ends
//   C|pid|name|value    counter `name` of process pid takes `value`
//   S|pid|name|cookie   an asynchronous slice (name, cookie) of process pid begins
//   F|pid|name|cookie   ... and finishes
//
// Any other text is a free-form marker.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace importers::ftrace {

struct AtraceMarker {
  char type = 0;              // 'B', 'E', 'C', 'S' or 'F'
  int32_t pid = -1;           // -1 when not given (a bare `E`)
  std::string_view name;      // empty for E
  double value = 0;           // C: the counter's value
  int64_t cookie = 0;         // S / F
};

// nullopt when `text` is not an atrace marker (then it is free-form text).
std::optional<AtraceMarker> ParseAtraceMarker(std::string_view text);

}  // namespace importers::ftrace
