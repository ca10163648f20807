// How a report's tables and list cells are bounded (core/report/table_bounds.h): which rows are
// shown, in what order, and what the line for the rest says. Expected values worked out by hand
// from the values below.
#include "core/report/svg_chart.h"
#include "core/report/table_bounds.h"

#include <gtest/gtest.h>

using namespace core::report;

namespace {
const std::vector<double> kValues = {5, 9, 1, 9, 3};
double ValueAt(size_t i) {
  return kValues[i];
}
}  // namespace

TEST(TableBounds, TopRowsAreTheLargestWithTheRestAddedUp) {
  // 9 (row 1), 9 (row 3: ties keep the earlier row first), then 5, 3, 1 left out
  BoundedRows top = TopRows(kValues.size(), ValueAt, 2);
  EXPECT_EQ(top.shown, (std::vector<size_t>{1, 3}));
  EXPECT_EQ(top.more, 3u);
  EXPECT_EQ(top.more_value, 5 + 3 + 1);
  // the three largest (rows 1, 3, 0) in their own order; 3 + 1 left out
  top = TopRows(kValues.size(), ValueAt, 3, true);
  EXPECT_EQ(top.shown, (std::vector<size_t>{0, 1, 3}));
  EXPECT_EQ(top.more, 2u);
  EXPECT_EQ(top.more_value, 4);
  // fewer rows than the bound: all of them, nothing left out
  top = TopRows(kValues.size(), ValueAt, 20);
  EXPECT_EQ(top.shown, (std::vector<size_t>{1, 3, 0, 4, 2}));
  EXPECT_EQ(top.more, 0u);
  EXPECT_EQ(top.more_value, 0);
}

TEST(TableBounds, FirstRowsKeepTheirOrder) {
  const BoundedRows first = FirstRows(kValues.size(), ValueAt, 2);
  EXPECT_EQ(first.shown, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(first.more, 3u);
  EXPECT_EQ(first.more_value, 1 + 9 + 3);
}

TEST(TableBounds, TopOfKeepsOnlyTheRowsAsked) {
  struct Row {
    int queue;
    double ns;
  };
  const std::vector<Row> rows = {{1, 10}, {2, 0}, {3, 30}, {4, 20}};
  // row 2 is left out before bounding (a queue that did nothing): of 1, 3, 4 the largest two
  const Bounded<Row> top = TopOf(
      rows, [](const Row& r) { return r.ns > 0; }, [](const Row& r) { return r.ns; }, 2);
  ASSERT_EQ(top.shown.size(), 2u);
  EXPECT_EQ(top.shown[0]->queue, 3);
  EXPECT_EQ(top.shown[1]->queue, 4);
  EXPECT_EQ(top.more, 1u);
  EXPECT_EQ(top.more_value, 10);
}

TEST(TableBounds, TheLineForTheRest) {
  EXPECT_EQ(Thousands(0), "0");
  EXPECT_EQ(Thousands(999), "999");
  EXPECT_EQ(Thousands(1000), "1,000");
  EXPECT_EQ(Thousands(5980), "5,980");
  EXPECT_EQ(Thousands(1234567), "1,234,567");
  EXPECT_EQ(MoreLine(5980, "fence", "fences", "12.4 ms"), "and 5,980 more fences, 12.4 ms in all");
  EXPECT_EQ(MoreLine(1, "fence", "fences", "3 us"), "and 1 more fence, 3 us in all");
  EXPECT_EQ(MoreLine(2, "pass", "passes"), "and 2 more passes");
  EXPECT_EQ(MoreLine(0, "fence", "fences", "0 ns"), "");
  EXPECT_EQ(ListCell({"a: 3 us", "b: 2 us"}, 0), "a: 3 us; b: 2 us");
  EXPECT_EQ(ListCell({"a: 3 us", "b: 2 us"}, 3, "1 us"),
            "a: 3 us; b: 2 us; and 3 more, 1 us in all");
  EXPECT_EQ(ListCell({}, 0), "");
}

// Times on an axis or a caption: as many decimals as the spacing of the times needs.
TEST(TableBounds, TimesToTheDecimalsTheirStepNeeds) {
  EXPECT_EQ(FormatTimeAt(355'123'000, 128'000), "355.12 ms");  // a 0.5 ms window at 355 ms
  EXPECT_EQ(FormatTimeAt(355'251'000, 128'000), "355.25 ms");
  EXPECT_EQ(FormatTimeAt(30.5e9, 3.2e9), "30.5 s");
  EXPECT_EQ(FormatTimeAt(100, 200), "100 ns");
  EXPECT_EQ(FormatTimeAt(0, 1e9), "0 ns");
  // three significant digits where they are enough, as FormatDuration writes them
  EXPECT_EQ(FormatTimeAt(14.6e6, 46.5e6), "14.6 ms");
  EXPECT_EQ(FormatTimeAt(30, 2), "30 ns");
}
