// What a CUDA importer gathers for the CUDA synchronisation mapping (cuda_sync_mapping.h) that
// the PyTorch profiler / Kineto importer (importers/chrome_json) and the Nsight Systems importer
// (importers/nsys) share: the device packets with their launches, the runtime and driver calls
// by correlation id, and the synchronisation records (stream waits, event / stream / context
// syncs). Each importer fills these from its own file; the rules that turn them into fences and
// waits are written once (schemas/kineto_inference.md).
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/model/types.h"

namespace importers::cuda {

using core::model::TimeNs;

constexpr uint32_t kNone = 0xFFFFFFFFu;

// A kernel, memcpy or memset on a device stream.
struct CudaPacket {
  core::model::QueueId queue = 0;
  uint32_t process = 0;           // the device, as the importer numbers them
  uint32_t submitted_record = 0;  // index in the RecordSink
  uint32_t started_record = kNone;
  TimeNs submit = 0;  // CPU launch time when a launch flow gave it, else the start
  TimeNs start = 0;
  TimeNs end = 0;
  core::model::ThreadId thread = 0;  // launching thread, 0 when unknown
  int64_t correlation = -1;          // the launch call's correlation id, -1 when absent
};

struct CudaRuntimeCall {
  TimeNs ts = 0;
  TimeNs end = 0;
  core::model::ThreadId thread = 0;
  uint32_t record = kNone;    // the call's cpu_slice record in the RecordSink
  bool event_record = false;  // cudaEventRecord* / hipEventRecord*
  bool stream_wait = false;   // cudaStreamWaitEvent / hipStreamWaitEvent
  // An event record's completion on the device where the trace gives it (Nsight's
  // CUDA_EVENT.timestamp); 0: not given, the record executes by stream order.
  TimeNs executed = 0;
};

enum class CudaSyncKind : uint8_t { kStreamWait, kEventSync, kStreamSync, kContextSync };

// What a synchronisation record names (-1 when it does not).
struct CudaSyncArgs {
  int64_t correlation = -1;                 // the call that made it
  int64_t stream = -1;                      // the stream it is about
  int64_t wait_on_stream = -1;              // the stream the waited-for record was made on
  int64_t wait_on_record_correlation = -1;  // the waited-for record call's correlation id
  int64_t wait_on_event_id = -1;            // the CUDA event waited for
};

struct CudaSync {
  CudaSyncKind kind = CudaSyncKind::kStreamWait;
  TimeNs ts = 0;
  TimeNs end = 0;
  uint32_t process = 0;  // the device, as the importer numbers them
  int64_t stream = -1;   // the stream it was written on (-1 for device-wide)
  CudaSyncArgs args;
  uint64_t offset = 0;   // byte offset, for problem places
};

struct CudaCollected {
  std::vector<CudaPacket> packets;
  std::unordered_map<int64_t, CudaRuntimeCall> runtime_by_correlation;
  std::vector<CudaSync> syncs;
  // Legacy NULL streams: the blocking streams of the same device whose earlier work each of
  // their records and syncs waits for (empty where the trace does not tell the NULL stream).
  std::unordered_map<core::model::QueueId, std::vector<core::model::QueueId>>
      null_stream_waits_for;
};

// Fence operation ids (signal_id, wait_id, waiter_id) handed out by the GPU mappings of one
// trace: each mapping takes the next ones, so that ids stay unique across them.
struct FenceOpIds {
  int64_t next_signal = 1;
  int64_t next_wait = 1;
  int64_t next_waiter = 1;
};

// Returns the queue of (device, stream), creating it when the trace has no packet on it.
using QueueForStream = std::function<core::model::QueueId(uint32_t process, int64_t stream)>;

}  // namespace importers::cuda
