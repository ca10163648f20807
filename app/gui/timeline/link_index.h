// The dependency arrows of the timeline (signal -> the wait it released) and the indices the
// window reads them through: by the time the wait was released (TimelineModel::links itself),
// per pair of rows by the time the signal executed (what the arrow level of detail folds,
// arrow_lod.h), and by signal (the arrows of a selected signal). Built once per trace.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "core/model/types.h"
#include "core/store/packed_column.h"
#include "core/store/packed_table.h"

namespace app::gui::timeline {

using core::model::TimeNs;

// A dependency arrow: from the end of the signal box that released a wait to the end of the
// wait box, each on the lane that draws the box (a CPU signal is a tick on its thread's mark
// row: from_lane = that track's lanes.size()).
struct Link {
  TimeNs from_ts = 0;
  TimeNs to_ts = 0;
  int from_track = -1;
  int to_track = -1;
  uint32_t wait = 0;       // index into waits (cpu = false) or cpu_waits (cpu = true)
  uint32_t signal = 0;     // index into signals
  uint32_t from_lane = 0;  // index into tracks[from_track].lanes
  uint32_t to_lane = 0;    // index into tracks[to_track].lanes
  bool cpu = false;
  static constexpr auto kPackedFields =
      std::make_tuple(&Link::from_ts, &Link::to_ts, &Link::from_track, &Link::to_track, &Link::wait,
                      &Link::signal, &Link::from_lane, &Link::to_lane, &Link::cpu);
};

// Links sorted by to_ts (TimelineModel::links).
using LinkTable = core::store::PackedTable<Link>;

// The links from one row to another, by the time their signal executed.
struct LinkPair {
  int from_track = -1;
  int to_track = -1;
  core::store::PackedColumn<TimeNs> from_ts;  // sorted
  core::store::PackedColumn<uint32_t> links;  // link i of the pair: index into the links
  TimeNs longest_ns = 0;                      // longest to_ts - from_ts of the pair
};

struct LinkIndex {
  std::vector<LinkPair> pairs;  // by (from_track, to_track)
  // Link indices ordered by signal, and the signal of each: the links of signal s are
  // by_signal_link[k] for k in [by_signal.LowerBound(s), by_signal.UpperBound(s)).
  core::store::PackedColumn<uint32_t> by_signal;
  core::store::PackedColumn<uint32_t> by_signal_link;
  size_t HeapBytes() const;
};

LinkIndex BuildLinkIndex(const LinkTable& links);

// Calls fn(link index) for every link released by signal `signal`.
template <typename Fn>
void ForEachLinkOfSignal(const LinkIndex& index, uint32_t signal, Fn&& fn) {
  const size_t last = index.by_signal.UpperBound(signal);
  for (size_t k = index.by_signal.LowerBound(signal); k < last; ++k) fn(index.by_signal_link[k]);
}

}  // namespace app::gui::timeline
