#include "importers/chrome_json/kineto_gpu_mapping.h"

#include "importers/common/import_counters.h"

namespace importers::chrome_json {

void MapKinetoSynchronisation(CudaCollected& collected, RecordSink& sink,
                              core::store::TraceWriter& writer, const QueueForStream& queue_for,
                              const std::function<std::string(core::model::QueueId)>& queue_name,
                              FenceOpIds& ids) {
  const cuda::CudaSyncCounts n =
      cuda::MapCudaSynchronisation(collected, sink, writer, queue_for, queue_name, ids);
  // What was inferred and what could not be linked, as import problems (`fencescope info`).
  const importers::ImportCounter rows[] = {
      {"kineto_stream_wait_without_sync", n.stream_wait_calls_without_sync,
       "cudaStreamWaitEvent calls with no cuda_sync event (traces from before Kineto wrote "
       "them): the call names neither the waiting stream nor the event, no wait was placed"},
      {"kineto_launch_by_correlation", n.launches_by_correlation,
       "kernels with no ac2g launch flow, linked to the runtime call of their correlation id"},
      {"kineto_wait_link_inferred", n.gpu_waits_inferred,
       "GPU waits (Stream Wait Event) whose record or its stream the trace does not name "
       "(wait_on_cuda_event_record_corr_id / wait_on_stream = -1): linked by inference "
       "(release_link = inferred; schemas/kineto_inference.md)"},
      {"kineto_cpu_wait_link_inferred", n.cpu_waits_inferred,
       "CPU waits (Event Sync) whose record the trace does not name: linked by inference"},
      {"kineto_record_stream_by_launch", n.streams_by_launch,
       "event records placed on the stream of the last launch their thread made before them "
       "(inferred)"},
      {"kineto_record_stream_by_gpu_timing", n.streams_by_timing,
       "event records placed on the stream whose work ended last before the waiting stream went "
       "on (inferred from GPU timing)"},
      {"kineto_record_implied", n.records_implied,
       "Stream Wait Events whose event record is not in the trace but whose stream is "
       "(wait_on_stream): a record is implied just before the wait's call (inferred)"},
      {"kineto_record_implied_from_later", n.records_implied_from_later,
       "waits on an event recorded before the capture began (no record of it before them) "
       "whose event is recorded later in the trace: a record is implied just before the "
       "wait's call on the stream of that later record (inferred)"},
      {"kineto_record_stream_unknown", n.streams_unknown,
       "event records waited for whose stream could not be found: no signal was made, their "
       "waits are placed unlinked"},
      {"kineto_wait_unlinked", n.waits_without_record,
       "cuda_sync \"Stream Wait Event\" events with no record of their CUDA event before them in "
       "the trace: placed as waits with nothing linked"},
      {"kineto_wait_without_stream", n.waits_without_stream,
       "cuda_sync \"Stream Wait Event\" events naming no stream: no wait was placed"},
      {"kineto_sync_without_call", n.syncs_without_call,
       "cuda_sync Event/Stream/Context Sync events with no CUDA runtime call of the same "
       "correlation id: the waiting CPU thread is unknown, no CPU wait was made"},
      {"kineto_event_record_unlinked", n.records_unclaimed,
       "cudaEventRecord calls that no cuda_sync event names or claims: the CUDA event they "
       "recorded is not in the trace, so no fence signal was made for them"},
      {"kineto_wait_released_before_signal", n.released_before_signal,
       "GPU waits whose stream's next packet started before the inferred record executed: the "
       "inference and the GPU timestamps disagree (the wait ends at that start)"},
      {"kineto_sync_before_work_end", n.syncs_before_work_end,
       "Event / Stream / Context Syncs that returned before the GPU timestamps of the work they "
       "waited for ended (host and GPU clocks disagree); the signal is placed at the return"},
      {"kineto_record_against_timing", n.records_against_timing,
       "waits whose every candidate record executed, by the GPU timestamps, after the wait went "
       "on: linked to the one that executed first (inferred)"},
  };
  importers::CountNonZero(writer, rows);
}

}  // namespace importers::chrome_json
