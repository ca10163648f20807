// Per-name packet statistics, the packet-completion lookup and the names on critical-path steps,
// on hand-made traces. Every expected number is worked out by hand next to the trace.
#include "core/analysis/packet_stats.h"

#include <gtest/gtest.h>

#include "core/analysis/critical_path.h"
#include "core/analysis/packet_completions.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using namespace core::analysis;
using core::store::TraceStore;
using hand_trace::WriteNamedPacketTrace;
using hand_trace::WriteNamedPathTrace;
using test_support::ScratchDir;

namespace {

std::vector<int64_t> PacketIds(const Reconstruction& r, const std::vector<uint32_t>& packets) {
  std::vector<int64_t> ids;
  for (uint32_t p : packets) ids.push_back(r.packets[p].packet_id);
  return ids;
}

struct Row {
  std::string name;
  QueueId queue;
  uint64_t count;
  DurationNs total;
  double mean;
  DurationNs p50, p99, max;
};

void ExpectRow(const TraceStore& store, const PacketNameStats& got, const Row& want) {
  SCOPED_TRACE(want.name);
  EXPECT_EQ(store.String(got.name), want.name);
  EXPECT_EQ(got.queue, want.queue);
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.total_ns, want.total);
  EXPECT_DOUBLE_EQ(got.mean_ns, want.mean);
  EXPECT_EQ(got.p50_ns, want.p50);
  EXPECT_EQ(got.p99_ns, want.p99);
  EXPECT_EQ(got.max_ns, want.max);
}

}  // namespace

TEST(PacketStats, PerNameAndQueueRunTimes) {
  ScratchDir dir;
  TraceStore store = WriteNamedPacketTrace(dir / "n.db");
  Reconstruction r = Reconstruct(store);
  std::vector<PacketNameStats> rows = ComputePacketStats(store, r);
  ASSERT_EQ(rows.size(), 3u);
  // by total descending: gfx draw 110, gfx blit 15, copy draw 7
  // gfx draw: {10, 20, 30, 10, 40}; sorted {10, 10, 20, 30, 40}: p50 = rank ceil(2.5) = 3 -> 20,
  // p99 = rank ceil(4.95) = 5 -> 40; the preempted packet counts 10 (run), not 20 (wall)
  ExpectRow(store, rows[0], {"draw", 1, 5, 110, 22.0, 20, 40, 40});
  // gfx blit: {5, 10}: p50 = rank 1 -> 5, p99 = rank 2 -> 10
  ExpectRow(store, rows[1], {"blit", 1, 2, 15, 7.5, 5, 10, 10});
  // copy draw: {7}
  ExpectRow(store, rows[2], {"draw", 2, 1, 7, 7.0, 7, 7, 7});
}

TEST(PacketStats, RangeCountsPacketsCompletedInside) {
  ScratchDir dir;
  TraceStore store = WriteNamedPacketTrace(dir / "n.db");
  Reconstruction r = Reconstruct(store);
  // completed in [30, 100]: draw 2 (30) 20, blit 3 (35) 5, draw 4 (70) 30, blit 6 (96) 10,
  // draw 5 (100) 10; not draw 1 (10), copy draw 10 (27), draw 7 (150)
  std::vector<PacketNameStats> rows = ComputePacketStats(store, r, {30, 100});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(store.String(rows[0].name), "draw");
  EXPECT_EQ(rows[0].count, 3u);
  EXPECT_EQ(rows[0].total_ns, 60);
  EXPECT_EQ(rows[0].max_ns, 30);
  EXPECT_EQ(store.String(rows[1].name), "blit");
  EXPECT_EQ(rows[1].count, 2u);
  EXPECT_EQ(rows[1].total_ns, 15);
  // the same rule picks the packets a row stands for
  EXPECT_EQ(PacketIds(r, PacketsCounted(r, rows[0].name, 1, {30, 100})),
            (std::vector<int64_t>{2, 4, 5}));
  EXPECT_EQ(PacketIds(r, PacketsCounted(r, rows[0].name, 1)),
            (std::vector<int64_t>{1, 2, 4, 5, 7}));
  EXPECT_EQ(PacketIds(r, PacketsCounted(r, rows[0].name, 2)), (std::vector<int64_t>{10}));
  EXPECT_TRUE(ComputePacketStats(store, r, {151, 200}).empty());
}

TEST(PacketStats, SortByAColumn) {
  ScratchDir dir;
  TraceStore store = WriteNamedPacketTrace(dir / "n.db");
  Reconstruction r = Reconstruct(store);
  std::vector<PacketNameStats> rows = ComputePacketStats(store, r);
  SortPacketStats(store, rows, PacketStatsColumn::kCount, false);
  EXPECT_EQ(rows[0].count, 1u);
  EXPECT_EQ(rows[1].count, 2u);
  EXPECT_EQ(rows[2].count, 5u);
  SortPacketStats(store, rows, PacketStatsColumn::kMean, true);  // 22, 7.5, 7
  EXPECT_DOUBLE_EQ(rows[0].mean_ns, 22.0);
  EXPECT_DOUBLE_EQ(rows[2].mean_ns, 7.0);
  SortPacketStats(store, rows, PacketStatsColumn::kName, false);
  EXPECT_EQ(store.String(rows[0].name), "blit");
  EXPECT_EQ(store.String(rows[2].name), "draw");
  EXPECT_EQ(PacketLabel(store, rows[0].name), "blit");
  EXPECT_EQ(PacketLabel(store, 0), "(unnamed)");
}

TEST(PacketCompletions, LastPacketCompletedAtOrBefore) {
  ScratchDir dir;
  TraceStore store = WriteNamedPacketTrace(dir / "n.db");
  Reconstruction r = Reconstruct(store);
  PacketCompletions index = IndexPacketCompletions(r);
  auto id_at = [&](QueueId q, TimeNs t) {
    uint32_t p = LastPacketCompletedBy(index, q, t);
    return p == kNoIndex ? int64_t{-1} : r.packets[p].packet_id;
  };
  EXPECT_EQ(id_at(1, 9), -1);  // nothing completed on gfx before 10
  EXPECT_EQ(id_at(1, 10), 1);  // at the completion itself
  EXPECT_EQ(id_at(1, 99), 6);  // blit 6 ended at 96, draw 5 not until 100
  EXPECT_EQ(id_at(1, 100), 5);
  EXPECT_EQ(id_at(1, 200), 7);  // draw 8 never completed
  EXPECT_EQ(id_at(2, 30), 10);
  EXPECT_EQ(id_at(3, 30), -1);  // no such queue
}

// hand_trace::WriteNamedPathTrace: submit upload [0,10], run upload [10,50], gpu_wait on 3d
// [50,60] released by upload's completion (not by late, which ended after the signal), run draw
// [60,100].
TEST(CriticalPath, StepsNameTheirPackets) {
  ScratchDir dir;
  TraceStore store = WriteNamedPathTrace(dir / "p.db");
  Reconstruction r = Reconstruct(store);
  EXPECT_EQ(r.packets[PacketBeforeSignal(r, IndexPacketCompletions(r), 0)].packet_id, 1);
  CriticalPath path = ComputeCriticalPath(r);
  ASSERT_EQ(path.steps.size(), 4u);
  auto name = [&](const PathStep& s) {
    uint32_t p = s.NamedPacket();
    return p == kNoIndex ? std::string("-") : store.String(r.packets[p].name);
  };
  EXPECT_EQ(path.steps[0].kind, PathStepKind::kSubmit);
  EXPECT_EQ(name(path.steps[0]), "upload");
  EXPECT_EQ(path.steps[1].kind, PathStepKind::kRun);
  EXPECT_EQ(name(path.steps[1]), "upload");
  EXPECT_EQ(path.steps[2].kind, PathStepKind::kGpuWait);
  EXPECT_EQ(path.steps[2].packet, kNoIndex);
  EXPECT_EQ(name(path.steps[2]), "upload");
  EXPECT_EQ(path.steps[3].kind, PathStepKind::kRun);
  EXPECT_EQ(name(path.steps[3]), "draw");
}
