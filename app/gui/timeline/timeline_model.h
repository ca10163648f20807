// TimelineModel: the rows of the timeline (the track tree) and, per row, lanes of spans and
// instants to draw. A lane holds, per span, the index of the thing it draws (into the
// reconstruction, core/analysis/reconstruction.h, or into TraceStore::events) and its start and
// end with unknown times already resolved, in bit-packed columns: the LOD binary-searches them
// every time the view moves (about 7 bytes per span; a span stands for 2-3 records). What the
// painter needs of raw records (cpu-slice names, VSync flags) is copied into the lanes, so the
// window can let go of the raw record columns once the model is built.
//
// Track tree (GPUView order)
//   Adapter ▸ Engine ▸ HWQueue      packets (run segments), fence signal boxes (dark) and wait
//                                   boxes (light) queued -> executed / unblocked, data-missing
//                                   windows of log overruns; for CUDA streams whose packets
//                                   have launch calls, a queue-length counter row
//   Process ▸ CPU thread            CPU fence waits, CPU signals, submissions, imported slices
//   Interrupts ▸ adapter            interrupt ticks (spurious in their own colour), rate curve
//   Background ▸ PGO, runtime thread mode changes and commits; background task boxes
//
// Invariant: the spans of one lane never overlap (boxes that do are spread over several lanes
// when the model is built), so the LOD can binary-search both starts and ends.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "app/gui/timeline/link_index.h"
#include "app/gui/timeline/vsync_lines.h"
#include "core/analysis/reconstruction.h"
#include "core/store/packed_column.h"
#include "core/store/packed_table.h"
#include "core/store/trace_store.h"

namespace app::gui::timeline {

using core::model::TimeNs;

enum class TrackKind : uint8_t { kQueue, kThread, kInterrupts, kPgo };

enum class LaneKind : uint8_t {
  kRunSegments,  // QueueTrack::segments of `queue`
  kSignals,      // items index Reconstruction::signals
  kWaits,        // items index Reconstruction::waits
  kCpuWaits,     // items index Reconstruction::cpu_waits
  kTasks,        // items index Reconstruction::tasks
  kMissing,      // items index QueueTrack::missing of `queue`
  kCpuSlices,    // items index TraceStore::events (cpu_slice records)
};

enum class MarkKind : uint8_t {
  kInterrupts,   // items index Reconstruction::interrupts
  kModeChanges,  // items index Reconstruction::mode_changes (at ts)
  kCommits,      // items index Reconstruction::mode_changes (at commit_completed)
  kCpuSignals,   // items index Reconstruction::signals (cpu = true, at executed)
  kSubmissions,  // items index Reconstruction::packets (at submit)
  kPreemptions,  // items index QueueTrack::segments of `queue` that ended preempted (at end)
  kVariants,     // items index TraceStore::events (variant_applied records)
  kTdrs,         // items index Reconstruction::tdrs (the queue whose packet hung, at ts)
  kMarkers,      // items index TraceStore::events (marker and instant records, e.g. VSync)
};

// marker.marker_type values (schemas/event_kinds.sql).
constexpr uint8_t kMarkerText = 0;
constexpr uint8_t kMarkerVsync = 1;
constexpr uint8_t kMarkerPresent = 2;

// Lanes and marks are read-only once built; their columns are bit-packed
// (core/store/packed_column.h): times of neighbouring spans share their high bits, and item
// indices of one lane grow slowly, so a span takes about 7 bytes instead of 20.
using core::store::PackedColumn;

struct Lane {
  LaneKind kind = LaneKind::kRunSegments;
  uint32_t queue = 0;              // for kRunSegments / kMissing
  uint32_t rank = 0;               // 0 for the first lane of its kind in the track, 1 the next...
  PackedColumn<uint32_t> items;    // what span i draws (see LaneKind)
  PackedColumn<TimeNs> start;      // span i, sorted; spans of a lane never overlap
  // span i's end - start: a span's length takes fewer bits than its end (the lengths of 64
  // spans in a row vary less than their ends do)
  PackedColumn<TimeNs> length;
  // kCpuSlices: the slice's name (cpu_slice.name_sid), so drawing never needs the raw
  // records. Empty for other kinds.
  PackedColumn<uint32_t> names;
  size_t size() const { return items.size(); }
  TimeNs Start(size_t i) const { return start[i]; }
  TimeNs End(size_t i) const { return start[i] + length[i]; }
  // Spans never overlap (end i <= start i + 1), so the first span from `lo` ending at or after t
  // is the last one starting before t when that one reaches t, else the first starting at or
  // after t.
  size_t FirstEndAtOrAfter(size_t lo, TimeNs t) const {
    const size_t j = start.LowerBound(t, lo);
    return j > lo && End(j - 1) >= t ? j - 1 : j;
  }
};

// A lane from its spans (sorted by start, never overlapping); `names` only for kCpuSlices.
Lane MakeLane(LaneKind kind, uint32_t queue, const std::vector<uint32_t>& items,
              const std::vector<TimeNs>& start, const std::vector<TimeNs>& end,
              const std::vector<uint32_t>& names = {});

struct MarkLane {
  MarkKind kind = MarkKind::kInterrupts;
  uint32_t queue = 0;              // for kPreemptions
  PackedColumn<uint32_t> items;    // what instant i draws (see MarkKind)
  PackedColumn<TimeNs> ts;         // sorted
  // kMarkers: the marker's marker_type (kMarkerText, kMarkerVsync, kMarkerPresent; instants are
  // text), so drawing never needs the raw records. Empty for other kinds.
  PackedColumn<uint8_t> marker_type;
  size_t size() const { return ts.size(); }
  TimeNs Time(size_t i) const { return ts[i]; }
  size_t FirstAtOrAfter(size_t lo, TimeNs t) const { return ts.LowerBound(t, lo); }
};

// A counter drawn in a row under a track's lanes and marks, as a step series: the value holds
// from ts[i] until ts[i + 1] (0 before the first step). Queue tracks of streams whose packets
// have launch calls carry their queue length (core/analysis/queue_length.h: packets launched
// and not yet started). block_max[k] is the highest value of steps [64k, 64k + 64), so the
// highest value over any time range costs O(steps in it / 64 + 128) reads, whatever the zoom.
struct CounterRow {
  std::string label;
  PackedColumn<TimeNs> ts;         // sorted
  PackedColumn<uint32_t> values;
  std::vector<uint32_t> block_max;
  uint32_t max = 0;                // over the whole series, for a scale that holds while zooming
  size_t size() const { return ts.size(); }
  bool empty() const { return ts.size() == 0; }
  // The value at `t`.
  uint32_t ValueAt(TimeNs t) const;
  // The highest value held at some time in [t0, t1).
  uint32_t MaxIn(TimeNs t0, TimeNs t1) const;
};
constexpr size_t kCounterBlock = 64;

CounterRow MakeCounterRow(std::string label, const std::vector<TimeNs>& ts,
                          const std::vector<uint32_t>& values);

struct Track {
  TrackKind kind = TrackKind::kQueue;
  uint32_t id = 0;  // queue id, thread id, adapter id (interrupts); 0 for the PGO row
  int group = -1;   // index into TimelineModel::groups
  std::string label;
  std::string full_name;  // shown on hover when the label shortens it (else empty)
  std::vector<Lane> lanes;
  std::vector<MarkLane> marks;
  bool rate_curve = false;  // draw the rate of marks[0] (interrupts per ms)
  CounterRow counter;       // empty when the track has none
};

struct TrackGroup {
  std::string label;
  int parent = -1;  // index into groups, -1 at the top
  int depth = 0;
};

struct TimelineModel {
  TimeNs start = 0;
  TimeNs end = 0;
  std::vector<TrackGroup> groups;
  std::vector<Track> tracks;  // in tree order: a group's tracks follow the group's header
  LinkTable links;            // sorted by to_ts
  TimeNs longest_link_ns = 0;
  LinkIndex link_index;    // the links per pair of rows and per signal
  VsyncLines vsync_lines;  // each adapter's vsync markers, and the adapter of each row

  // Heap bytes held by the model (lists of indices), for the bench.
  size_t HeapBytes() const;
};

TimelineModel BuildTimelineModel(const core::store::TraceStore& store,
                                 const core::analysis::Reconstruction& reconstruction);

// A process's header: "Process vrcompositor.exe (pid 15524)", or "Process pid 15524" when the
// trace names only the pid (no name, or the "process 15524" an importer names it by).
std::string ProcessGroupLabel(const core::model::Process& process);

// The span item `item` of a lane of `kind` draws, with unknown times resolved the way the
// timeline draws them: an open end runs to the end of the trace, an unknown start starts at the
// known end.
struct ResolvedSpan {
  TimeNs start = 0;
  TimeNs end = 0;
};
ResolvedSpan ResolveSpan(LaneKind kind, uint32_t queue, uint32_t item,
                         const core::store::TraceStore& store,
                         const core::analysis::Reconstruction& r, TimeNs trace_end);
TimeNs ResolveMark(MarkKind kind, uint32_t queue, uint32_t item,
                   const core::store::TraceStore& store, const core::analysis::Reconstruction& r);

}  // namespace app::gui::timeline
