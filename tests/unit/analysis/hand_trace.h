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

}  // namespace hand_trace
