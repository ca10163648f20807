// The timeline's level of detail (app/gui/timeline/lod.h): folding keeps the number of draw
// items proportional to pixels and accounts for every visible span exactly once. Expected
// values are computed here by brute force over the same spans, not by the folding code.
#include "app/gui/timeline/lod.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "app/gui/timeline/timeline_model.h"

namespace {

using app::gui::timeline::CountPerBucket;
using app::gui::timeline::DrawMark;
using app::gui::timeline::DrawSpan;
using app::gui::timeline::FoldMarks;
using app::gui::timeline::FoldSpans;
using app::gui::timeline::GallopFirstNotLess;
using app::gui::timeline::MakeLodView;
using core::model::TimeNs;

struct Spans {
  std::vector<TimeNs> start, end;
  size_t size() const { return start.size(); }
  TimeNs Start(size_t i) const { return start[i]; }
  TimeNs End(size_t i) const { return end[i]; }
  void Add(TimeNs s, TimeNs e) {
    start.push_back(s);
    end.push_back(e);
  }
};

struct Marks {
  std::vector<TimeNs> ts;
  size_t size() const { return ts.size(); }
  TimeNs Time(size_t i) const { return ts[i]; }
};

size_t VisibleByBruteForce(const Spans& spans, TimeNs t0, TimeNs t1) {
  size_t n = 0;
  for (size_t i = 0; i < spans.size(); ++i) n += spans.end[i] >= t0 && spans.start[i] <= t1;
  return n;
}

// Items must cover consecutive, non-overlapping index ranges in order.
void ExpectContiguousCover(const std::vector<DrawSpan>& items, size_t first_expected,
                           size_t count_expected) {
  size_t next = first_expected;
  size_t total = 0;
  for (const auto& d : items) {
    EXPECT_EQ(d.first, next);
    EXPECT_GE(d.count, 1u);
    next = d.first + d.count;
    total += d.count;
  }
  EXPECT_EQ(total, count_expected);
}

TEST(Lod, MillionPacketsInThousandPixelsFoldToAFewThousandItems) {
  Spans spans;
  // 1,000,000 packets of 700 ns every 1000 ns: 1 ms of packets per pixel column at 1000 px.
  for (TimeNs i = 0; i < 1'000'000; ++i) spans.Add(i * 1000, i * 1000 + 700);
  auto view = MakeLodView(0, 1'000'000'000, 1000.0f, 3.0f);
  std::vector<DrawSpan> items;
  FoldSpans(spans, view, items);
  EXPECT_LE(items.size(), 3000u);
  // Folded blocks stop growing at max_fold_px (40 px; the last jump may overshoot by about
  // min_width_px), so dense stretches stay a row of blocks rather than one.
  EXPECT_GE(items.size(), 1000u / 45u);
  ExpectContiguousCover(items, 0, 1'000'000);
  for (const auto& d : items) EXPECT_GT(d.count, 1u);  // every packet is sub-pixel here
}

TEST(Lod, WideSpansAreNeverFolded) {
  Spans spans;
  for (TimeNs i = 0; i < 10; ++i) spans.Add(i * 100'000, i * 100'000 + 50'000);
  auto view = MakeLodView(0, 1'000'000, 1000.0f, 3.0f);  // each span is 50 px wide
  std::vector<DrawSpan> items;
  FoldSpans(spans, view, items);
  ASSERT_EQ(items.size(), 10u);
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(items[i].count, 1u);
    EXPECT_EQ(items[i].first, i);
    EXPECT_NEAR(items[i].x0, i * 100.0f, 0.01f);
    EXPECT_NEAR(items[i].x1, i * 100.0f + 50.0f, 0.01f);
  }
}

TEST(Lod, NarrowRunBetweenWideSpansFoldsAndKeepsTheWideOnes) {
  Spans spans;
  spans.Add(0, 100'000);  // 100 px
  for (TimeNs i = 0; i < 500; ++i) spans.Add(200'000 + i * 100, 200'000 + i * 100 + 50);
  spans.Add(300'000, 400'000);  // 100 px
  auto view = MakeLodView(0, 1'000'000, 1000.0f, 3.0f);
  std::vector<DrawSpan> items;
  FoldSpans(spans, view, items);
  ExpectContiguousCover(items, 0, spans.size());
  ASSERT_GE(items.size(), 3u);
  EXPECT_EQ(items.front().count, 1u);
  EXPECT_EQ(items.back().count, 1u);
  EXPECT_EQ(items.back().first, 501u);
  // The 500 narrow spans cover 50 px: at most two folded blocks of <= 40 px each.
  EXPECT_LE(items.size(), 4u);
}

TEST(Lod, OnlyVisibleSpansAreCountedAtEveryZoom) {
  std::mt19937_64 rng(7);
  Spans spans;
  TimeNs t = 0;
  for (int i = 0; i < 200'000; ++i) {
    t += 1 + static_cast<TimeNs>(rng() % 5000);
    TimeNs length = static_cast<TimeNs>(rng() % 3 == 0 ? rng() % 200'000 : rng() % 2000);
    spans.Add(t, t + length);
    t += length;
  }
  const TimeNs total = t;
  for (TimeNs window : {total, total / 10, total / 1000, TimeNs{50'000}}) {
    for (TimeNs from : {TimeNs{0}, total / 3, total - window}) {
      auto view = MakeLodView(from, from + window, 1200.0f, 3.0f);
      std::vector<DrawSpan> items;
      FoldSpans(spans, view, items);
      size_t expected = VisibleByBruteForce(spans, from, from + window);
      size_t first = 0;
      while (first < spans.size() && spans.end[first] < from) ++first;
      SCOPED_TRACE(testing::Message() << "window " << window << " from " << from);
      ExpectContiguousCover(items, first, expected);
      EXPECT_LE(items.size(), 1200u);  // never more items than pixel columns
    }
  }
}

TEST(Lod, MarksFoldWithinMinimumWidthAndKeepCounts) {
  Marks marks;
  for (TimeNs i = 0; i < 1'000'000; ++i) marks.ts.push_back(i * 997);
  auto view = MakeLodView(0, marks.ts.back() + 1, 1000.0f, 3.0f);
  std::vector<DrawMark> ticks;
  FoldMarks(marks.ts, view, ticks);
  EXPECT_LE(ticks.size(), 1000u / 3u + 1u);
  size_t total = 0;
  for (const auto& d : ticks) total += d.count;
  EXPECT_EQ(total, marks.ts.size());
}

TEST(Lod, RateBucketsCountEveryInstantInTheView) {
  Marks marks;
  std::mt19937_64 rng(3);
  TimeNs t = 0;
  for (int i = 0; i < 50'000; ++i) marks.ts.push_back(t += 1 + static_cast<TimeNs>(rng() % 400));
  auto view = MakeLodView(marks.ts[1000], marks.ts[40'000], 800.0f, 3.0f);
  std::vector<uint32_t> buckets;
  CountPerBucket(marks, view, 800.0f, 4.0f, buckets);
  size_t in_buckets = 0;
  for (uint32_t b : buckets) in_buckets += b;
  // Buckets span [view.start, view.start + (800/4 + 1) * 4 px): count that range by hand.
  const double ns_per_bucket = 4.0 / view.px_per_ns;
  const TimeNs covered_end = view.start + static_cast<TimeNs>(buckets.size() * ns_per_bucket);
  size_t expected = 0;
  for (TimeNs m : marks.ts) expected += m >= view.start && m < covered_end;
  EXPECT_NEAR(static_cast<double>(in_buckets), static_cast<double>(expected), 1.0);
}

TEST(Lod, GallopingSearchAgreesWithLowerBound) {
  std::mt19937_64 rng(11);
  std::vector<TimeNs> values(10'000);
  TimeNs v = 0;
  for (auto& x : values) x = v += static_cast<TimeNs>(rng() % 10);
  for (int trial = 0; trial < 2000; ++trial) {
    size_t lo = rng() % values.size();
    TimeNs target = static_cast<TimeNs>(rng() % (v + 20));
    size_t expected = std::lower_bound(values.begin() + lo, values.end(), target) - values.begin();
    size_t got =
        GallopFirstNotLess(lo, values.size(), [&](size_t i) { return values[i] < target; });
    ASSERT_EQ(got, expected) << "lo " << lo << " target " << target;
  }
}

}  // namespace

namespace {

// The search of the model's lanes (over their packed columns) must find exactly what a plain
// lower_bound finds, so folding a Lane gives the same draw items as folding the same spans
// without it.
TEST(Lod, LaneSearchAndFoldingMatchThePlainSearch) {
  std::mt19937_64 rng(5);
  std::vector<uint32_t> items;
  std::vector<TimeNs> starts, ends;
  Spans plain;
  TimeNs t = 0;
  for (uint32_t i = 0; i < 100'000; ++i) {
    t += static_cast<TimeNs>(rng() % 3000);
    TimeNs length = static_cast<TimeNs>(rng() % 4 == 0 ? rng() % 100'000 : rng() % 500);
    items.push_back(i);
    starts.push_back(t);
    ends.push_back(t + length);
    plain.Add(t, t + length);
    t += length;
  }
  const auto lane =
      app::gui::timeline::MakeLane(app::gui::timeline::LaneKind::kWaits, 0, items, starts, ends);
  ASSERT_EQ(lane.start, starts);
  for (size_t i = 0; i < ends.size(); ++i) ASSERT_EQ(lane.End(i), ends[i]) << i;
  for (int trial = 0; trial < 3000; ++trial) {
    size_t lo = rng() % ends.size();
    TimeNs target = static_cast<TimeNs>(rng() % (t + 1000));
    size_t expected = std::lower_bound(ends.begin() + lo, ends.end(), target) - ends.begin();
    ASSERT_EQ(lane.FirstEndAtOrAfter(lo, target), expected) << lo << " " << target;
  }
  for (TimeNs window : {t, t / 100, TimeNs{200'000}}) {
    auto view = MakeLodView(t / 3, t / 3 + window, 1500.0f, 3.0f);
    std::vector<DrawSpan> with_index, without;
    FoldSpans(lane, view, with_index);
    FoldSpans(plain, view, without);
    ASSERT_EQ(with_index.size(), without.size());
    for (size_t i = 0; i < without.size(); ++i) {
      EXPECT_EQ(with_index[i].first, without[i].first);
      EXPECT_EQ(with_index[i].count, without[i].count);
    }
  }
}

}  // namespace
