// A walk back that stops at a time (WalkBackFrom's stop_at, what a fleet summary clips each
// step's path at) against the whole walk from the same place: on simulated traces of several
// scenarios, from the end of run segments on every queue and for bounds at several depths, the
// bounded walk's steps are the whole walk's last steps, every step that ends after the bound
// among them (and those one step of the walk added at once: a run, a gap and a wait).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "core/analysis/critical_path.h"
#include "core/sim/scenario_loader.h"
#include "tests/unit/sim/sim_test_helpers.h"

using namespace core::analysis;

namespace {

auto Fields(const PathStep& s) {
  return std::make_tuple(s.kind, s.queue, s.thread, s.start, s.end, s.packet, s.wait, s.signal,
                         s.released_by_packet, s.jumped);
}

}  // namespace

TEST(CriticalPathBound, TheBoundedWalkIsTheWholeWalkAfterTheBound) {
  size_t walks = 0, cut = 0;
  for (const char* name : {"default", "async_compute_graphics", "cross_adapter",
                           "copy_prepass_lighting", "pipelined_compute_graphics"}) {
    SCOPED_TRACE(name);
    test_support::ScratchDir dir;
    const core::store::TraceStore store =
        sim_test::Simulate(core::sim::LoadScenario(name), dir, "t.db");
    const Reconstruction r = Reconstruct(store);
    const PathIndex index = IndexForPaths(r);
    for (uint32_t q = 1; q < r.queues.size(); ++q) {
      const auto& segments = r.queues[q].segments;
      const size_t stride = std::max<size_t>(1, segments.size() / 12);
      for (size_t i = 0; i < segments.size(); i += stride) {
        const PathPosition from{false, q, segments[i].end};
        const CriticalPath whole = WalkBackFrom(r, index, from);
        for (int depth = 0; depth <= 4; ++depth) {
          const TimeNs stop_at = from.t - (from.t - r.start_ns) * depth / 4;
          const CriticalPath bounded = WalkBackFrom(r, index, from, stop_at);
          // The whole walk's steps that end after the bound: a suffix of it (steps in time order).
          size_t first = whole.steps.size();
          while (first > 0 && whole.steps[first - 1].end > stop_at) --first;
          ASSERT_GE(bounded.steps.size(), whole.steps.size() - first)
              << "queue " << q << " from " << from.t << " stop at " << stop_at;
          ASSERT_LE(bounded.steps.size(), whole.steps.size());
          const size_t offset = whole.steps.size() - bounded.steps.size();
          for (size_t k = 0; k < bounded.steps.size(); ++k) {
            ASSERT_TRUE(Fields(bounded.steps[k]) == Fields(whole.steps[offset + k]))
                << "queue " << q << " from " << from.t << " stop at " << stop_at << " step " << k;
          }
          EXPECT_EQ(bounded.end, whole.end);
          ++walks;
          cut += offset > 0;
        }
      }
    }
  }
  EXPECT_GT(walks, 200u);
  EXPECT_GT(cut, 50u);  // bounds that left steps out, not only bounds below the whole walk
}
