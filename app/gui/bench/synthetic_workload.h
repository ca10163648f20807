// A synthetic, deterministic multi-queue workload written through TraceWriter, for `bench ui`
// and for the window's tests. It is a benchmark input, not a simulation: timings follow a fixed
// frame pattern with a small deterministic jitter, so the event count is exact and repeatable.
//
// One frame (period 1 ms), records in brackets:
//   Copy queue      [upload packet]--signal Upload=f
//   3D queue              wait Upload>=f --> [gbuffer][lighting][post]--signal Frame=f
//   Compute queue   [async compute packet]
//   render thread   submits; CPU-waits Frame>=f-1, released by the interrupt of that signal
//   interrupts      one per Frame signal (plus a spurious one every 16 frames)
//   background      a PGO task every 8 frames on one of two runtime threads,
//                   SetBackgroundProcessingMode every 64 frames with a commit
#pragma once

#include <cstdint>
#include <filesystem>

namespace app::gui::bench {

// Writes about `events` records (the last frame is completed, so up to one frame more) to
// `path`. Returns the number of records written. Throws core::Error on I/O failure.
uint64_t WriteSyntheticWorkload(const std::filesystem::path& path, uint64_t events);

}  // namespace app::gui::bench
