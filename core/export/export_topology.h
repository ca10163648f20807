// The topology of a fencescope trace as its own Chrome JSON export carries it, so that
// import(export(x)) gives back the same adapters, engines, HW queues, processes, threads,
// contexts and fences (names, types, source ids such as pid, tid and context handles) and the
// same span: the queue identities `compare` matches on survive the round trip.
//
// In the file it is the top-level member "fencescopeTopology", written before "traceEvents":
//   {"start_ns":N, "end_ns":N,
//    "adapters":  [{"id","name","luid","native_fences","optimized_interrupts",
//                   "preemption_graphics","preemption_compute"}],
//    "engines":   [{"id","adapter","type","ordinal","name"}],
//    "processes": [{"id","pid","name","track_pid"}],
//    "queues":    [{"id","engine","adapter","type","priority","process","name","sort_index",
//                   "track":[pid,tid]}],
//    "contexts":  [{"id","process","queue","handle","name"}],
//    "threads":   [{"id","process","tid","kind","name","sort_index","track":[pid,tid]}],
//    "fences":    [{"id","name","kind","shared","owner_adapter","adapter_mask","initial_value",
//                   "handle"}]}
// Ids and references are the exported trace's; enums are their numbers in the schema; `track`
// / `track_pid` are the pid and tid of the track that holds the queue's or thread's events in
// the file (the fence boxes name their fence by its "id"). The importer reads the member back
// with importers/chrome_json/export_topology_reader.h.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/store/trace_store.h"

namespace core::exporting {

struct ExportTrack {
  int64_t pid = 0;
  int64_t tid = 0;
};

// The member's value (a JSON object) for `store`; the callbacks give each track's pid and tid.
std::string ExportTopologyJson(
    const core::store::TraceStore& store,
    const std::function<int64_t(const core::store::Process&)>& pid_of,
    const std::function<ExportTrack(const core::store::Queue&)>& queue_track,
    const std::function<ExportTrack(const core::store::Thread&)>& thread_track);

}  // namespace core::exporting
