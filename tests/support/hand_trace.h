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

class HandTrace {
 public:
  explicit HandTrace(const std::filesystem::path& path) : m_path(path), m_writer(path, "hand") {
    m_adapter = m_writer.AddAdapter({"GPU", 1, true, true, PreemptionGranularity::kPixel,
                                     PreemptionGranularity::kDispatch});
    m_process = m_writer.AddProcess({42, "app.exe"});
  }

  QueueId Queue(const std::string& name, QueueType type = QueueType::k3D) {
    EngineId e = m_writer.AddEngine({m_adapter, static_cast<EngineType>(type), 0, name + " engine"});
    return m_writer.AddQueue({e, m_adapter, type, 0, m_process, name, 0});
  }
  ThreadId Thread(const std::string& name, ThreadKind kind = ThreadKind::kApplication) {
    return m_writer.AddThread({m_process, 7, kind, name, 0});
  }
  FenceId Fence(const std::string& name) { return m_writer.AddFence({name, FenceKind::kNative}); }

  // A packet submitted at `submit` from `thread` that runs [start, end] on `queue`.
  void Packet(QueueId queue, ThreadId thread, int64_t id, TimeNs submit, TimeNs start,
              TimeNs end, uint32_t flags = 0) {
    m_writer.Append({submit, EventKind::PacketSubmitted, queue, thread, 0,
                     static_cast<uint64_t>(end - start), id, 0, 0, 0, flags});
    m_writer.Append({start, EventKind::PacketStarted, queue, 0, 0, 0, id});
    m_writer.Append({end, EventKind::PacketCompleted, queue, 0, 0, 0, id});
  }
  void Signal(QueueId queue, ThreadId thread, FenceId fence, uint64_t value, int64_t id,
              TimeNs queued, TimeNs executed, uint64_t previous = 0) {
    m_writer.Append({queued, EventKind::FenceSignalQueued, queue, thread, fence, value, id});
    if (executed >= 0) {
      m_writer.Append({executed, EventKind::FenceSignalExecuted, queue, 0, fence, value, id,
                       static_cast<int64_t>(previous)});
    }
  }
  // unblocked < 0: never unblocked.
  void Wait(QueueId queue, ThreadId thread, FenceId fence, uint64_t value, int64_t id,
            TimeNs queued, TimeNs unblocked, int64_t released_by = 0) {
    m_writer.Append({queued, EventKind::FenceWaitQueued, queue, thread, fence, value, id});
    if (unblocked >= 0) {
      m_writer.Append({unblocked, EventKind::FenceWaitUnblocked, queue, 0, fence, value, id, 0,
                       released_by, 0, 0});
    }
  }
  // A packet submitted at `submit` that starts at `start` and is still running at the end.
  void RunningPacket(QueueId queue, ThreadId thread, int64_t id, TimeNs submit, TimeNs start) {
    m_writer.Append({submit, EventKind::PacketSubmitted, queue, thread, 0, 1000, id});
    m_writer.Append({start, EventKind::PacketStarted, queue, 0, 0, 0, id});
  }
  // ID3D12Fence::Signal from `thread`: CurrentValue `previous` -> `value` (lower: a rewind).
  void CpuSignal(ThreadId thread, FenceId fence, uint64_t value, int64_t id, TimeNs ts,
                 uint64_t previous) {
    m_writer.Append({ts, EventKind::FenceCpuSignal, 0, thread, fence, value, id,
                     static_cast<int64_t>(previous)});
  }
  // A CPU wait that begins at `begin`; released < 0: never released.
  void CpuWait(ThreadId thread, FenceId fence, uint64_t value, int64_t id, TimeNs begin,
               TimeNs released) {
    m_writer.Append({begin, EventKind::CpuWaitBegin, 0, thread, fence, value, id});
    if (released >= 0) {
      m_writer.Append({released, EventKind::CpuWaitReleased, 0, thread, fence, value, id});
    }
  }
  // wait_pending_at_end for GPU wait `id` on `queue` (queue 0: CPU wait `id` of `thread`), the
  // fence's CurrentValue at the end being `current`.
  void PendingAtEnd(QueueId queue, ThreadId thread, FenceId fence, uint64_t value, int64_t id,
                    TimeNs end, uint64_t current) {
    m_writer.Append({end, EventKind::WaitPendingAtEnd, queue, queue ? 0 : thread, fence, value,
                     id, static_cast<int64_t>(current)});
  }
  EventRowId Append(const EventRecord& record) { return m_writer.Append(record); }
  TraceWriter& writer() { return m_writer; }

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

// Trace A of the analysis tests, span [0, 120]:
//   copy    (q1) packet 1 submitted 0, runs [10, 50]; signal f=1 queued 1, executed 50
//   3d      (q2) wait f>=1 queued 5, unblocked 60; packet 2 submitted 8, runs [60, 100]
//   compute (q3) packet 3 submitted 0, runs [0, 30]
// `extras` may append more records before the trace is finished.
template <typename Extras>
TraceStore WriteTraceA(const std::filesystem::path& path, Extras extras) {
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
  return t.Finish(0, 120);
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
    t.Append({0, EventKind::ModeChanged, 0, 1, 0, 0, 1, 0, 0, 0, 1});
    t.Append({51, EventKind::Interrupt, copy, 0, f, 1, 100, 1, 0, 1, kInterruptOptimized});
    t.Append({90, EventKind::LogOverrun, copy, 0, 0, 0, 0, 4, 2, 70, 1});
    t.Wait(gfx, 1, f, 5, 201, 105, -1);
    t.Append({120, EventKind::WaitPendingAtEnd, gfx, 0, f, 5, 201, 1});
  });
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
