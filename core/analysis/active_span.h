// The part of the trace span in which the GPU did something: from the first moment any queue
// ran a packet or was held by a GPU wait to the last. A PyTorch capture often begins with
// seconds of host-only work (model loading, warm-up, Python) before the first kernel; the
// reports' timeline overview draws this span, not the whole capture, and says how long the
// lead-in and the tail were.
//
//   capture   [start ............................................. end]
//   queue 1                   [run]   [run]
//   queue 2                       [wait....][run]
//   active                    [.................]
//             |-- lead-in ----|                 |-- tail --|
#pragma once

#include "core/analysis/reconstruction.h"
#include "core/analysis/time_range.h"

namespace core::analysis {

struct ActiveSpan {
  TimeRange active;           // the trace span itself when no queue did anything
  DurationNs lead_in_ns = 0;  // capture start -> first activity
  DurationNs tail_ns = 0;     // last activity -> capture end
  bool any = false;           // some queue ran a packet or was held by a wait
};

// Over every queue of the reconstruction: its run segments and its wait cover (wait_cover.h),
// both clipped to the trace span.
ActiveSpan ComputeActiveSpan(const Reconstruction& r);

}  // namespace core::analysis
