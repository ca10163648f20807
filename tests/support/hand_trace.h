// Small hand-made traces for the analysis tests: a writer with one adapter, named queues and
// threads, and short helpers for the records. Each test works its expected answers out by hand
// from the records it writes.
#pragma once

#include <filesystem>
#include <string>

#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"

namespace hand_trace {

using namespace core::store;  // NOLINT
namespace events = core::model::events;

class HandTrace {
 public:
  explicit HandTrace(const std::filesystem::path& path) : m_path(path), m_writer(path, "hand") {
    m_adapter = m_writer.AddAdapter({"GPU", 1, true, true, PreemptionGranularity::kPixel,
                                     PreemptionGranularity::kDispatch});
    m_process = m_writer.AddProcess({42, "app.exe"});
  }

  // A queue on an engine of its own.
  QueueId Queue(const std::string& name, QueueType type = QueueType::k3D) {
    return Queue(name, Engine(name + " engine", static_cast<EngineType>(type)), type);
  }
  // An engine of the adapter, and a queue fed to it (queues given the same engine share it).
  EngineId Engine(const std::string& name, EngineType type = EngineType::k3D) {
    return m_writer.AddEngine({m_adapter, type, 0, name});
  }
  QueueId Queue(const std::string& name, EngineId engine, QueueType type = QueueType::k3D) {
    return m_writer.AddQueue({engine, m_adapter, type, 0, m_process, name, 0});
  }
  ThreadId Thread(const std::string& name, ThreadKind kind = ThreadKind::kApplication) {
    return m_writer.AddThread({m_process, 7, kind, name, 0});
  }
  FenceId Fence(const std::string& name) { return m_writer.AddFence({name, FenceKind::kNative}); }

  // A packet name (strings.id) for Packet().
  StringId Name(const std::string& text) { return m_writer.Intern(text); }
  // A packet submitted at `submit` from `thread` that runs [start, end] on `queue`.
  void Packet(QueueId queue, ThreadId thread, int64_t id, TimeNs submit, TimeNs start,
              TimeNs end, uint32_t flags = 0, StringId name = 0) {
    m_writer.Append(events::PacketSubmitted{.ts_ns = submit,
                                            .queue_id = queue,
                                            .thread_id = thread,
                                            .packet_id = id,
                                            .planned_duration_ns = end - start,
                                            .name_sid = name,
                                            .packet_flags = flags});
    m_writer.Append(events::PacketStarted{.ts_ns = start, .queue_id = queue, .packet_id = id});
    m_writer.Append(events::PacketCompleted{.ts_ns = end, .queue_id = queue, .packet_id = id});
  }
  void Signal(QueueId queue, ThreadId thread, FenceId fence, uint64_t value, int64_t id,
              TimeNs queued, TimeNs executed, uint64_t previous = 0) {
    m_writer.Append(events::FenceSignalQueued{.ts_ns = queued,
                                              .queue_id = queue,
                                              .thread_id = thread,
                                              .fence_id = fence,
                                              .fence_value = value,
                                              .signal_id = id});
    if (executed >= 0) {
      m_writer.Append(events::FenceSignalExecuted{.ts_ns = executed,
                                                  .queue_id = queue,
                                                  .fence_id = fence,
                                                  .fence_value = value,
                                                  .signal_id = id,
                                                  .previous_value = previous});
    }
  }
  // unblocked < 0: never unblocked. observed: when the GPU reached the wait (0: not recorded);
  // path: how it was released.
  void Wait(QueueId queue, ThreadId thread, FenceId fence, uint64_t value, int64_t id,
            TimeNs queued, TimeNs unblocked, int64_t released_by = 0, TimeNs observed = 0,
            WaitPath path = WaitPath::kGpuNative) {
    m_writer.Append(events::FenceWaitQueued{.ts_ns = queued,
                                            .queue_id = queue,
                                            .thread_id = thread,
                                            .fence_id = fence,
                                            .fence_value = value,
                                            .wait_id = id});
    if (unblocked >= 0) {
      m_writer.Append(events::FenceWaitUnblocked{.ts_ns = unblocked,
                                                 .queue_id = queue,
                                                 .fence_id = fence,
                                                 .fence_value = value,
                                                 .wait_id = id,
                                                 .observed_ns = observed,
                                                 .released_by_signal_id = released_by,
                                                 .wait_path = path});
    }
  }
  // A CUDA runtime call as the Chrome JSON importer writes Kineto's cuda_runtime events: a
  // cpu_slice on `thread` named `name` in category cuda_runtime.
  EventRowId RuntimeCall(ThreadId thread, TimeNs ts, TimeNs duration,
                         const std::string& name = "cudaLaunchKernel", int64_t depth = 0) {
    const StringId name_sid = m_writer.Intern(name);
    return m_writer.Append(events::CpuSlice{.ts_ns = ts,
                                            .thread_id = thread,
                                            .duration_ns = duration,
                                            .name_sid = name_sid,
                                            .category_sid = m_writer.Intern("cuda_runtime"),
                                            .depth = depth});
  }
  // A packet launched by `call` (a RuntimeCall rowid, made at `call_ts` on `thread`) as the
  // Kineto importer writes it: packet_submitted at the call's start from the calling thread,
  // started / completed at the kernel's [start, end], and a cpu_launch flow (Kineto's ac2g)
  // from the call's cpu_slice to the packet_started record.
  void LaunchedPacket(QueueId queue, ThreadId thread, int64_t id, EventRowId call, TimeNs call_ts,
                      TimeNs start, TimeNs end, const std::string& name = "kernel") {
    m_writer.Append(events::PacketSubmitted{.ts_ns = call_ts,
                                            .queue_id = queue,
                                            .thread_id = thread,
                                            .packet_id = id,
                                            .name_sid = m_writer.Intern(name)});
    const EventRowId started =
        m_writer.Append(events::PacketStarted{.ts_ns = start, .queue_id = queue, .packet_id = id});
    m_writer.Append(events::PacketCompleted{.ts_ns = end, .queue_id = queue, .packet_id = id});
    m_writer.AddFlow(call, started, FlowKind::kCpuLaunch, "ac2g");
  }
  // A packet submitted at `submit` that starts at `start` and is still running at the end.
  void RunningPacket(QueueId queue, ThreadId thread, int64_t id, TimeNs submit, TimeNs start) {
    m_writer.Append(events::PacketSubmitted{.ts_ns = submit,
                                            .queue_id = queue,
                                            .thread_id = thread,
                                            .packet_id = id,
                                            .planned_duration_ns = 1000});
    m_writer.Append(events::PacketStarted{.ts_ns = start, .queue_id = queue, .packet_id = id});
  }
  // A packet submitted at `submit` (from no thread) that runs [start, preempted], is preempted,
  // resumes at `resumed` and completes at `end`; planned for its whole run time.
  void PreemptedPacket(QueueId queue, int64_t id, TimeNs submit, TimeNs start, TimeNs preempted,
                       TimeNs resumed, TimeNs end) {
    m_writer.Append(
        events::PacketSubmitted{.ts_ns = submit,
                                .queue_id = queue,
                                .packet_id = id,
                                .planned_duration_ns = (preempted - start) + (end - resumed)});
    m_writer.Append(events::PacketStarted{.ts_ns = start, .queue_id = queue, .packet_id = id});
    m_writer.Append(events::PacketPreempted{
        .ts_ns = preempted, .queue_id = queue, .packet_id = id, .remaining_ns = end - resumed});
    m_writer.Append(events::PacketResumed{.ts_ns = resumed, .queue_id = queue, .packet_id = id});
    m_writer.Append(events::PacketCompleted{.ts_ns = end, .queue_id = queue, .packet_id = id});
  }
  // ID3D12Fence::Signal from `thread`: CurrentValue `previous` -> `value` (lower: a rewind).
  void CpuSignal(ThreadId thread, FenceId fence, uint64_t value, int64_t id, TimeNs ts,
                 uint64_t previous) {
    m_writer.Append(events::FenceCpuSignal{.ts_ns = ts,
                                           .thread_id = thread,
                                           .fence_id = fence,
                                           .fence_value = value,
                                           .signal_id = id,
                                           .previous_value = previous});
  }
  // A CPU wait (a D3D12 waiter, or a CUDA stream / event / device sync) that begins at `begin`;
  // released < 0: never released. group, mode: the SetEventOnCompletion / WaitForMultipleObjects
  // group it belongs to and the group's wait mode (0: a single wait; 1 wait-any, 2 wait-all).
  void CpuWait(ThreadId thread, FenceId fence, uint64_t value, int64_t id, TimeNs begin,
               TimeNs released, int64_t group = 0, uint32_t mode = 0) {
    m_writer.Append(events::CpuWaitBegin{.ts_ns = begin,
                                         .thread_id = thread,
                                         .fence_id = fence,
                                         .fence_value = value,
                                         .waiter_id = id,
                                         .group_id = group,
                                         .wait_mode = mode});
    if (released >= 0) {
      m_writer.Append(events::CpuWaitReleased{.ts_ns = released,
                                              .thread_id = thread,
                                              .fence_id = fence,
                                              .fence_value = value,
                                              .waiter_id = id});
    }
  }
  // The release of CPU wait `id` at `ts` by interrupt `interrupt` (a rowid), seeing `observed`.
  void CpuWaitRelease(ThreadId thread, FenceId fence, uint64_t value, int64_t id, TimeNs ts,
                      EventRowId interrupt, uint64_t observed) {
    m_writer.Append(events::CpuWaitReleased{.ts_ns = ts,
                                            .thread_id = thread,
                                            .fence_id = fence,
                                            .fence_value = value,
                                            .waiter_id = id,
                                            .interrupt_event = interrupt,
                                            .observed_value = observed});
  }
  // An interrupt of adapter 1 on `queue` (0: none named) for signal `signal_id` (0: none) of
  // fence = value, one fence evaluated, releasing `waiters` waiters; `flags`: its InterruptType
  // and kInterrupt* bits.
  EventRowId InterruptFor(QueueId queue, FenceId fence, uint64_t value, int64_t signal_id,
                          TimeNs ts, int64_t waiters, uint32_t flags) {
    return m_writer.Append(events::Interrupt{.ts_ns = ts,
                                             .queue_id = queue,
                                             .fence_id = fence,
                                             .fence_value = value,
                                             .signal_id = signal_id,
                                             .adapter_id = 1,
                                             .waiters_released = waiters,
                                             .fences_evaluated = 1,
                                             .interrupt_flags = flags});
  }
  // An optimized interrupt (it names its HWQueue), as InterruptFor.
  EventRowId OptimizedInterrupt(QueueId queue, FenceId fence, uint64_t value, int64_t signal_id,
                                TimeNs ts, int64_t waiters) {
    return InterruptFor(queue, fence, value, signal_id, ts, waiters, kInterruptOptimized);
  }
  // Seed 003's interrupt story on `queue`: CPU waiter 900 of `thread` waits for `fence` >= 3
  // from 5; signal 7 (value 3) is queued at 1 and executed at 30; its optimized interrupt at 31
  // releases the waiter at 35; a second interrupt at 36 releases nobody (the permitted race).
  void CpuWaitReleasedByInterruptThenSpurious(QueueId queue, ThreadId thread, FenceId fence) {
    m_writer.Append(events::CpuWaitBegin{
        .ts_ns = 5, .thread_id = thread, .fence_id = fence, .fence_value = 3, .waiter_id = 900});
    Signal(queue, thread, fence, 3, 7, 1, 30);
    EventRowId irq = OptimizedInterrupt(queue, fence, 3, 7, 31, 1);
    CpuWaitRelease(thread, fence, 3, 900, 35, irq, 3);
    OptimizedInterrupt(queue, fence, 3, 0, 36, 0);
  }
  // Packet `packet` of `queue` reading (or with `write`, writing) bytes [offset, offset + length)
  // of `resource` at `ts`.
  void Access(QueueId queue, int64_t packet, ResourceId resource, TimeNs ts, int64_t offset,
              int64_t length, bool write) {
    m_writer.Append(events::ResourceAccess{.ts_ns = ts,
                                           .queue_id = queue,
                                           .packet_id = packet,
                                           .resource_id = resource,
                                           .offset_bytes = offset,
                                           .length_bytes = length,
                                           .access = write ? 1u : 0u});
  }
  // seed 004: `requesting` asks engine 1 for the GPU at `ts` while `packet` of `queue` runs
  // (preemption `id`), and the preemption done at `ts`, `latency` after its request.
  void PreemptionRequest(QueueId queue, QueueId requesting, int64_t id, int64_t packet, TimeNs ts,
                         PreemptionGranularity granularity) {
    m_writer.Append(events::PreemptionRequested{.ts_ns = ts,
                                                .queue_id = queue,
                                                .preemption_id = id,
                                                .packet_id = packet,
                                                .requesting_queue_id = requesting,
                                                .engine_id = 1,
                                                .granularity = granularity});
  }
  void PreemptionDone(QueueId queue, int64_t id, int64_t packet, TimeNs ts, DurationNs latency,
                      PreemptionGranularity granularity) {
    m_writer.Append(events::PreemptionCompleted{.ts_ns = ts,
                                                .queue_id = queue,
                                                .preemption_id = id,
                                                .latency_ns = latency,
                                                .packet_id = packet,
                                                .engine_id = 1,
                                                .granularity = granularity});
  }
  // A TDR of adapter 1's engine 1 on `queue` at `ts` (after preemption `preemption_id`, 0: none
  // named) losing `packets` packets and `contexts` contexts.
  void Tdr(QueueId queue, TimeNs ts, int64_t packets, uint64_t contexts,
           int64_t preemption_id = 0) {
    m_writer.Append(events::Tdr{.ts_ns = ts,
                                .queue_id = queue,
                                .adapter_id = 1,
                                .engine_id = 1,
                                .packets_lost = packets,
                                .contexts_lost = contexts,
                                .preemption_id = preemption_id});
  }
  // wait_pending_at_end for GPU wait `id` on `queue` (queue 0: CPU wait `id` of `thread`), the
  // fence's CurrentValue at the end being `current`.
  void PendingAtEnd(QueueId queue, ThreadId thread, FenceId fence, uint64_t value, int64_t id,
                    TimeNs end, uint64_t current) {
    m_writer.Append(events::WaitPendingAtEnd{.ts_ns = end,
                                             .queue_id = queue,
                                             .thread_id = queue ? 0 : thread,
                                             .fence_id = fence,
                                             .fence_value = value,
                                             .wait_id = id,
                                             .current_value = current});
  }
  template <events::TypedEvent E>
  EventRowId Append(const E& event) {
    return m_writer.Append(event);
  }
  TraceWriter& writer() { return m_writer; }
  ProcessId process() const { return m_process; }

  TraceStore Finish(TimeNs start, TimeNs end) {
    m_writer.SetMeta("start_ns", std::to_string(start));
    m_writer.SetMeta("end_ns", std::to_string(end));
    m_writer.Commit();
    return LoadTrace(m_path);
  }

 private:
  std::filesystem::path m_path;
  TraceWriter m_writer;
  AdapterId m_adapter = 0;
  ProcessId m_process = 0;
};

// Trace A of the analysis tests, span [0, 120] (or [0, end]):
//   copy    (q1) packet 1 submitted 0, runs [10, 50]; signal f=1 queued 1, executed 50
//   3d      (q2) wait f>=1 queued 5, unblocked 60; packet 2 submitted 8, runs [60, 100]
//   compute (q3) packet 3 submitted 0, runs [0, 30]
// `extras` may append more records before the trace is finished.
template <typename Extras>
TraceStore WriteTraceA(const std::filesystem::path& path, Extras extras, TimeNs end = 120) {
  HandTrace t(path);
  QueueId copy = t.Queue("copy", QueueType::kCopy);
  QueueId gfx = t.Queue("3d");
  QueueId compute = t.Queue("compute", QueueType::kCompute);
  ThreadId th = t.Thread("main");
  FenceId f = t.Fence("f");
  t.Packet(copy, th, 1, 0, 10, 50);
  t.Signal(copy, th, f, 1, 100, 1, 50);
  t.Wait(gfx, th, f, 1, 200, 5, 60);
  t.Packet(gfx, th, 2, 8, 60, 100);
  t.Packet(compute, th, 3, 0, 0, 30);
  extras(t);
  return t.Finish(0, end);
}
inline TraceStore WriteTraceA(const std::filesystem::path& path) {
  return WriteTraceA(path, [](HandTrace&) {});
}

// Trace A plus findings, span [0, 120]:
//   3d waits f>=5 from 105, never unblocked (wait_pending_at_end at 120, f at 1): never signalled
//   copy's signal log overran at 90, 4 entries lost, data missing since 70
//   an optimized interrupt on copy at 51 that released nobody (spurious)
//   one SetBackgroundProcessingMode call at 0 returning FurtherMeasurementsDesired
inline TraceStore WriteReportTrace(const std::filesystem::path& path) {
  return WriteTraceA(path, [](HandTrace& t) {
    const QueueId copy = 1, gfx = 2;
    const FenceId f = 1;
    t.Append(events::ModeChanged{
        .ts_ns = 0, .thread_id = 1, .call_id = 1, .further_measurements_desired = 1});
    t.OptimizedInterrupt(copy, f, 1, 100, 51, 0);
    t.Append(events::LogOverrun{.ts_ns = 90,
                                .queue_id = copy,
                                .entries_lost = 4,
                                .wraparound_count = 2,
                                .missing_since_ns = 70,
                                .log_type = 1});
    t.Wait(gfx, 1, f, 5, 201, 105, -1);
    t.PendingAtEnd(gfx, 0, f, 5, 201, 120, 1);
  });
}

// Named packets for the packet statistics, span [0, 200]. Run durations:
//   gfx  (q1) draw 1 [0,10] = 10, draw 2 [10,30] = 20, blit 3 [30,35] = 5, draw 4 [40,70] = 30,
//             draw 5 runs [80,86], is preempted, blit 6 runs [86,96], draw 5 resumes [96,100]:
//             run time 6 + 4 = 10 (wall time 20), draw 7 [110,150] = 40,
//             draw 8 starts at 190 and is still running at the end (not counted),
//             draw 9 is submitted at 195 and never starts (not counted)
//   copy (q2) draw 10 [20,27] = 7
inline TraceStore WriteNamedPacketTrace(const std::filesystem::path& path) {
  HandTrace t(path);
  QueueId gfx = t.Queue("gfx");
  QueueId copy = t.Queue("copy", QueueType::kCopy);
  ThreadId th = t.Thread("main");
  StringId draw = t.Name("draw");
  StringId blit = t.Name("blit");
  t.Packet(gfx, th, 1, 0, 0, 10, 0, draw);
  t.Packet(gfx, th, 2, 0, 10, 30, 0, draw);
  t.Packet(gfx, th, 3, 0, 30, 35, 0, blit);
  t.Packet(gfx, th, 4, 0, 40, 70, 0, draw);
  auto submitted = [&](TimeNs ts, int64_t id) {
    t.Append(events::PacketSubmitted{.ts_ns = ts,
                                     .queue_id = gfx,
                                     .thread_id = th,
                                     .packet_id = id,
                                     .planned_duration_ns = 10,
                                     .name_sid = draw});
  };
  submitted(79, 5);
  t.Append(events::PacketStarted{.ts_ns = 80, .queue_id = gfx, .packet_id = 5});
  t.Append(
      events::PacketPreempted{.ts_ns = 86, .queue_id = gfx, .packet_id = 5, .remaining_ns = 4});
  t.Packet(gfx, th, 6, 85, 86, 96, 0, blit);
  t.Append(events::PacketResumed{.ts_ns = 96, .queue_id = gfx, .packet_id = 5});
  t.Append(events::PacketCompleted{.ts_ns = 100, .queue_id = gfx, .packet_id = 5});
  t.Packet(gfx, th, 7, 100, 110, 150, 0, draw);
  submitted(185, 8);
  t.Append(events::PacketStarted{.ts_ns = 190, .queue_id = gfx, .packet_id = 8});
  submitted(195, 9);
  t.Packet(copy, th, 10, 0, 20, 27, 0, draw);
  return t.Finish(0, 200);
}

// Named packets on a critical path, span [0, 120]:
//   copy (q1) upload 1 submitted 0, runs [10, 50]; signal f = 1 queued 1, executed 50;
//             late 3 runs [55, 58] (after the signal: not the work that released it)
//   3d   (q2) wait f >= 1 queued 5, unblocked 60; draw 2 submitted 8, runs [60, 100]
inline TraceStore WriteNamedPathTrace(const std::filesystem::path& path) {
  HandTrace t(path);
  QueueId copy = t.Queue("copy", QueueType::kCopy);
  QueueId gfx = t.Queue("3d");
  ThreadId th = t.Thread("main");
  FenceId f = t.Fence("f");
  t.Packet(copy, th, 1, 0, 10, 50, 0, t.Name("upload"));
  t.Signal(copy, th, f, 1, 100, 1, 50);
  t.Packet(copy, th, 3, 52, 55, 58, 0, t.Name("late"));
  t.Wait(gfx, th, f, 1, 200, 5, 60);
  t.Packet(gfx, th, 2, 8, 60, 100, 0, t.Name("draw"));
  return t.Finish(0, 120);
}

// Trace C, a CUDA trace the way the Kineto importer writes one, times in µs (x 1000 ns), span
// [0, 300]. Thread main makes every runtime call (cpu_slice [start, end)); each packet's launch
// is a cpu_launch flow from its call (K5 has none, like a kernel without an ac2g flow).
//   stream A (q1) K1 call [0,5)    runs [10,30]
//                 K2 call [6,9)    runs [34,50]
//                 K3 call [90,96)  runs [100,120]; main blocked in a CPU wait [60,85) inside
//                                  cudaDeviceSynchronize [58,86)
//                 K4 call [102,104) runs [180,190]; GPU wait on event E (fence 1) queued 103,
//                                  unblocked 180 by stream B's signal E=1 (queued 101,
//                                  executed 180)
//                 K5 no launch flow, submitted = started 250, runs [250,260]
//   stream B (q2) B1 call [20,22)  runs [150,180]
//                 B2 cudaMemcpy [175,275) runs [260,270]; main blocked in a CPU wait
//                                  [200,255) inside that call
//   stream C (q3) C1 call [30,32)  runs [40,50]
//                 C2 call [35,37)  runs [100,110]
inline constexpr TimeNs kUs = 1000;
// link_inferred: the wait's unblock record says the importer inferred its releasing signal
// (release_link = 2) instead of reading it from the capture.
inline TraceStore WriteCudaTrace(const std::filesystem::path& path, bool link_inferred = false) {
  HandTrace t(path);
  const QueueId a = t.Queue("stream A", QueueType::kCompute);
  const QueueId b = t.Queue("stream B", QueueType::kCompute);
  const QueueId c = t.Queue("stream C", QueueType::kCompute);
  const ThreadId main = t.Thread("main");
  const FenceId e = t.Fence("E");
  auto launched = [&](QueueId q, int64_t id, TimeNs call, TimeNs call_end, TimeNs start,
                      TimeNs end, const std::string& api = "cudaLaunchKernel") {
    const EventRowId row = t.RuntimeCall(main, call * kUs, (call_end - call) * kUs, api);
    t.LaunchedPacket(q, main, id, row, call * kUs, start * kUs, end * kUs,
                     "kernel " + std::to_string(id));
  };
  launched(a, 1, 0, 5, 10, 30);
  launched(a, 2, 6, 9, 34, 50);
  t.RuntimeCall(main, 58 * kUs, 28 * kUs, "cudaDeviceSynchronize");
  t.CpuWait(main, 0, 0, 1, 60 * kUs, 85 * kUs);
  launched(a, 3, 90, 96, 100, 120);
  launched(a, 4, 102, 104, 180, 190);
  t.Signal(b, main, e, 1, 100, 101 * kUs, 180 * kUs);
  t.Append(events::FenceWaitQueued{.ts_ns = 103 * kUs,
                                   .queue_id = a,
                                   .thread_id = main,
                                   .fence_id = e,
                                   .fence_value = 1,
                                   .wait_id = 200});
  t.Append(events::FenceWaitUnblocked{
      .ts_ns = 180 * kUs,
      .queue_id = a,
      .fence_id = e,
      .fence_value = 1,
      .wait_id = 200,
      .released_by_signal_id = 100,
      .release_link = link_inferred ? ReleaseLink::kInferred : ReleaseLink::kFromCapture});
  t.Packet(a, 0, 5, 250 * kUs, 250 * kUs, 260 * kUs);
  launched(b, 6, 20, 22, 150, 180);
  launched(b, 7, 175, 275, 260, 270, "cudaMemcpy");
  t.CpuWait(main, 0, 0, 2, 200 * kUs, 255 * kUs);
  launched(c, 8, 30, 32, 40, 50);
  launched(c, 9, 35, 37, 100, 110);
  return t.Finish(0, 300 * kUs);
}

// The end of a healthy cross-adapter run (the shape of `simulate cross_adapter`), span [0, 100]:
//   render  (q1): f1=23 executed 10; packet 1 started 60, still running; then queued
//                 f1=24 (3), wait f2>=24 (4, id 21)
//   compose (q2): f2=23 executed 12; then queued wait f1>=24 (5, id 22), f2=24 (6)
//   wait_pending_at_end for 21 and 22 with CurrentValue 23
inline TraceStore WriteCrossAdapterEnd(const std::filesystem::path& path) {
  HandTrace t(path);
  QueueId render = t.Queue("render");
  QueueId compose = t.Queue("compose");
  ThreadId th = t.Thread("main");
  FenceId f1 = t.Fence("frame");
  FenceId f2 = t.Fence("composed");
  t.Signal(render, th, f1, 23, 1, 1, 10, 22);
  t.Signal(compose, th, f2, 23, 2, 1, 12, 22);
  t.RunningPacket(render, th, 1, 2, 60);
  t.Signal(render, th, f1, 24, 3, 3, -1);
  t.Wait(render, th, f2, 24, 21, 4, -1);
  t.Wait(compose, th, f1, 24, 22, 5, -1);
  t.Signal(compose, th, f2, 24, 4, 6, -1);
  t.PendingAtEnd(render, 0, f2, 24, 21, 100, 23);
  t.PendingAtEnd(compose, 0, f1, 24, 22, 100, 23);
  return t.Finish(0, 100);
}

// A fence rewound below waited values (seed 001), span [0, 100]:
//   q (q1): f=10 executed 10 (previous 0); wait f>=5 (30, id 1), wait f>=2 (31, id 2)
//   thread cpu (t1): Signal(f, 2) at 20 (previous 10: a rewind); CPU wait f>=5 (40, id 3)
inline TraceStore WriteRewoundFence(const std::filesystem::path& path) {
  HandTrace t(path);
  QueueId q = t.Queue("q");
  ThreadId cpu = t.Thread("cpu");
  FenceId f = t.Fence("f");
  t.Signal(q, cpu, f, 10, 11, 1, 10, 0);
  t.CpuSignal(cpu, f, 2, 12, 20, 10);
  t.Wait(q, cpu, f, 5, 1, 30, -1);
  t.Wait(q, cpu, f, 2, 2, 31, -1);
  t.CpuWait(cpu, f, 5, 3, 40, -1);
  return t.Finish(0, 100);
}

}  // namespace hand_trace
