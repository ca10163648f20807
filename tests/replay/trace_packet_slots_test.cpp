// TracePacketSlots: a packet id's slot is the index of the trace's first packet with that id,
// for ids numbered densely (a table by offset) and for ids spread over 64 bits (a hash); the
// expected index is found by scanning the reconstruction's packets. And MeasureReplay, which
// keeps its packets by slot, measures a trace of spread-out ids as the full replay does.
#include "core/replay/trace_packet_slots.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "tests/replay/replay_support.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace {

using core::replay::TracePacketSlots;

uint32_t FirstIndexOf(const core::analysis::Reconstruction& r, int64_t id) {
  for (uint32_t i = 0; i < r.packets.size(); ++i) {
    if (r.packets[i].packet_id == id) return i;
  }
  return TracePacketSlots::kNone;
}

// Two queues, one thread; the packets `ids` in turn on alternating queues, 10 us each.
replay_test::Loaded Trace(const std::filesystem::path& path, const std::vector<int64_t>& ids) {
  hand_trace::HandTrace t(path);
  const auto a = t.Queue("a", core::model::QueueType::kCompute);
  const auto b = t.Queue("b", core::model::QueueType::kCompute);
  const auto th = t.Thread("main");
  core::model::TimeNs at = 1'000;
  for (size_t k = 0; k < ids.size(); ++k) {
    t.Packet(k % 2 ? b : a, th, ids[k], at, at + 500, at + 10'500);
    at += 20'000;
  }
  (void)t.Finish(0, at);
  return replay_test::Load(path);
}

void ExpectSlots(const replay_test::Loaded& trace, const std::vector<int64_t>& ids,
                 const std::vector<int64_t>& absent) {
  const TracePacketSlots slots(trace.recon);
  EXPECT_EQ(slots.size(), trace.recon.packets.size());
  for (const int64_t id : ids) {
    SCOPED_TRACE(id);
    EXPECT_NE(FirstIndexOf(trace.recon, id), TracePacketSlots::kNone);
    EXPECT_EQ(slots.Find(id), FirstIndexOf(trace.recon, id));
  }
  for (const int64_t id : absent) EXPECT_EQ(slots.Find(id), TracePacketSlots::kNone) << id;
}

TEST(TracePacketSlots, DenseIdsFindTheFirstPacketOfEach) {
  test_support::ScratchDir dir;
  // 4 twice: its slot is the first of the two.
  const std::vector<int64_t> ids = {3, 4, 6, 4, 7};
  const auto trace = Trace(dir / "dense.db", ids);
  ASSERT_EQ(trace.recon.packets.size(), ids.size());
  ExpectSlots(trace, ids,
              {0, 2, 5, 8, 1'000, -1, std::numeric_limits<int64_t>::min(),
               std::numeric_limits<int64_t>::max()});
}

TEST(TracePacketSlots, SpreadOutIdsFindTheirPacketsToo) {
  test_support::ScratchDir dir;
  const std::vector<int64_t> ids = {int64_t{1} << 40, 5, -7, int64_t{1} << 62, 5};
  const auto trace = Trace(dir / "sparse.db", ids);
  ASSERT_EQ(trace.recon.packets.size(), ids.size());
  ExpectSlots(trace, ids, {0, 4, 6, (int64_t{1} << 40) + 1, std::numeric_limits<int64_t>::min()});
}

TEST(TracePacketSlots, AReplayOfSpreadOutIdsIsMeasuredAsTheFullReplay) {
  test_support::ScratchDir dir;
  const auto trace = Trace(dir / "sparse.db", {int64_t{1} << 40, 9, -7, int64_t{1} << 62, 11, 12});
  EXPECT_GE(replay_test::ExpectOutcomesAreFullReplays(trace, dir.path()), 1u);
}

}  // namespace
