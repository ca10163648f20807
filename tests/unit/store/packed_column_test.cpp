// PackedColumn keeps every value exactly, whatever the block's range (0 to 64 bits), in full and
// partial blocks, and its iterators work with the standard searches the loader's users run.
#include "core/store/packed_column.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "core/model/event_kind.h"

namespace {

using core::store::PackedColumn;

template <typename T>
void ExpectSame(const std::vector<T>& values) {
  PackedColumn<T> column(values);
  ASSERT_EQ(column.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(column[i], values[i]) << "index " << i;
  EXPECT_TRUE(column == values);
}

TEST(PackedColumn, EveryWidthRoundTrips) {
  std::mt19937_64 rng(7);
  for (unsigned width = 0; width <= 64; ++width) {
    std::vector<int64_t> values(64 * 3 + 17);  // three full blocks and a partial one
    const int64_t base = static_cast<int64_t>(rng()) >> 2;
    for (auto& v : values) {
      uint64_t delta = width == 64 ? rng() : width == 0 ? 0 : rng() & ((uint64_t{1} << width) - 1);
      v = static_cast<int64_t>(static_cast<uint64_t>(base) + delta);
    }
    ExpectSame(values);
  }
}

TEST(PackedColumn, ExtremesOfEachType) {
  constexpr auto kMin = std::numeric_limits<int64_t>::min();
  constexpr auto kMax = std::numeric_limits<int64_t>::max();
  ExpectSame<int64_t>({kMin, kMax, 0, -1, 1, kMin, kMax});
  ExpectSame<uint64_t>({std::numeric_limits<uint64_t>::max(), 0, 1ull << 63, 5});
  ExpectSame<uint32_t>({UINT32_MAX, 0, 7, UINT32_MAX - 1});
  ExpectSame<core::model::EventKind>(
      {core::model::EventKind::PacketStarted, core::model::EventKind::Interrupt,
       core::model::EventKind::CpuSlice});
  ExpectSame<int64_t>({});
}

TEST(PackedColumn, ConstantBlocksTakeNoBits) {
  std::vector<uint32_t> ids(64 * 1000, 3);
  PackedColumn<uint32_t> column(ids);
  EXPECT_EQ(column[12345], 3u);
  // 1000 blocks: a base, a width and a word offset each, and no packed words at all.
  EXPECT_LT(column.HeapBytes(), 1000 * 16 + 64);
}

TEST(PackedColumn, SortedTimesAreSearchedLikeTheVector) {
  std::mt19937_64 rng(11);
  std::vector<int64_t> ts(10'000);
  int64_t t = 1'000'000'000;
  for (auto& v : ts) v = t += static_cast<int64_t>(rng() % 5000);
  PackedColumn<int64_t> column(ts);
  // Sorted timestamps a few microseconds apart need far fewer than 64 bits each.
  EXPECT_LT(column.HeapBytes(), ts.size() * 3);
  for (int k = 0; k < 200; ++k) {
    int64_t probe = ts.front() + static_cast<int64_t>(rng() % (ts.back() - ts.front() + 10));
    auto a = std::lower_bound(ts.begin(), ts.end(), probe) - ts.begin();
    auto b = std::lower_bound(column.begin(), column.end(), probe) - column.begin();
    ASSERT_EQ(a, b);
    auto c = std::upper_bound(ts.begin(), ts.end(), probe) - ts.begin();
    auto d = std::upper_bound(column.begin(), column.end(), probe) - column.begin();
    ASSERT_EQ(c, d);
  }
  int64_t sum = 0;
  for (int64_t v : column) sum += v - ts.front();
  int64_t expected = 0;
  for (int64_t v : ts) expected += v - ts.front();
  EXPECT_EQ(sum, expected);
}

}  // namespace
