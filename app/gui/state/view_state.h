// ViewState: what the user is looking at in one document, as meaning (times, ids), not widgets.
// Visible range, selection, selected time range, bookmarks, track visibility and order, toggles.
// The timeline rebuilds its draw lists only when DrawKey() changes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/state/saved_whatif.h"
#include "core/model/types.h"

namespace app::gui::state {

using core::model::TimeNs;

struct TimeRange {
  TimeNs start = 0;
  TimeNs end = 0;
  TimeNs Length() const { return end - start; }
  bool Valid() const { return end > start; }
};

// What is selected: a reconstructed thing (index into the reconstruction's vector of that
// kind) or a raw record (index into TraceStore::events).
enum class SelectionKind : uint8_t {
  kNone,
  kPacket,      // Reconstruction::packets
  kSignal,      // Reconstruction::signals
  kWait,        // Reconstruction::waits
  kCpuWait,     // Reconstruction::cpu_waits
  kTask,        // Reconstruction::tasks
  kInterrupt,   // Reconstruction::interrupts
  kModeChange,  // Reconstruction::mode_changes
  kMissing,     // Reconstruction::queues[queue].missing
  kEvent,       // TraceStore::events (a record, e.g. from the event table or a cpu_slice)
  // Every packet one row of the packet statistics stands for: index = the name (StringId), queue
  // = the queue; the completed packets of that name on that queue (core PacketsCounted).
  kPacketName,
};

struct Selection {
  SelectionKind kind = SelectionKind::kNone;
  uint32_t index = 0;
  uint32_t queue = 0;  // for kMissing and kPacketName
  bool Empty() const { return kind == SelectionKind::kNone; }
  bool operator==(const Selection&) const = default;
};

struct Bookmark {
  TimeNs ts = 0;
  std::string label;
};

struct ViewState {
  TimeRange trace;    // the whole trace
  TimeRange visible;  // what the timeline shows
  Selection selection;
  TimeRange selected_range;  // empty (end <= start) when none
  std::vector<Bookmark> bookmarks;
  // Track rows: display order (indices into the timeline model's tracks) and hidden flags.
  std::vector<int> track_order;
  std::vector<uint8_t> track_hidden;     // [track index]
  std::vector<uint8_t> group_collapsed;  // [group index]
  std::vector<uint8_t> track_expanded;   // [track index]: show every lane of boxes
  bool show_arrows = true;
  bool show_fence_boxes = true;
  bool show_rate_curve = true;
  bool show_vsync = true;          // vsync lines across each adapter's rows
  SavedWhatIf whatif;              // the What-if panel's question about this trace, when saved
  uint64_t layout_generation = 0;  // bump when order / visibility / toggles change
};

// Sets the trace span and fits the view to it; resets track order for `tracks` rows.
void ResetView(ViewState& view, TimeRange trace, size_t tracks, size_t groups);

// Zooms by `factor` (< 1 zooms in) keeping `pivot` at the same screen position. The visible
// range never gets shorter than 100 ns nor longer than 4x the trace.
void ZoomAround(ViewState& view, TimeNs pivot, double factor);
// Moves the visible range by `delta` ns (positive moves later).
void Pan(ViewState& view, TimeNs delta);
// Shows `range` with a small margin on each side.
void ZoomTo(ViewState& view, TimeRange range);
void FitAll(ViewState& view);

}  // namespace app::gui::state
