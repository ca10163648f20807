// Where an ftrace capture is complete. The kernel keeps one ring buffer per CPU; in overwrite
// mode (the default) a busy CPU's buffer wraps and loses its oldest events, so the CPUs'
// records start at different times while they all run to the end:
//
//   CPU 3  |=========================================|
//   CPU 2        |===================================|
//   CPU 0                 |==========================|
//   CPU 1                   |========================|   <- complete from here
//
// Before the last CPU starts, events logged on the CPUs that had not started are missing: a
// GPU job run by a ring's thread on CPU 0, or completed from an interrupt on CPU 1, is seen
// submitted but never run or run but never completed, and would look queued or busy to the end.
// So the imported trace starts where every CPU was recording (`from`):
//   * a job, signal, GPU or CPU wait with a record at or after `from` keeps its earlier records,
//     placed at `from` (it was queued, running or waiting then);
//   * one whose every record is earlier is left out, and so are earlier markers and instants;
//   * a slice (thread state, atrace, async) is cut at `from`; counter samples before it are
//     left out.
// Wrapped buffers are full, so they hold similar numbers of events, and many: only CPUs with
// at least kFullBufferEvents events and half as many as the busiest CPU move `from`. A CPU with
// fewer did not fill its buffer and lost nothing (a small capture is never cropped). And a CPU
// whose first event comes after only a few of the others' (under kFullBufferEvents, or under a
// twentieth of all) merely had nothing to log at the very start: it does not move `from`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/store/trace_writer.h"

namespace importers::ftrace {

// Fewer events than a ring buffer of the smallest size trace-cmd sets (one 4 KiB page per CPU
// holds ~100 small events; buffers are tens of pages and more) cannot have wrapped.
inline constexpr uint64_t kFullBufferEvents = 1000;

struct CpuCoverage {
  std::map<int32_t, int64_t> first_ts;   // CPU -> its first event's time
  std::map<int32_t, uint64_t> events;    // CPU -> events read
  std::map<int32_t, uint64_t> before;    // CPU -> events of other CPUs before its first one
  uint64_t total = 0;

  // Call in time order.
  void Add(int32_t cpu, int64_t ts) {
    if (cpu < 0) return;
    if (first_ts.emplace(cpu, ts).second) before[cpu] = total;
    ++events[cpu];
    ++total;
  }
  // The time from which every CPU that holds a fair share of the events was recording; the
  // earliest event's time when the trace is complete (or has fewer than two CPUs).
  int64_t CompleteFrom() const;
  int64_t FirstTs() const;
  // "CPU 3 from 630659.115986 s, CPU 2 from ...", in start order.
  std::string Describe() const;
};

// "630660.288800 s".
std::string FtraceSeconds(int64_t ts_ns);

struct CropCounts {
  uint64_t dropped = 0;  // records left out
  uint64_t moved = 0;    // records placed at `from`, slices cut there
};

// Crops `records` (any order) to the window starting at `from`.
CropCounts CropToWindow(std::vector<core::store::EventRecord>& records, int64_t from);

}  // namespace importers::ftrace
