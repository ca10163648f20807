// The chain of causes ending at one item (core/analysis/critical_chain.h) on hand-made traces.
// Each expected chain is walked by hand, by the rules of critical_path.h, in the comment above it.
#include "core/analysis/critical_chain.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace {

using namespace core::analysis;  // NOLINT
using core::store::TraceStore;
using hand_trace::HandTrace;
using hand_trace::WriteTraceA;
using test_support::ScratchDir;

// A step as the tests write it: kind, queue (0 on a thread), thread (0 on a queue), start, end,
// and whether the walk jumped to another track from it.
using Step = std::tuple<PathStepKind, uint32_t, uint32_t, TimeNs, TimeNs, bool>;

std::vector<Step> Steps(const CriticalPath& path) {
  std::vector<Step> out;
  for (const PathStep& s : path.steps) {
    out.emplace_back(s.kind, s.queue, s.thread, s.start, s.end, s.jumped);
  }
  return out;
}

// Every field of every step, and the path's span and shares.
using FullStep = std::tuple<Step, uint32_t, uint32_t, uint32_t, uint32_t>;
std::vector<FullStep> FullSteps(const CriticalPath& path) {
  std::vector<FullStep> out;
  const std::vector<Step> steps = Steps(path);
  for (size_t i = 0; i < steps.size(); ++i) {
    const PathStep& s = path.steps[i];
    out.emplace_back(steps[i], s.packet, s.wait, s.signal, s.released_by_packet);
  }
  return out;
}
std::vector<std::tuple<uint32_t, uint32_t, DurationNs>> Shares(const CriticalPath& path) {
  std::vector<std::tuple<uint32_t, uint32_t, DurationNs>> out;
  for (const PathShare& s : path.shares) out.emplace_back(s.queue, s.thread, s.ns);
  return out;
}
void ExpectSamePath(const CriticalPath& a, const CriticalPath& b) {
  EXPECT_EQ(a.start, b.start);
  EXPECT_EQ(a.end, b.end);
  EXPECT_EQ(FullSteps(a), FullSteps(b));
  EXPECT_EQ(Shares(a), Shares(b));
}

template <typename Table, typename IdOf>
uint32_t IndexOf(const Table& table, int64_t id, IdOf id_of) {
  for (uint32_t i = 0; i < table.size(); ++i) {
    if (id_of(table[i]) == id) return i;
  }
  ADD_FAILURE() << "no item with id " << id;
  return kNoIndex;
}
uint32_t PacketIndex(const Reconstruction& r, int64_t id) {
  return IndexOf(r.packets, id, [](const Packet& p) { return p.packet_id; });
}
uint32_t WaitIndex(const Reconstruction& r, int64_t id) {
  return IndexOf(r.waits, id, [](const WaitBox& w) { return w.wait_id; });
}
uint32_t SignalIndex(const Reconstruction& r, int64_t id) {
  return IndexOf(r.signals, id, [](const SignalBox& s) { return s.signal_id; });
}

// Trace A (tests/support/hand_trace.h): copy q1 packet 1 submitted 0 by thread 1, runs
// [10,50], signal f=1 executed 50; 3d q2 wait f>=1 queued 5, unblocked 60, packet 2 runs
// [60,100]; compute q3 packet 3 submitted 0, runs [0,30].
constexpr uint32_t kCopy = 1, kGfx = 2, kCompute = 3, kMain = 1;

class ChainOnTraceA : public ::testing::Test {
 protected:
  void SetUp() override { m_r = Reconstruct(m_store); }
  CriticalPath Chain(ChainItemKind kind, uint32_t index) {
    return ComputeChainTo(m_r, {kind, index});
  }
  ScratchDir m_dir;
  TraceStore m_store = WriteTraceA(m_dir / "a.db");
  Reconstruction m_r;
};

TEST_F(ChainOnTraceA, ToAGpuWaitJumpsToItsSignalAndTheSubmission) {
  // Back from 3d at the unblock (60): 3d runs nothing before 60, so the wait unblocked at 60
  // explains it; its signal executed at 50, after the wait was queued (5) -> gpu_wait [50,60],
  // jump to copy at 50. Copy is running packet 1 there -> run [10,50]; its first segment started
  // after its submission at 0 with nothing earlier on copy -> submit [0,10], jump to thread 1
  // at 0, where no CPU wait was released before: the walk ends. 2 jumps.
  const uint32_t wait = WaitIndex(m_r, 200);
  const CriticalPath chain = Chain(ChainItemKind::kGpuWait, wait);
  EXPECT_EQ(Steps(chain), (std::vector<Step>{{PathStepKind::kSubmit, kCopy, 0, 0, 10, true},
                                             {PathStepKind::kRun, kCopy, 0, 10, 50, false},
                                             {PathStepKind::kGpuWait, kGfx, 0, 50, 60, true}}));
  ASSERT_EQ(chain.steps.size(), 3u);
  EXPECT_EQ(chain.start, 0);
  EXPECT_EQ(chain.end, 60);
  EXPECT_EQ(chain.steps[2].wait, wait);
  EXPECT_EQ(chain.steps[2].signal, SignalIndex(m_r, 100));
  EXPECT_EQ(chain.steps[2].released_by_packet, PacketIndex(m_r, 1));
  EXPECT_EQ(chain.steps[1].packet, PacketIndex(m_r, 1));
  EXPECT_EQ(JumpCount(chain), 2u);
}

TEST_F(ChainOnTraceA, ToASignalEndsWithWhatRanBeforeIt) {
  // Signal f=1 executed on copy at 50: copy ran packet 1 up to it -> run [10,50], submit [0,10].
  const CriticalPath chain = Chain(ChainItemKind::kSignal, SignalIndex(m_r, 100));
  EXPECT_EQ(Steps(chain), (std::vector<Step>{{PathStepKind::kSubmit, kCopy, 0, 0, 10, true},
                                             {PathStepKind::kRun, kCopy, 0, 10, 50, false}}));
  EXPECT_EQ(JumpCount(chain), 1u);
}

TEST_F(ChainOnTraceA, ToAPacketStartsAtTheEndOfItsRun) {
  // Compute packet 3 runs [0,30], submitted at 0 by thread 1: run [0,30]; nothing ran earlier
  // on compute and no wait was unblocked there, so its submission at 0 explains its start ->
  // submit [0,0] (no time between submission and start), jump to thread 1; nothing before.
  const CriticalPath chain = Chain(ChainItemKind::kPacket, PacketIndex(m_r, 3));
  EXPECT_EQ(Steps(chain), (std::vector<Step>{{PathStepKind::kSubmit, kCompute, 0, 0, 0, true},
                                             {PathStepKind::kRun, kCompute, 0, 0, 30, false}}));
}

TEST_F(ChainOnTraceA, FromTheLastItemIsTheCriticalPath) {
  // Packet 2 on 3d ends at 100, later than every other run (50 on copy, 30 on compute): the
  // chain to it is the trace's critical path: the wait's chain above, then run 3d [60,100].
  const CriticalPath chain = Chain(ChainItemKind::kPacket, PacketIndex(m_r, 2));
  ExpectSamePath(chain, ComputeCriticalPath(m_r));
  EXPECT_EQ(Steps(chain), (std::vector<Step>{{PathStepKind::kSubmit, kCopy, 0, 0, 10, true},
                                             {PathStepKind::kRun, kCopy, 0, 10, 50, false},
                                             {PathStepKind::kGpuWait, kGfx, 0, 50, 60, true},
                                             {PathStepKind::kRun, kGfx, 0, 60, 100, false}}));
}

// Trace B: copy q1 packet 1 submitted 0 (thread 1), runs [10,50]; signal g=1 queued 2, executed
// 55; thread 1 CPU wait g>=1 begins 20, released 70, then submits packet 4 at 72; compute q2
// packet 3 submitted 0, runs [0,30], packet 4 runs [75,120]. Span [0,130].
TraceStore WriteTraceB(const std::filesystem::path& path) {
  HandTrace t(path);
  const QueueId copy = t.Queue("copy", QueueType::kCopy);
  const QueueId compute = t.Queue("compute", QueueType::kCompute);
  const ThreadId th = t.Thread("main");
  const FenceId g = t.Fence("g");
  t.Packet(copy, th, 1, 0, 10, 50);
  t.Signal(copy, th, g, 1, 100, 2, 55);
  t.CpuWait(th, g, 1, 900, 20, 70);
  t.Packet(compute, th, 3, 0, 0, 30);
  t.Packet(compute, th, 4, 72, 75, 120);
  return t.Finish(0, 130);
}

TEST(CriticalChain, ToACpuWaitJumpsToTheSignallingQueue) {
  // Back from thread 1 at the release (70): the wait released at 70 was released by g=1
  // executed at 55, after it began (20) -> cpu_wait [55,70], jump to copy at 55. Copy runs
  // nothing at 55; its last run ended at 50 -> queue_gap [50,55]; run [10,50]; submit [0,10],
  // jump to thread 1 at 0, where no wait was released before: the walk ends.
  ScratchDir dir;
  TraceStore store = WriteTraceB(dir / "b.db");
  const Reconstruction r = Reconstruct(store);
  ASSERT_EQ(r.cpu_waits.size(), 1u);
  const CriticalPath chain = ComputeChainTo(r, {ChainItemKind::kCpuWait, 0});
  EXPECT_EQ(Steps(chain), (std::vector<Step>{{PathStepKind::kSubmit, kCopy, 0, 0, 10, true},
                                             {PathStepKind::kRun, kCopy, 0, 10, 50, false},
                                             {PathStepKind::kQueueGap, kCopy, 0, 50, 55, false},
                                             {PathStepKind::kCpuWait, 0, kMain, 55, 70, true}}));
  ASSERT_EQ(chain.steps.size(), 4u);
  EXPECT_EQ(chain.steps[3].wait, 0u);
  EXPECT_EQ(JumpCount(chain), 2u);
}

TEST(CriticalChain, FromTheLastItemOfTraceBIsTheCriticalPath) {
  // Packet 4 on compute ends at 120, the latest run end (copy's ends at 50).
  ScratchDir dir;
  TraceStore store = WriteTraceB(dir / "b.db");
  const Reconstruction r = Reconstruct(store);
  const CriticalPath chain = ComputeChainTo(r, {ChainItemKind::kPacket, PacketIndex(r, 4)});
  ExpectSamePath(chain, ComputeCriticalPath(r));
  // submit, run, gap (copy), cpu_wait, cpu_run (thread), submit, run (compute): the jumps are
  // copy's submission, the CPU wait's signal and packet 4's submission.
  EXPECT_EQ(chain.steps.size(), 7u);
  EXPECT_EQ(JumpCount(chain), 3u);
}

TEST(CriticalChain, AThreadWithNoEarlierWaitRanFromTheTraceStart) {
  // Span [0,100]: thread 1 submits packet 1 at 20 (runs on q1 [25,40]) and signals f=1 from
  // the CPU at 30; it never waits. Chain to packet 1: run [25,40], submit [20,25] and the jump
  // to thread 1 at 20, which ran from the trace start -> cpu_run [0,20]. Chain to the CPU
  // signal: thread 1 at 30 -> cpu_run [0,30], no jump.
  ScratchDir dir;
  HandTrace t(dir / "t.db");
  const QueueId q1 = t.Queue("q1");
  const ThreadId th = t.Thread("main");
  const FenceId f = t.Fence("f");
  t.Packet(q1, th, 1, 20, 25, 40);
  t.CpuSignal(th, f, 1, 100, 30, 0);
  TraceStore store = t.Finish(0, 100);
  const Reconstruction r = Reconstruct(store);
  EXPECT_EQ(Steps(ComputeChainTo(r, {ChainItemKind::kPacket, PacketIndex(r, 1)})),
            (std::vector<Step>{{PathStepKind::kCpuRun, 0, th, 0, 20, false},
                               {PathStepKind::kSubmit, q1, 0, 20, 25, true},
                               {PathStepKind::kRun, q1, 0, 25, 40, false}}));
  EXPECT_EQ(Steps(ComputeChainTo(r, {ChainItemKind::kSignal, SignalIndex(r, 100)})),
            (std::vector<Step>{{PathStepKind::kCpuRun, 0, th, 0, 30, false}}));
}

// Trace S, span [0,100]: q1 runs packet 1 [0,60] (submitted 0 by thread 1); its wait f>=1 was
// queued at 5 and unblocked at 62; q2's signal f=1 executed at 40. On q2 also: a wait f>=5 never
// unblocked (id 201), a signal f=5 never executed (id 101), packet 7 submitted at 3, never
// started.
class ChainOnTraceS : public ::testing::Test {
 protected:
  void SetUp() override {
    HandTrace t(m_dir / "s.db");
    const QueueId q1 = t.Queue("q1");
    const QueueId q2 = t.Queue("q2");
    const ThreadId th = t.Thread("main");
    const FenceId f = t.Fence("f");
    t.Packet(q1, th, 1, 0, 0, 60);
    t.Wait(q1, th, f, 1, 200, 5, 62);
    t.Signal(q2, th, f, 1, 100, 1, 40);
    t.Wait(q2, th, f, 5, 201, 5, -1);
    t.Signal(q2, th, f, 5, 101, 1, -1);
    t.Append(core::model::events::PacketSubmitted{
        .ts_ns = 3, .queue_id = q2, .thread_id = th, .packet_id = 7, .planned_duration_ns = 10});
    m_store = t.Finish(0, 100);
    m_r = Reconstruct(m_store);
  }
  ScratchDir m_dir;
  TraceStore m_store;
  Reconstruction m_r;
};

TEST_F(ChainOnTraceS, AWaitAlreadySatisfiedWhenReachedDoesNotJump) {
  // Back from q1 at 62: the wait explains 62 (later than q1's last end, 60); the queue reached
  // it at 60, after the signal (40), so the hold is [60,62] and the queue's own run is the
  // cause: run [0,60], then submit [0,0] and the jump to thread 1. One jump, none at the wait.
  const CriticalPath chain = ComputeChainTo(m_r, {ChainItemKind::kGpuWait, WaitIndex(m_r, 200)});
  EXPECT_EQ(Steps(chain), (std::vector<Step>{{PathStepKind::kSubmit, 1, 0, 0, 0, true},
                                             {PathStepKind::kRun, 1, 0, 0, 60, false},
                                             {PathStepKind::kGpuWait, 1, 0, 60, 62, false}}));
}

TEST_F(ChainOnTraceS, ItemsThatDoNotEndInTheTraceHaveNoChain) {
  // The wait never unblocked, the signal never executed, the packet never started, a CPU wait
  // and a packet index past their tables: no end to walk back from.
  PathPosition from;
  EXPECT_FALSE(ChainEndOf(m_r, {ChainItemKind::kGpuWait, WaitIndex(m_r, 201)}, from));
  EXPECT_FALSE(ChainEndOf(m_r, {ChainItemKind::kSignal, SignalIndex(m_r, 101)}, from));
  EXPECT_FALSE(ChainEndOf(m_r, {ChainItemKind::kPacket, PacketIndex(m_r, 7)}, from));
  EXPECT_FALSE(ChainEndOf(m_r, {ChainItemKind::kCpuWait, 0}, from));
  EXPECT_FALSE(ChainEndOf(m_r, {ChainItemKind::kPacket, 99}, from));
  EXPECT_TRUE(ComputeChainTo(m_r, {ChainItemKind::kGpuWait, WaitIndex(m_r, 201)}).steps.empty());
  // and the items that do end have one
  EXPECT_TRUE(ChainEndOf(m_r, {ChainItemKind::kSignal, SignalIndex(m_r, 100)}, from));
  EXPECT_EQ(from.track, 2u);
  EXPECT_EQ(from.t, 40);
}

}  // namespace
