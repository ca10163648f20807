// Writes a fencescope trace as Chrome trace-event JSON that chrome://tracing and Perfetto UI
// open: threads and HW queues as named tracks (M metadata), packets, GPU signal / wait boxes
// and CPU waits as X slices, signal -> wait arrows and the trace's own flows as flow events,
// interrupts and instants as instants, counters as C events.
//
// The boxes use categories the importer reads back ("kernel" / "gpu_memcpy" packets on device
// tracks, "fence_signal", "fence_wait", "cpu_wait" with fence / value / signal_id args), so
// import(export(x)) keeps the queues, packets, signals, waits and their links. The top-level
// member "fencescopeTopology" (export_topology.h) gives the importer back the adapters, engines,
// queues, processes, threads, contexts and fences with their names and source ids, and the
// trace's span, so that a trace and its round trip compare queue for queue.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>

namespace core::exporting {

struct ExportSummary {
  uint64_t json_events = 0;
};

// `output` ending in ".gz" is gzip-compressed. The file appears only when complete (written
// beside it and renamed). Throws core::Error.
ExportSummary ExportChromeJson(const std::filesystem::path& trace,
                               const std::filesystem::path& output,
                               const std::function<void(double)>& progress = {});

}  // namespace core::exporting
