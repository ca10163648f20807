#include "importers/rocprof/rocprof_hip_syncs.h"

#include <algorithm>
#include <map>
#include <optional>

namespace importers::rocprof {
namespace {

struct LastRecord {
  int64_t correlation = -1;
  int64_t stream = -1;
};

// The synchronisation a HIP call is, if any.
std::optional<cuda::CudaSyncKind> SyncKindOf(const RocCall& call) {
  if (call.name == "hipStreamWaitEvent") return cuda::CudaSyncKind::kStreamWait;
  if (call.name == "hipEventSynchronize") return cuda::CudaSyncKind::kEventSync;
  if (call.name == "hipStreamSynchronize") return cuda::CudaSyncKind::kStreamSync;
  if (call.name == "hipDeviceSynchronize") return cuda::CudaSyncKind::kContextSync;
  return std::nullopt;
}

}  // namespace

bool IsEventRecord(const RocCall& call) {
  return call.domain == CallDomain::kHip && call.name.starts_with("hipEventRecord");
}

std::vector<cuda::CudaSync> HipSyncs(
    const std::vector<RocCall>& calls,
    const std::function<std::optional<uint32_t>(int64_t stream)>& gpu_of_stream,
    const std::function<std::optional<uint32_t>(int64_t thread, int64_t before)>& gpu_of_thread,
    HipSyncCounts& counts) {
  // The event records and syncs in host order, so that a wait finds the record made before it.
  // Only they are sorted: the other calls (launches, copies: nearly all of a large file's
  // millions) are not looked at here.
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < calls.size(); ++i) {
    const RocCall& call = calls[i];
    if (call.domain != CallDomain::kHip || call.correlation < 0) continue;
    if (IsEventRecord(call) || SyncKindOf(call)) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return calls[a].start < calls[b].start; });
  std::map<int64_t, LastRecord> last_record;  // by event handle
  std::vector<cuda::CudaSync> syncs;
  for (uint32_t i : order) {
    const RocCall& call = calls[i];
    if (IsEventRecord(call)) {
      if (call.event >= 0) last_record[call.event] = {call.correlation, std::max<int64_t>(call.stream, 0)};
      continue;
    }
    cuda::CudaSync sync;
    sync.kind = *SyncKindOf(call);
    const bool on_event = sync.kind == cuda::CudaSyncKind::kStreamWait ||
                          sync.kind == cuda::CudaSyncKind::kEventSync;
    const bool on_stream = sync.kind == cuda::CudaSyncKind::kStreamWait ||
                           sync.kind == cuda::CudaSyncKind::kStreamSync;
    if ((on_event && call.event < 0) || (on_stream && call.stream < 0)) {
      ++counts.syncs_without_arguments;
      continue;
    }
    sync.ts = call.start;
    sync.end = std::max(call.start, call.end);
    sync.args.correlation = call.correlation;
    std::optional<uint32_t> gpu;
    if (on_stream) {
      sync.stream = call.stream;
      sync.args.stream = call.stream;
      gpu = gpu_of_stream(call.stream);
    }
    if (on_event) {
      sync.args.wait_on_event_id = call.event;
      auto record = last_record.find(call.event);
      if (record == last_record.end()) {
        ++counts.waits_on_unrecorded_event;
      } else {
        sync.args.wait_on_record_correlation = record->second.correlation;
        sync.args.wait_on_stream = record->second.stream;
        if (!gpu) gpu = gpu_of_stream(record->second.stream);
      }
    }
    if (!gpu) gpu = gpu_of_thread(call.thread, call.start);
    sync.process = gpu.value_or(0);
    syncs.push_back(sync);
  }
  return syncs;
}

}  // namespace importers::rocprof
