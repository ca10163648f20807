// CPU slices whose nesting the source does not state (API calls, annotation ranges of an
// Nsight, rocprof or similar capture): their depth on each thread follows from their times.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "core/model/event_fields.h"
#include "importers/common/record_sink.h"

namespace importers {

// A CPU slice before its nesting depth on its thread is known.
struct PendingCpuSlice {
  int64_t start = 0, end = 0;
  core::model::ThreadId thread = 0;
  core::model::StringId name = 0, category = 0;
  uint32_t tag = 0;  // the caller's, handed back to on_slice
};

// Adds a cpu_slice record per slice, each at the depth of the slices of its thread that enclose
// it (a slice ending when the next starts does not), then calls on_slice(slice, record index).
template <typename OnSlice>
void AddNestedCpuSlices(std::vector<PendingCpuSlice>& slices, RecordSink& sink,
                        OnSlice&& on_slice) {
  std::sort(slices.begin(), slices.end(), [](const PendingCpuSlice& a, const PendingCpuSlice& b) {
    return std::tie(a.thread, a.start, b.end) < std::tie(b.thread, b.start, a.end);
  });
  std::vector<int64_t> open_ends;  // the enclosing slices' ends on the current thread
  core::model::ThreadId thread = 0;
  for (const PendingCpuSlice& s : slices) {
    if (s.thread != thread) open_ends.clear(), thread = s.thread;
    while (!open_ends.empty() && open_ends.back() <= s.start) open_ends.pop_back();
    const uint32_t record = sink.Add(core::model::events::CpuSlice{
        .ts_ns = s.start,
        .thread_id = s.thread,
        .duration_ns = s.end - s.start,
        .name_sid = s.name,
        .category_sid = s.category,
        .depth = static_cast<int64_t>(open_ends.size())});
    open_ends.push_back(s.end);
    on_slice(s, record);
  }
}

}  // namespace importers
