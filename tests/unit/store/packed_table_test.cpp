// PackedTable gives back exactly the structs it was built from (every field, extreme values
// mixed with ordinary ones in one block, full and partial blocks), and its iterators work with
// the standard searches the timeline and the analyses run. Expectations come from the source
// vector, never from the table.
#include "core/store/packed_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <random>
#include <tuple>

namespace {

using core::store::PackedTable;

constexpr int64_t kUnknownTime = std::numeric_limits<int64_t>::min();
constexpr uint32_t kNoIndex = std::numeric_limits<uint32_t>::max();

enum class Colour : uint8_t { kRed = 0, kGreen = 1, kBlue = 200 };

struct Row {
  int64_t id = 0;
  int64_t start = kUnknownTime;
  int64_t end = kUnknownTime;
  uint64_t value = 0;
  int32_t delta = 0;
  uint32_t link = kNoIndex;
  Colour colour = Colour::kRed;
  bool open = false;
  bool lost = false;
  static constexpr auto kPackedFields =
      std::make_tuple(&Row::id, &Row::start, &Row::end, &Row::value, &Row::delta, &Row::link,
                      &Row::colour, &Row::open, &Row::lost);
};

// Field by field, written out independently of the table's own comparison.
void ExpectRow(const Row& got, const Row& want, size_t i) {
  EXPECT_EQ(got.id, want.id) << "row " << i;
  EXPECT_EQ(got.start, want.start) << "row " << i;
  EXPECT_EQ(got.end, want.end) << "row " << i;
  EXPECT_EQ(got.value, want.value) << "row " << i;
  EXPECT_EQ(got.delta, want.delta) << "row " << i;
  EXPECT_EQ(got.link, want.link) << "row " << i;
  EXPECT_EQ(got.colour, want.colour) << "row " << i;
  EXPECT_EQ(got.open, want.open) << "row " << i;
  EXPECT_EQ(got.lost, want.lost) << "row " << i;
}

void ExpectSame(const std::vector<Row>& rows) {
  PackedTable<Row> table(rows);
  ASSERT_EQ(table.size(), rows.size());
  EXPECT_EQ(table.empty(), rows.empty());
  for (size_t i = 0; i < rows.size(); ++i) ExpectRow(table[i], rows[i], i);
  size_t i = 0;
  for (const Row& row : table) {
    ASSERT_LT(i, rows.size());
    ExpectRow(row, rows[i], i);
    ++i;
  }
  EXPECT_EQ(i, rows.size());
  EXPECT_TRUE(table == rows);
  EXPECT_TRUE(table == PackedTable<Row>(rows));
}

// Times a few microseconds apart with unknown times among them, sizes in several blocks.
std::vector<Row> MixedRows(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows(n);
  int64_t t = 1'700'000'000'000;
  for (size_t i = 0; i < n; ++i) {
    Row& r = rows[i];
    r.id = static_cast<int64_t>(i) + 1;
    t += static_cast<int64_t>(rng() % 20'000);
    r.start = rng() % 7 == 0 ? kUnknownTime : t;
    r.end = rng() % 5 == 0 ? kUnknownTime : t + static_cast<int64_t>(rng() % 100'000);
    r.value = rng() % 11 == 0 ? std::numeric_limits<uint64_t>::max() : rng() % 1000;
    r.delta = static_cast<int32_t>(rng() % 2001) - 1000;
    r.link = rng() % 3 == 0 ? kNoIndex : static_cast<uint32_t>(i / 2);
    r.colour = static_cast<Colour>(std::array<uint8_t, 3>{0, 1, 200}[rng() % 3]);
    r.open = rng() % 2 == 0;
    r.lost = rng() % 13 == 0;
  }
  return rows;
}

TEST(PackedTable, EmptyTable) {
  ExpectSame({});
  PackedTable<Row> table;
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(table.begin(), table.end());
  EXPECT_EQ(table.HeapBytes(), 0u);
}

TEST(PackedTable, ExtremesMixedWithOrdinaryValuesInOneBlock) {
  constexpr auto kMin = std::numeric_limits<int64_t>::min();
  constexpr auto kMax = std::numeric_limits<int64_t>::max();
  std::vector<Row> rows = {
      {1, 1000, 2000, 5, -3, 0, Colour::kGreen, true, false},
      {kMin, kUnknownTime, 2500, std::numeric_limits<uint64_t>::max(), -2'147'483'647 - 1,
       kNoIndex, Colour::kBlue, false, true},
      {kMax, 1010, kUnknownTime, 0, 2'147'483'647, 7, Colour::kRed, true, true},
      {-1, -5, -1'000'000, 1ull << 63, 0, kNoIndex - 1, Colour::kGreen, false, false},
  };
  ExpectSame(rows);
}

TEST(PackedTable, SizesAroundTheBlockBoundary) {
  for (size_t n : {1u, 2u, 63u, 64u, 65u, 127u, 128u, 129u, 1000u}) {
    SCOPED_TRACE(n);
    ExpectSame(MixedRows(n, n));
  }
}

TEST(PackedTable, FrontBackAndSingleFields) {
  const std::vector<Row> rows = MixedRows(300, 5);
  PackedTable<Row> table(rows);
  ExpectRow(table.front(), rows.front(), 0);
  ExpectRow(table.back(), rows.back(), rows.size() - 1);
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(table.Get<&Row::start>(i), rows[i].start);
    ASSERT_EQ(table.Get<&Row::colour>(i), rows[i].colour);
    ASSERT_EQ(table.Get<&Row::lost>(i), rows[i].lost);
  }
  const auto& ends = table.Column<&Row::end>();
  ASSERT_EQ(ends.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(ends[i], rows[i].end);
  // Through the iterator's arrow as well.
  auto it = table.begin() + 17;
  EXPECT_EQ(it->id, rows[17].id);
  EXPECT_EQ(it->link, rows[17].link);
}

TEST(PackedTable, ChangedFieldMakesTablesDiffer) {
  std::vector<Row> rows = MixedRows(130, 9);
  PackedTable<Row> table(rows);
  rows[129].lost = !rows[129].lost;
  EXPECT_FALSE(table == rows);
  EXPECT_FALSE(table == PackedTable<Row>(rows));
}

TEST(PackedTable, IteratorsWorkWithStandardSearches) {
  std::mt19937_64 rng(3);
  std::vector<Row> rows(5000);
  int64_t t = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].id = static_cast<int64_t>(i);
    rows[i].start = t += static_cast<int64_t>(rng() % 3000);
  }
  PackedTable<Row> table(rows);
  auto by_start = [](const Row& r, int64_t ts) { return r.start < ts; };
  for (int k = 0; k < 300; ++k) {
    const int64_t probe = static_cast<int64_t>(rng() % static_cast<uint64_t>(t + 100)) - 50;
    auto want = std::lower_bound(rows.begin(), rows.end(), probe, by_start) - rows.begin();
    auto got = std::lower_bound(table.begin(), table.end(), probe, by_start) - table.begin();
    ASSERT_EQ(got, want) << probe;
    auto want_pp = std::partition_point(rows.begin(), rows.end(),
                                        [&](const Row& r) { return r.start <= probe; }) -
                   rows.begin();
    auto got_pp = std::partition_point(table.begin(), table.end(),
                                       [&](const Row& r) { return r.start <= probe; }) -
                  table.begin();
    ASSERT_EQ(got_pp, want_pp) << probe;
  }
  // Reverse iteration and iterator arithmetic.
  std::vector<int64_t> reversed;
  for (auto it = table.end(); it != table.begin();) reversed.push_back((--it)->id);
  ASSERT_EQ(reversed.size(), rows.size());
  EXPECT_EQ(reversed.front(), rows.back().id);
  EXPECT_EQ(reversed.back(), rows.front().id);
  EXPECT_EQ(table.end() - table.begin(), static_cast<ptrdiff_t>(rows.size()));
  EXPECT_EQ((table.begin() + 10)[5].id, rows[15].id);
}

TEST(PackedTable, SlowlyChangingFieldsTakeFewBytes) {
  std::vector<Row> rows = MixedRows(64 * 100, 21);
  for (auto& r : rows) r.value = 3, r.start = r.end = kUnknownTime, r.link = 1;
  PackedTable<Row> table(rows);
  // 9 fields of 8 + 8 + 8 + 8 + 4 + 4 + 1 + 1 + 1 bytes = 43 bytes of data per row as plain
  // vectors; packed: id and delta need ~7 and ~11 bits, the bools 1, the colour 8, the constant
  // columns none, plus 13 bytes of block header per column per 64 rows.
  EXPECT_LT(table.HeapBytes(), rows.size() * 8);
}

}  // namespace
