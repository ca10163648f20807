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

// Decode of a range gives the values operator[] would, from any start, across block edges.
TEST(PackedColumn, DecodeOfARangeMatchesTheVector) {
  std::mt19937_64 rng(5);
  std::vector<int64_t> values(64 * 4 + 9);
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t block = i / 64;  // widths 0, 7, 64 and 33 bits
    values[i] = block == 0   ? -42
                : block == 1 ? static_cast<int64_t>(rng() % 128) - 64
                : block == 2 ? static_cast<int64_t>(rng())
                             : static_cast<int64_t>(rng() % (uint64_t{1} << 33));
  }
  values[70] = std::numeric_limits<int64_t>::min();
  PackedColumn<int64_t> column(values);
  for (size_t first : {0u, 1u, 63u, 64u, 100u, 190u, 200u, 256u, 264u}) {
    for (size_t count : {0u, 1u, 5u, 64u, 65u, 130u}) {
      if (first + count > values.size()) continue;
      std::vector<int64_t> out(count, 12345);
      column.Decode(first, count, out.data());
      for (size_t k = 0; k < count; ++k) {
        ASSERT_EQ(out[k], values[first + k]) << "first " << first << " k " << k;
      }
    }
  }
}

// ForEachEqual visits exactly the indices a plain scan finds, in order, in blocks of one repeated
// value (the value sought or another), mixed blocks and a partial last block; Contains agrees.
TEST(PackedColumn, ForEachEqualFindsWhatAScanFinds) {
  using core::model::EventKind;
  std::mt19937_64 rng(11);
  const EventKind kinds[] = {EventKind::PacketSubmitted, EventKind::PacketStarted,
                             EventKind::CpuSlice, EventKind::Marker};
  std::vector<EventKind> values(64 * 5 + 23);
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t block = i / 64;
    values[i] = block == 0   ? EventKind::CpuSlice       // one repeated value, the one sought
                : block == 1 ? EventKind::PacketStarted  // one repeated other value
                             : kinds[rng() % 4];         // mixed, and the partial block
  }
  const PackedColumn<EventKind> column(values);
  for (EventKind sought :
       {EventKind::CpuSlice, EventKind::Marker, EventKind::PacketStarted, EventKind::LogWrite}) {
    std::vector<size_t> expected, found;
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i] == sought) expected.push_back(i);
    }
    column.ForEachEqual(sought, [&](size_t i) { found.push_back(i); });
    EXPECT_EQ(found, expected);
    EXPECT_EQ(column.Contains(sought), !expected.empty());
  }
  EXPECT_FALSE(PackedColumn<EventKind>(std::vector<EventKind>{}).Contains(EventKind::CpuSlice));
}

TEST(PackedColumn, ExtremesOfEachType) {
  constexpr auto kMin = std::numeric_limits<int64_t>::min();
  constexpr auto kMax = std::numeric_limits<int64_t>::max();
  ExpectSame<int64_t>({kMin, kMax, 0, -1, 1, kMin, kMax});
  ExpectSame<uint64_t>({std::numeric_limits<uint64_t>::max(), 0, 1ull << 63, 5});
  ExpectSame<uint32_t>({UINT32_MAX, 0, 7, UINT32_MAX - 1});
  ExpectSame<core::model::EventKind>({core::model::EventKind::PacketStarted,
                                      core::model::EventKind::Interrupt,
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

// LowerBound / UpperBound of a sorted column answer like std::lower_bound / std::upper_bound on
// the vector: runs of equal values across block edges, unknown times (INT64_MIN) at the front,
// probes before, between and after the values.
TEST(PackedColumn, SortedSearchesMatchTheStandardOnes) {
  std::mt19937_64 rng(17);
  for (size_t n : {0u, 1u, 63u, 64u, 65u, 200u, 5000u}) {
    std::vector<int64_t> ts(n);
    int64_t t = -3000;
    for (size_t i = 0; i < n; ++i) {
      if (i < n / 10) {
        ts[i] = std::numeric_limits<int64_t>::min();
        continue;
      }
      t += static_cast<int64_t>(rng() % 4) * static_cast<int64_t>(rng() % 3);  // many repeats
      ts[i] = t;
    }
    PackedColumn<int64_t> column(ts);
    std::vector<int64_t> probes = {std::numeric_limits<int64_t>::min(), -5000, -3000, t, t + 1};
    for (int k = 0; k < 300; ++k) probes.push_back(-3010 + static_cast<int64_t>(rng() % 4000));
    for (int64_t probe : probes) {
      ASSERT_EQ(column.LowerBound(probe),
                static_cast<size_t>(std::lower_bound(ts.begin(), ts.end(), probe) - ts.begin()))
          << "n " << n << " probe " << probe;
      ASSERT_EQ(column.UpperBound(probe),
                static_cast<size_t>(std::upper_bound(ts.begin(), ts.end(), probe) - ts.begin()))
          << "n " << n << " probe " << probe;
      // From a starting index: the search over [from, n) only.
      for (size_t from : {size_t{0}, size_t{1}, n / 3, n / 2 + 63, n, n + 5}) {
        const auto begin = ts.begin() + static_cast<std::ptrdiff_t>(std::min(from, n));
        ASSERT_EQ(column.LowerBound(probe, from),
                  static_cast<size_t>(std::lower_bound(begin, ts.end(), probe) - ts.begin()))
            << "n " << n << " probe " << probe << " from " << from;
        ASSERT_EQ(column.UpperBound(probe, from),
                  static_cast<size_t>(std::upper_bound(begin, ts.end(), probe) - ts.begin()))
            << "n " << n << " probe " << probe << " from " << from;
      }
    }
  }
  // Unsigned 64-bit values beyond INT64_MAX keep their unsigned order.
  std::vector<uint64_t> big;
  for (uint64_t i = 0; i < 300; ++i) big.push_back((uint64_t{1} << 63) - 150 + i * 3);
  PackedColumn<uint64_t> column(big);
  for (uint64_t probe : {uint64_t{0}, big[10], big[10] + 1, big[150], big[299] + 1,
                         std::numeric_limits<uint64_t>::max()}) {
    ASSERT_EQ(column.LowerBound(probe),
              static_cast<size_t>(std::lower_bound(big.begin(), big.end(), probe) - big.begin()));
    ASSERT_EQ(column.UpperBound(probe),
              static_cast<size_t>(std::upper_bound(big.begin(), big.end(), probe) - big.begin()));
  }
}

}  // namespace

namespace {

// A column built in two pieces (AppendColumn: the first still being built, the second finished)
// holds the values of both in order: when the first ends on a whole block (blocks taken as they
// are) and when it ends inside one (values packed again), at every width.
TEST(PackedColumn, AppendedPiecesHoldBothInOrder) {
  std::mt19937_64 rng(3);
  for (size_t first_size : {0, 1, 63, 64, 65, 128, 200}) {
    for (size_t second_size : {1, 63, 64, 100, 300}) {
      for (unsigned width : {0u, 1u, 7u, 33u, 64u}) {
        auto values = [&](size_t n) {
          std::vector<int64_t> v(n);
          for (auto& x : v) {
            const uint64_t delta = width == 64  ? rng()
                                   : width == 0 ? 0
                                                : rng() & ((uint64_t{1} << width) - 1);
            x = static_cast<int64_t>(uint64_t{1000} + delta);
          }
          return v;
        };
        const auto a = values(first_size), b = values(second_size);
        PackedColumn<int64_t> built, tail(b);
        built.Clear();
        for (size_t begin = 0; begin < a.size(); begin += 64) {
          built.AppendBlock(a.data() + begin, std::min<size_t>(64, a.size() - begin));
        }
        built.AppendColumn(tail);
        built.Finish();
        std::vector<int64_t> both = a;
        both.insert(both.end(), b.begin(), b.end());
        ASSERT_TRUE(built == both) << first_size << " + " << second_size << " at width " << width;
        std::vector<int64_t> decoded(both.size());
        built.Decode(0, decoded.size(), decoded.data());
        EXPECT_EQ(decoded, both);
      }
    }
  }
}

}  // namespace
