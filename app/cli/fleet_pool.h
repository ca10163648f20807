// The local pool of `fleet import` (and `bench fleet`): the map step of every trace of a fleet,
// each in its own child process (`fencescope fleet map FLEETDIR --first I --count 1`), at most
// `workers` at a time. A child holds one trace at a time and gives its memory back when it
// ends; one that fails or crashes costs only its own trace (its reason lands in the trace's
// .error file) while the others go on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "core/fleet/fleet_inputs.h"

namespace app::cli {

// Workers for `inputs`: at most the cores, at most what the available memory holds at
// EstimatedMapPeakBytes of the largest input each, at most the inputs; at least 1. `limit` (0:
// none) caps it further (--jobs).
size_t FleetWorkerCount(const std::vector<std::filesystem::path>& inputs, size_t limit);

// What one map child may hold at its peak for an input of `file_bytes` (compressed inputs are
// assumed to inflate 10 times): the importer's own peak is about the decoded size for large
// inputs, the analysis of the loaded trace about the same again.
uint64_t EstimatedMapPeakBytes(const std::filesystem::path& input);

// Runs `task(index, worker)` for every index in [0, count) on `workers` threads (at least 1),
// each thread taking the next index when it is done with one; returns when all are done. The
// tasks run children (RunChild) and gather what they report under their own lock.
void ForEachOnPool(size_t count, size_t workers,
                   const std::function<void(size_t index, size_t worker)>& task);

struct MapPoolResult {
  size_t succeeded = 0;
  size_t failed = 0;
  size_t workers = 0;
  int64_t peak_worker_bytes = 0;  // largest peak resident memory of one child
  double cpu_seconds = 0;         // user + system time of all the children
  int64_t disk_read_bytes = 0;    // what the children read from storage (ChildRun)
  double wall_seconds = 0;
};

// Runs the map step of inputs [0, count) of the fleet. `progress(done, count)` is called
// (from the pool's threads, one at a time) after each trace.
MapPoolResult RunMapPool(const core::fleet::FleetPaths& paths, size_t count, size_t workers,
                         const std::function<void(size_t done, size_t count)>& progress);

}  // namespace app::cli
