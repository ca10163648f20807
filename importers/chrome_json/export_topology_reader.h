// Reads back the member "fencescopeTopology" of fencescope's own Chrome JSON export: the
// adapters, engines, HW queues, processes, threads, contexts and fences of the exported trace,
// with the pid and tid of the track holding each queue's and thread's events. The format is
// described, and written, in core/export/export_topology.h.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/export/export_topology.h"
#include "core/model/topology.h"

namespace importers::chrome_json {

using core::exporting::ExportTrack;

struct ExportTopology {
  core::model::TimeNs start_ns = 0;
  core::model::TimeNs end_ns = 0;
  std::vector<core::model::Adapter> adapters;
  std::vector<core::model::Engine> engines;
  std::vector<core::model::Process> processes;
  std::vector<int64_t> process_track_pids;  // per process
  std::vector<core::model::Queue> queues;
  std::vector<ExportTrack> queue_tracks;  // per queue
  std::vector<core::model::Context> contexts;
  std::vector<core::model::Thread> threads;
  std::vector<ExportTrack> thread_tracks;  // per thread
  std::vector<core::model::Fence> fences;
};

// Reads the member's value. Throws core::Error naming what is wrong.
ExportTopology ReadExportTopology(std::string_view json);

}  // namespace importers::chrome_json
