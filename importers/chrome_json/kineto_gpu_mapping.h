// The PyTorch profiler / Kineto GPU mapping (issue 7, trace-formats §1.7): what the builder
// gathered about device streams, CUDA runtime calls and cuda_sync events becomes fence records.
//
//   cudaEventRecord (runtime call, correlation C)   -> fence_signal_queued at the call, on the
//       stream the event was recorded on, and fence_signal_executed at the point on that stream
//       where everything launched before the call has completed (CUDA stream order).
//       One fence per CUDA event id; value = how many times that event has been recorded.
//   cuda_sync "Stream Wait Event" on stream S      -> fence_wait_queued (at the
//       cudaStreamWaitEvent call) and fence_wait_unblocked on S, same fence and value as the
//       record it waits for, arg1 = that signal's op id.
//   cuda_sync "Event Sync" / "Stream Sync" / "Context Sync" -> cpu_wait_begin / cpu_wait_released
//       on the CPU thread that made the call.
//
// Kineto writes neither the stream nor the CUDA event id on cudaEventRecord itself; both come
// from the cuda_sync events that name the record by correlation (wait_on_cuda_event_record_corr_id,
// wait_on_stream, wait_on_cuda_event_id). A record no sync names cannot be placed on a stream and
// is counted, not guessed.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_event.h"
#include "importers/chrome_json/record_sink.h"

namespace importers::chrome_json {

struct KinetoPacket {
  core::model::QueueId queue = 0;
  uint32_t submitted_record = 0;  // index in the RecordSink
  TimeNs submit = 0;  // CPU launch time when a launch flow gave it, else the start
  TimeNs end = 0;
};

struct KinetoRuntimeCall {
  TimeNs ts = 0;
  TimeNs end = 0;
  core::model::ThreadId thread = 0;
  bool event_record = false;  // cudaEventRecord* / hipEventRecord*
};

enum class KinetoSyncKind : uint8_t { kStreamWait, kEventSync, kStreamSync, kContextSync };

struct KinetoSync {
  KinetoSyncKind kind = KinetoSyncKind::kStreamWait;
  TimeNs ts = 0;
  TimeNs end = 0;
  uint32_t process = 0;  // index into ParsedTrace::processes (the device)
  int64_t stream = -1;   // tid of the event (-1 for device-wide)
  KinetoArgs args;
  uint64_t offset = 0;   // byte offset, for problem places
};

struct KinetoCollected {
  std::vector<KinetoPacket> packets;
  std::unordered_map<int64_t, KinetoRuntimeCall> runtime_by_correlation;
  std::vector<KinetoSync> syncs;
};

// Returns the queue of (device process, stream), creating it when the trace has no packet on it.
using QueueForStream = std::function<core::model::QueueId(uint32_t process, int64_t stream)>;

// Appends the fence and CPU-wait records to `sink`, adds one fence per CUDA event id to the
// writer, and counts what could not be linked as import problems.
void MapKinetoSynchronisation(const KinetoCollected& collected, RecordSink& sink,
                              core::store::TraceWriter& writer, const QueueForStream& queue_for);

}  // namespace importers::chrome_json
