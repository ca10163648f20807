// A queue's signals execute in queue order (seed 001: a queue Signal updates the fence only after
// all earlier work on that queue completed). A capture can lose the event that shows one of them
// executing while later signals of the same queue do show theirs (the SteamVR capture under
// ../shared has one such signal before 234 executed ones). The importer then places that
// execution at the first of the later ones, counts it as inferred, and keeps the fence's values
// in order. Expected records worked out by hand below (QPC at 10 MHz: tick t is t * 100 ns).
#include <gtest/gtest.h>

#include "core/store/trace_writer.h"
#include "importers/etl/etl_importer.h"
#include "tests/importers/etl/etl_builder.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using etl_test::Bytes;
using etl_test::EtlBuilder;
using test_support::FirstCell;
using test_support::ScratchDir;

namespace {

constexpr uint64_t kCtx = 0xA000, kFence = 0xF00, kOther = 0xF01;
constexpr std::string_view kDxg = etl_test::kDxgKrnl;

// A signal packet (245) of context kCtx: sequence `seq` signals `fence` to `value`.
void SignalPacket(EtlBuilder& b, uint64_t tick, uint32_t seq, uint64_t fence, uint64_t value) {
  b.Event(kDxg, 245, 2, tick,
          Bytes().U64(kCtx).U32(seq).U32(0).U32(1).U64(fence).U64(value).U64(0x100 + seq));
}
// Its retirement (QueuePacket Stop 180): the signal executes.
void Retire(EtlBuilder& b, uint64_t tick, uint32_t seq) {
  b.Event(kDxg, 180, 1, tick, Bytes().U64(kCtx).U32(5).U32(seq).U32(0).U32(0).U64(0x100 + seq));
}

//  t   event                              expected
// 10   signal seq 1 (F, 1)                queued
// 20   retire seq 1                       executed at 2000, previous 0
// 30   signal seq 2 (F, 2)                queued; its retirement is not in the capture
// 35   signal seq 3 (G, 7)                queued; its retirement is not in the capture either
// 40   signal seq 4 (F, 3)                queued
// 50   signal seq 5 (F, 4)                queued
// 60   retire seq 4                       executed at 6000. Seq 2 and 3 were queued before it on
//                                         the same queue, so they executed by then: both placed
//                                         at 6000, before it (F: 1 -> 2 -> 3; G: 0 -> 7)
// 70   retire seq 5                       executed at 7000, previous 3
// 80   signal seq 6 (F, 5)                queued; nothing later executed: not executed
std::string Capture() {
  EtlBuilder b;
  b.LogfileHeader();
  SignalPacket(b, 10, 1, kFence, 1);
  Retire(b, 20, 1);
  SignalPacket(b, 30, 2, kFence, 2);
  SignalPacket(b, 35, 3, kOther, 7);
  SignalPacket(b, 40, 4, kFence, 3);
  SignalPacket(b, 50, 5, kFence, 4);
  Retire(b, 60, 4);
  Retire(b, 70, 5);
  SignalPacket(b, 80, 6, kFence, 5);
  return b.Finish();
}

}  // namespace

TEST(EtlSignalOrder, ASignalWithNoExecutionEventExecutedByTheFirstLaterOneOfItsQueue) {
  ScratchDir dir;
  const auto db = dir / "t.db";
  {
    core::store::TraceWriter writer(db, "etl");
    importers::etl::ImportEtl(Capture(), "capture.etl", writer, {});
    writer.Commit();
  }
  auto q = [&](const std::string& sql) { return FirstCell(db, sql); };
  EXPECT_EQ(q("SELECT count(*) FROM fence_signal_queued"), "6");
  // In execution order (time, then record order): the inferred ones come before seq 4's.
  EXPECT_EQ(q("SELECT group_concat(x, ' ') FROM (SELECT e.ts_ns || ':' || f.handle || '=' || "
              "e.fence_value || '<-' || e.previous_value AS x FROM fence_signal_executed e "
              "JOIN fences f ON f.id = e.fence_id ORDER BY e.ts_ns, e.event_id)"),
            "2000:3840=1<-0 6000:3840=2<-1 6000:3841=7<-0 6000:3840=3<-2 7000:3840=4<-3");
  // Each executed signal is the one queued with it.
  EXPECT_EQ(q("SELECT count(*) FROM fence_signal_executed e JOIN fence_signal_queued s "
              "ON s.signal_id = e.signal_id AND s.fence_id = e.fence_id AND "
              "s.fence_value = e.fence_value AND s.queue_id = e.queue_id"),
            "5");
  EXPECT_EQ(q("SELECT count FROM import_problems WHERE name = "
              "'etl_signal_executed_by_queue_order'"),
            "2");
  EXPECT_EQ(q("SELECT count FROM import_problems WHERE name = 'etl_signal_not_executed'"), "1");
  // Nothing reads as a rewind: every write is at or above the value before it.
  EXPECT_EQ(q("SELECT count(*) FROM fence_signal_executed WHERE fence_value < previous_value"),
            "0");
}
