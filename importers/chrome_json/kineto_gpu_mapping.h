// The PyTorch profiler / Kineto GPU mapping (trace-formats §1.7): what the builder gathered
// about device streams, CUDA runtime calls and cuda_sync events becomes fence records. Every
// wait the trace holds is placed; what released it is linked where the trace says so and
// inferred (and marked so: release_link = inferred) where it does not. The rules, with their
// known limits, are written down in schemas/kineto_inference.md.
//
//   cudaEventRecord* (runtime call, correlation C) -> fence_signal_queued at the call, on the
//       stream the event was recorded on, and fence_signal_executed where everything launched
//       on that stream before the call has completed (CUDA stream order). One fence per (device,
//       CUDA event id); value = how many times that event has been recorded.
//   cuda_sync "Stream Wait Event" on stream S  -> fence_wait_queued at the cudaStreamWaitEvent
//       call and fence_wait_unblocked on S (observed_ns: when S reached the wait), on the fence
//       of its CUDA event id, released_by_signal_id = the record it waited for when known.
//   cuda_sync "Event Sync"                      -> a CPU wait on the calling thread, on the
//       event's fence, released at the sync's end.
//   cuda_sync "Stream Sync" / "Context Sync"    -> a CPU wait on the calling thread released at
//       the sync's end, on the fence "<stream> synchronize" of the stream whose work it waited
//       for (Context Sync: the device's stream that finished last), signalled at the call and
//       executed when that stream's earlier work completed.
//
// Current CUPTI (CUDA 12.x/13) writes wait_on_cuda_event_record_corr_id and wait_on_stream as
// -1 and no event id or stream on the record call; then the record is inferred among the
// waiting thread's recent record calls by the GPU timestamps (kineto_record_choice.h), and its
// stream from the launches before it (or, failing those, GPU timing).
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
  uint32_t process = 0;           // index into ParsedTrace::processes (the device)
  uint32_t submitted_record = 0;  // index in the RecordSink
  uint32_t started_record = kNone;
  TimeNs submit = 0;  // CPU launch time when a launch flow gave it, else the start
  TimeNs start = 0;
  TimeNs end = 0;
  core::model::ThreadId thread = 0;  // launching thread, 0 when unknown
  int64_t correlation = -1;          // args.correlation (the launch call's), -1 when absent
};

struct KinetoRuntimeCall {
  TimeNs ts = 0;
  TimeNs end = 0;
  core::model::ThreadId thread = 0;
  uint32_t record = kNone;    // the call's cpu_slice record in the RecordSink
  bool event_record = false;  // cudaEventRecord* / hipEventRecord*
  bool stream_wait = false;   // cudaStreamWaitEvent / hipStreamWaitEvent
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

// Fence operation ids (signal_id, wait_id, waiter_id) handed out by the GPU mappings of one
// trace: each mapping takes the next ones, so that ids stay unique across them.
struct FenceOpIds {
  int64_t next_signal = 1;
  int64_t next_wait = 1;
  int64_t next_waiter = 1;
};

// Returns the queue of (device process, stream), creating it when the trace has no packet on it.
using QueueForStream = std::function<core::model::QueueId(uint32_t process, int64_t stream)>;

// Links packets with no launch flow to the runtime call of their correlation id (a CPU launch
// flow is added), then appends the fence and CPU-wait records to `sink`, adds the fences to the
// writer, and counts in import_problems what was inferred and what could not be linked.
void MapKinetoSynchronisation(KinetoCollected& collected, RecordSink& sink,
                              core::store::TraceWriter& writer, const QueueForStream& queue_for,
                              const std::function<std::string(core::model::QueueId)>& queue_name,
                              FenceOpIds& ids);

}  // namespace importers::chrome_json
