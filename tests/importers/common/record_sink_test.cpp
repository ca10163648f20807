// The records an importer holds before writing them (RecordSink over RecordBlocks): over several
// blocks of 65,536, appended in reverse time order with an argument and a flow each, they are
// written in time order with every argument and flow on its own record. Expected values come
// from the loop that made the records; the written trace is read back with SQL.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/store/sqlite_db.h"
#include "core/store/trace_writer.h"
#include "importers/common/record_blocks.h"
#include "importers/common/record_sink.h"
#include "tests/support/test_support.h"

namespace {

using core::model::events::Instant;

TEST(RecordBlocks, ElementsStayWhereTheyAreAsTheArrayGrows) {
  importers::RecordBlocks<int64_t> blocks;
  blocks.push_back(7);
  const int64_t* first = &blocks[0];
  constexpr size_t kCount = 3 * importers::RecordBlocks<int64_t>::kBlock + 5;
  for (size_t i = 1; i < kCount; ++i) blocks.push_back(static_cast<int64_t>(i) * 3);
  EXPECT_EQ(&blocks[0], first);  // a vector would have moved it
  EXPECT_EQ(*first, 7);
  ASSERT_EQ(blocks.size(), kCount);
  int64_t sum = 0;
  blocks.ForEach([&](int64_t v) { sum += v; });
  // 7 + 3 * (1 + 2 + ... + (kCount - 1))
  EXPECT_EQ(sum, 7 + 3 * static_cast<int64_t>(kCount * (kCount - 1) / 2));
  EXPECT_EQ(blocks[kCount - 1], static_cast<int64_t>(kCount - 1) * 3);
  // Freeing the block of element kBlock (the first whole one) keeps its neighbours'.
  const size_t whole =
      importers::RecordBlocks<int64_t>::BlockOf(importers::RecordBlocks<int64_t>::kBlock);
  EXPECT_EQ(whole, importers::RecordBlocks<int64_t>::BlockOf(
                       2 * importers::RecordBlocks<int64_t>::kBlock - 1));
  EXPECT_NE(whole, importers::RecordBlocks<int64_t>::BlockOf(
                       2 * importers::RecordBlocks<int64_t>::kBlock));
  blocks.FreeBlock(whole);
  EXPECT_EQ(blocks[2 * importers::RecordBlocks<int64_t>::kBlock], int64_t{2 * 65536 * 3});
  EXPECT_EQ(blocks[importers::RecordBlocks<int64_t>::kBlock - 1], int64_t{(65536 - 1) * 3});
}

// The first blocks grow (1,024 elements, then 1,024, 2,048, ... 32,768): a few elements take
// one small block, and every element is found where it was put across the blocks' edges.
TEST(RecordBlocks, AFewElementsTakeASmallBlockAndEachIsFoundAcrossTheGrowingBlocks) {
  using Blocks = importers::RecordBlocks<int64_t>;
  Blocks blocks;
  for (int64_t i = 0; i < 10; ++i) blocks.push_back(i);
  EXPECT_EQ(blocks.capacity(), 1024u);
  constexpr size_t kCount = 2 * Blocks::kBlock + 3;
  std::vector<const int64_t*> places;
  for (size_t i = 10; i < kCount; ++i) blocks.push_back(static_cast<int64_t>(i));
  for (size_t i = 0; i < kCount; ++i) places.push_back(&blocks[i]);
  // 65,536 in the growing blocks, then whole blocks of 65,536: two more for kCount.
  EXPECT_EQ(blocks.capacity(), 3 * Blocks::kBlock);
  size_t wrong = 0, moved = 0, in_order = 0;
  for (size_t i = 0; i < kCount; ++i) wrong += blocks[i] != static_cast<int64_t>(i);
  for (int64_t i = 0; i < 1000; ++i) blocks.push_back(i);
  for (size_t i = 0; i < kCount; ++i) moved += &blocks[i] != places[i];
  blocks.ForEach([&](int64_t v) {
    in_order += in_order < kCount ? v == static_cast<int64_t>(in_order) : 1;
  });
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(moved, 0u);
  EXPECT_EQ(in_order, kCount + 1000);
  // Blocks 0 .. 2 (elements 0 .. 1023, 1024 .. 2047, 2048 .. 4095), each as long as it holds,
  // freed; the block from 4,096 on is kept.
  EXPECT_EQ(blocks.block_count(), 7u + 2u);
  for (size_t block = 0; block < 3; ++block) {
    EXPECT_EQ(Blocks::BlockOf(block == 0 ? 0 : (size_t{1024} << (block - 1))), block);
    EXPECT_EQ(blocks.BlockLength(block), block == 0 ? 1024u : (size_t{1024} << (block - 1)));
    blocks.FreeBlock(block);
  }
  EXPECT_EQ(Blocks::BlockOf(4095), 2u);
  EXPECT_EQ(Blocks::BlockOf(4096), 3u);
  EXPECT_EQ(blocks.capacity(), 3 * Blocks::kBlock - 4096);
  EXPECT_EQ(blocks[4096], 4096);
}

TEST(RecordSink, RecordsOfSeveralBlocksAreWrittenInTimeOrderWithTheirArgumentsAndFlows) {
  test_support::ScratchDir dir;
  const auto path = dir / "sink.db";
  constexpr uint32_t kRecords = 200'000;  // three blocks and part of a fourth
  {
    core::store::TraceWriter writer(path, "unit-test");
    importers::RecordSink sink;
    for (uint32_t i = 0; i < kRecords; ++i) {
      // created latest-first: record i at time kRecords - i
      const uint32_t record = sink.Add(Instant{.ts_ns = int64_t{kRecords} - i});
      ASSERT_EQ(record, i);
      sink.AddArg(record, "created", i);
      if (i > 0) sink.AddFlow(i, i - 1, core::model::FlowKind::kGeneric, 0);
    }
    sink.WriteTo(writer, 1000, {}, [](double) {});
    writer.Commit();
  }
  core::store::Database db(path.string(), core::store::Database::Mode::kReadOnly);
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM events"), kRecords);
  // In time order: rowid r holds time 1000 + r (the offset added), the last-created first.
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM events WHERE ts_ns != 1000 + rowid"), 0);
  // Each argument on its record: record i (time kRecords - i, so rowid kRecords - i) says i.
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM event_args"), kRecords);
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM event_args WHERE int_value != " +
                        std::to_string(kRecords) + " - event_rowid"),
            0);
  // Flow i -> i - 1 joins rowid kRecords - i to the next rowid.
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM flows"), kRecords - 1);
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM flows WHERE to_event != from_event + 1"), 0);
}

}  // namespace
