// VSync lines, as GPUView draws them: each adapter's vsync markers (marker records with
// marker_type 1, which its "VSync / markers" row shows as ticks) drawn as thin vertical lines
// across the rows of that adapter (its queues, its interrupts and its display row). Built once
// per trace from the timeline's tracks.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/store/packed_column.h"
#include "core/store/trace_store.h"

namespace app::gui::timeline {

struct Track;

struct AdapterVsyncs {
  uint32_t adapter = 0;
  core::store::PackedColumn<core::model::TimeNs> ts;  // sorted
  size_t size() const { return ts.size(); }
  core::model::TimeNs Time(size_t i) const { return ts[i]; }
  size_t FirstAtOrAfter(size_t lo, core::model::TimeNs t) const { return ts.LowerBound(t, lo); }
};

struct VsyncLines {
  std::vector<AdapterVsyncs> adapters;  // only adapters with vsync markers
  // [track index]: index into `adapters` of the adapter the row belongs to, -1 when the row
  // belongs to no adapter with vsync markers (CPU threads, background rows).
  std::vector<int> adapter_of_track;
  bool empty() const { return adapters.empty(); }
  size_t HeapBytes() const;
};

// From the marker lanes of `tracks` (MarkKind::kMarkers, marker_type 1 on a row of the Display
// group) and the adapter of each queue in `store`.
VsyncLines BuildVsyncLines(const core::store::TraceStore& store, const std::vector<Track>& tracks);

}  // namespace app::gui::timeline
