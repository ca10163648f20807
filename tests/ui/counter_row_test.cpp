// Counter rows of the timeline (timeline_model.h CounterRow): the queue length of CUDA streams
// as the model holds it, worked out by hand on trace C of hand_trace.h, and the per-bucket
// maxima the draw cache prepares, against a brute-force scan of the steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "app/gui/state/document.h"
#include "app/gui/timeline/draw_cache.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace {

using namespace app::gui;  // NOLINT
using core::model::TimeNs;
using hand_trace::kUs;

const timeline::Track* QueueTrack(const state::Document& doc, core::model::QueueId queue) {
  for (const auto& track : doc.model.tracks) {
    if (track.kind == timeline::TrackKind::kQueue && track.id == queue) return &track;
  }
  return nullptr;
}

// The highest value held in [t0, t1), scanning every step.
uint32_t BruteMax(const std::vector<TimeNs>& ts, const std::vector<uint32_t>& values, TimeNs t0,
                  TimeNs t1) {
  uint32_t best = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    const TimeNs until = i + 1 < ts.size() ? ts[i + 1] : std::numeric_limits<TimeNs>::max();
    if (ts[i] < t1 && until > t0) best = std::max(best, values[i]);
  }
  return best;
}

}  // namespace

TEST(CounterRow, CudaStreamsCarryTheirQueueLength) {
  test_support::ScratchDir dir;
  hand_trace::WriteCudaTrace(dir / "cuda.db");
  auto doc = state::LoadDocument(dir / "cuda.db");
  // stream A: launches at 0, 6, 90, 102 µs, starts at 10, 34, 100, 180 (K5 has no launch call)
  const timeline::Track* a = QueueTrack(*doc, 1);
  ASSERT_NE(a, nullptr);
  const std::vector<std::pair<TimeNs, uint32_t>> steps = {
      {0, 1}, {6, 2}, {10, 1}, {34, 0}, {90, 1}, {100, 0}, {102, 1}, {180, 0}};
  ASSERT_EQ(a->counter.size(), steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(a->counter.ts[i], steps[i].first * kUs) << i;
    EXPECT_EQ(a->counter.values[i], steps[i].second) << i;
  }
  EXPECT_EQ(a->counter.max, 2u);
  EXPECT_EQ(a->counter.ValueAt(8 * kUs), 2u);
  EXPECT_EQ(a->counter.MaxIn(11 * kUs, 95 * kUs), 1u);
  EXPECT_EQ(a->counter.MaxIn(35 * kUs, 89 * kUs), 0u);
  // stream C: launches at 30, 35, starts at 40, 100: two queued in [35, 40)
  const timeline::Track* c = QueueTrack(*doc, 3);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->counter.max, 2u);
  EXPECT_EQ(c->counter.MaxIn(36 * kUs, 37 * kUs), 2u);
}

TEST(CounterRow, TracesWithoutLaunchCallsHaveNone) {
  test_support::ScratchDir dir;
  hand_trace::WriteTraceA(dir / "a.db");
  auto doc = state::LoadDocument(dir / "a.db");
  for (const auto& track : doc->model.tracks) EXPECT_TRUE(track.counter.empty()) << track.label;
}

TEST(CounterRow, BucketMaximaAgreeWithAScanOfEveryStep) {
  // 100,000 random steps (block maxima over 64 steps are used for long ranges), many views.
  std::mt19937_64 rng(7);
  std::vector<TimeNs> ts;
  std::vector<uint32_t> values;
  TimeNs t = 1000;
  for (int i = 0; i < 100'000; ++i) {
    t += 1 + static_cast<TimeNs>(rng() % 500);
    ts.push_back(t);
    values.push_back(static_cast<uint32_t>(rng() % 1000));
  }
  const timeline::CounterRow row = timeline::MakeCounterRow("q", ts, values);
  EXPECT_EQ(row.max, *std::max_element(values.begin(), values.end()));
  for (int view_index = 0; view_index < 20; ++view_index) {
    const TimeNs from = static_cast<TimeNs>(rng() % static_cast<uint64_t>(t));
    const TimeNs window = 1 + static_cast<TimeNs>(rng() % static_cast<uint64_t>(t / (1 + view_index)));
    const auto view = timeline::MakeLodView(from, from + window, 900.0f, 3.0f);
    std::vector<uint32_t> buckets;
    timeline::CounterPerBucket(row, view, 900.0f, 4.0f, buckets);
    ASSERT_EQ(buckets.size(), 900u / 4 + 1);
    const double ns_per_bucket = 4.0 / view.px_per_ns;
    TimeNs b0 = view.start;
    for (size_t k = 0; k < buckets.size(); ++k) {
      const TimeNs b1 = view.start + static_cast<TimeNs>((k + 1) * ns_per_bucket);
      ASSERT_EQ(buckets[k], BruteMax(ts, values, b0, std::max(b1, b0 + 1)))
          << "view " << view_index << " bucket " << k;
      b0 = b1;
    }
  }
}
