// RocpdIdTable: rows found by id whether the ids run 1 by 1 (found by position) or not (gaps,
// out of order, repeated: sorted, repeated ids merged in the order they were added), and
// ids at the ends of int64 (the file's own) found without overflow.
#include "importers/rocprof/rocpd_id_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

using importers::rocprof::RocpdIdTable;

TEST(RocpdIdTable, DenseIdsAreFoundByPosition) {
  RocpdIdTable<int> table;
  for (int id = 5; id < 15; ++id) table.Add(id, id * 10);
  table.Seal();
  for (int id = 5; id < 15; ++id) {
    ASSERT_NE(table.Find(id), nullptr) << id;
    EXPECT_EQ(*table.Find(id), id * 10);
  }
  EXPECT_EQ(table.Find(4), nullptr);
  EXPECT_EQ(table.Find(15), nullptr);
  EXPECT_EQ(table.Find(-1), nullptr);
}

TEST(RocpdIdTable, GapsAndDisorderAreFoundBySearch) {
  RocpdIdTable<int> table;
  for (int id : {30, 10, 20, 50}) table.Add(id, id + 1);
  table.Seal();
  for (int id : {10, 20, 30, 50}) {
    ASSERT_NE(table.Find(id), nullptr) << id;
    EXPECT_EQ(*table.Find(id), id + 1);
  }
  for (int id : {0, 11, 40, 51}) EXPECT_EQ(table.Find(id), nullptr) << id;
}

TEST(RocpdIdTable, RepeatedIdsAreMergedInTheOrderAdded) {
  struct Pair {
    int a = -1, b = -1;
  };
  RocpdIdTable<Pair> table;
  table.Last(7).a = 1;  // the first part of id 7
  table.Last(7).b = 2;  // the same row, consecutively
  table.Last(3).a = 4;
  table.Last(7).a = 5;  // id 7 again, apart: merged later
  table.Seal([](Pair& earlier, const Pair& later) {
    if (later.a >= 0) earlier.a = later.a;
    if (later.b >= 0) earlier.b = later.b;
  });
  ASSERT_NE(table.Find(7), nullptr);
  EXPECT_EQ(table.Find(7)->a, 5);
  EXPECT_EQ(table.Find(7)->b, 2);
  ASSERT_NE(table.Find(3), nullptr);
  EXPECT_EQ(table.Find(3)->a, 4);
  EXPECT_EQ(table.Find(5), nullptr);

  RocpdIdTable<int> replaced;  // by default the later row wins
  replaced.Add(1, 10);
  replaced.Add(1, 11);
  replaced.Seal();
  ASSERT_NE(replaced.Find(1), nullptr);
  EXPECT_EQ(*replaced.Find(1), 11);
}

TEST(RocpdIdTable, IdsAtTheEndsOfInt64) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  RocpdIdTable<int> table;
  table.Add(kMin, 1);
  table.Add(kMax, 2);
  table.Seal();
  ASSERT_NE(table.Find(kMin), nullptr);
  EXPECT_EQ(*table.Find(kMin), 1);
  ASSERT_NE(table.Find(kMax), nullptr);
  EXPECT_EQ(*table.Find(kMax), 2);
  EXPECT_EQ(table.Find(0), nullptr);

  RocpdIdTable<int> top;  // dense at the top: no position past the end
  top.Add(kMax - 1, 1);
  top.Add(kMax, 2);
  top.Seal();
  EXPECT_EQ(*top.Find(kMax), 2);
  EXPECT_EQ(top.Find(kMin), nullptr);
  EXPECT_EQ(top.Find(kMax - 2), nullptr);
}

}  // namespace
