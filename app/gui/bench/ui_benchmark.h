// `fencescope bench ui`: builds timeline frames headless (an ImGui context with no window, the
// example_null pattern) over synthetic workloads of N events and prints CPU ms per frame (thread
// CPU time, so other processes on the machine do not count) at full zoom-out and in a 1 ms
// window, with the view moving every frame (the draw lists are rebuilt each frame: the worst
// case) and standing still, and resident bytes per event. A further case runs the same frames
// over a trace dense in fence waits (dense_wait_workload.h), where thousands of
// signal -> wait arrows are in view at full zoom-out.
// Targets (issue 6): 10M events <= 2x the 10K frame time; <= 8 ms per frame; <= 32 B/event.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "core/cache/cached_trace.h"

namespace app::gui::bench {

struct UiBenchCase {
  const char* workload = "";  // "frames" (synthetic_workload.h) or "dense waits"
  uint64_t events = 0;
  double load_seconds = 0;          // first open: rows -> store, analyses, model (+ cache write)
  double raw_select_seconds = 0;    // SQLite's own SELECT of every event row, nothing kept
  double cached_first_frame_seconds = 0;  // second open (cache present): open -> first frame
  double cached_load_seconds = 0;   // second open: open -> everything loaded
  double rss_bytes_per_event = 0;   // resident growth from loading, per event
  double net_bytes_per_event = 0;   // the same less what every open trace holds
  double ui_bytes_per_event = 0;    // timeline model + draw lists only, per event
  double columns_bytes_per_event = 0;         // the trace's packed event columns
  double reconstruction_bytes_per_event = 0;  // core::analysis::Reconstruction
  double zoomed_out_moving_ms = 0;  // per frame, view moved 1 px each frame
  double zoomed_out_still_ms = 0;   // per frame, view unchanged
  double window_1ms_moving_ms = 0;
  double window_1ms_still_ms = 0;
  size_t zoomed_out_items = 0;  // draw items (spans + ticks) after LOD
  size_t window_1ms_items = 0;
  // The same frames (view moving) with a prediction tab's overlay: the trace's own packets
  // outlined under its boxes, the What-if panel shown.
  double prediction_zoomed_out_moving_ms = 0;
  double prediction_window_1ms_moving_ms = 0;
  size_t prediction_outlines = 0;  // outlines drawn zoomed out
  // Arrows at full zoom-out: links in view, single arrows and bundles drawn.
  size_t zoomed_out_links = 0;
  size_t zoomed_out_arrows = 0;
  size_t zoomed_out_bundles = 0;
  // The first open's steps (reading the rows, reconstruction, analyses, ...), in seconds.
  std::vector<core::cache::CachedTrace::Timing> first_open_steps;
};

// Runs every case, printing a line per case as it finishes and a summary against the targets.
// `dense_wait_events`: size of the dense-waits case (0: none).
std::vector<UiBenchCase> RunUiBenchmark(const std::vector<uint64_t>& event_counts, int frames,
                                        std::ostream& out, uint64_t dense_wait_events = 0);

}  // namespace app::gui::bench
