// One ftrace event as both readers hand it to the mapper: the `.dat` reader (libtracecmd /
// libtraceevent, fields decoded from the file's own format headers) and the text reader
// (`trace-cmd report`, systrace, trace_pipe lines, fields parsed from the printed details).
//
// Fields are (name, text) pairs; numbers are read from the text when the mapper asks for them
// (decimal, or hexadecimal with or without 0x), so that a pointer printed as `%p` in a text
// trace and the same field read as a number from a `.dat` compare equal.
// The views point into the reader's buffers and are valid only during the mapper's call.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace importers::ftrace {

struct FtraceField {
  std::string_view name;
  std::string_view text;
};

struct FtraceEvent {
  int64_t ts_ns = 0;
  int32_t cpu = -1;
  int32_t pid = 0;
  int32_t tgid = -1;           // -1: not recorded
  std::string_view comm;       // empty when the task name was not recorded (`<...>`)
  std::string_view name;       // tracepoint name without its system (dma_fence_signaled)
  std::string_view details;    // the printed details (text) or the string payload (print)
  std::vector<FtraceField> fields;
  uint64_t place = 0;          // line number (text) or file offset of the record (.dat)

  std::optional<std::string_view> Text(std::string_view field) const {
    for (const FtraceField& f : fields) {
      if (f.name == field) return f.text;
    }
    return std::nullopt;
  }
  // The field read as an unsigned number (decimal, or hex with or without 0x); nullopt when
  // missing or not a number.
  std::optional<uint64_t> Number(std::string_view field) const;
};

// Parses decimal ("123", "-4" as two's complement) or hexadecimal ("0x1f", "ffff91cb1ab1bdd0").
std::optional<uint64_t> ParseFtraceNumber(std::string_view text);

// Splits printed details ("driver=amdgpu timeline=gfx context=4 seqno=7",
// "sched_job=1, timeline=gfx, ...", "job ring=gfx, id=3, depends fence=0x..") into fields: the
// name is the word right before each '=', the value runs to the next ',' or space.
void SplitDetails(std::string_view details, std::vector<FtraceField>& fields);

}  // namespace importers::ftrace
