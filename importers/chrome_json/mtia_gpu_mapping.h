// The MTIA device mapping of PyTorch profiler / Kineto traces (mtia_ccp_events, written by
// Kineto's MTIA activity profiler): each device stream is a queue, and its event_record and
// event_wait events become fence records, so that every wait on one stream is linked to the
// record on another stream that released it.
//
//   event_record on stream S          -> a signal of the fence "<S> event records", one per
//       stream (records execute in stream order, so the n-th record of S signals value n):
//       fence_signal_queued at its recordEvent call (correlation id; the record's own start
//       when the call is not in the trace), fence_signal_executed at the record's start (the
//       waits it releases end within a microsecond of it, before the record event ends).
//   event_wait on stream S,           -> a GPU wait on S for the fence of stream W:
//       wait_on_stream W                 fence_wait_queued at its waitOnEvent call (or its own
//       start), fence_wait_unblocked at its end, observed_ns = its start (S reached the wait).
//       The device names the stream it waits on but not the record: the release is the last
//       record of W that began by the time the wait ended (release_link = inferred), when it
//       began during the wait, or before it and the wait took at most 1 us (it found the value
//       there). A wait that held S longer while W recorded nothing during it is placed
//       unlinked: what released it is not in the trace.
//   other events (pe_exe, dma_request, merge, remote, ...) are the stream's packets, made by the
//       builder as for CUDA kernels (launched by their runtime call's ac2g flow or correlation).
//   synchronizeStream (a host mtia_runtime call naming device and stream_id)
//                                     -> a CPU wait of the calling thread for the whole call, on
//       the fence "<S> synchronize", signalled at the call and executed when everything the
//       stream had been given before the call (packets, records, waits) had ended, or at the
//       call's return if the device's timestamps say later (the return is the fact kept).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_event.h"
#include "importers/chrome_json/kineto_gpu_mapping.h"
#include "importers/common/record_sink.h"

namespace importers::chrome_json {

struct MtiaStreamEvent {
  bool wait = false;  // event_wait; else event_record
  TimeNs ts = 0;
  TimeNs end = 0;
  uint32_t process = 0;         // index into ParsedTrace::processes (the device)
  int64_t stream = -1;          // args.stream: the stream it ran on
  int64_t wait_on_stream = -1;  // args.wait_on_stream (waits)
  int64_t correlation = -1;     // args.correlation: its runtime call, -1 when absent
  core::model::QueueId queue = 0;
};

// A host's synchronizeStream call.
struct MtiaStreamSync {
  TimeNs ts = 0;
  TimeNs end = 0;
  core::model::ThreadId thread = 0;
  uint32_t process = kNone;  // the device (args.device) as an index into ParsedTrace::processes
  int64_t stream = -1;       // args.stream_id
};

// Returns the queue of the device stream (process, args.stream), or 0 when the trace holds no
// event of that stream.
using QueueOfMtiaStream = std::function<core::model::QueueId(uint32_t process, int64_t stream)>;

// Appends the fence records of `events` and `syncs` to `sink`, adds their fences to the writer,
// and counts in import_problems how waits were linked.
void MapMtiaSynchronisation(const std::vector<MtiaStreamEvent>& events,
                            const std::vector<MtiaStreamSync>& syncs,
                            const std::vector<CudaPacket>& packets,
                            const std::unordered_map<int64_t, CudaRuntimeCall>& runtime_calls,
                            RecordSink& sink, core::store::TraceWriter& writer,
                            const QueueOfMtiaStream& queue_of,
                            const std::function<std::string(core::model::QueueId)>& queue_name,
                            FenceOpIds& ids);

}  // namespace importers::chrome_json
