// A synthetic trace dense in fence waits, for `bench ui` and the window's tests of arrows: the
// shape of a data-parallel training step, where every stream waits on its neighbour's event.
//
// One step (period 400 us) per stream q of `streams`, records in brackets:
//   stream q-1   [wait]--[packet]--signal F(q-1)=s
//                                          \__________________________
//   stream q                                      [wait F(q-1)>=s]--[packet]--signal F(q)=s+1
// Stream q's wait of step s + 1 is released by stream (q - 1 mod streams)'s signal of step s
// (named by released_by_signal_id), so the trace has streams * (steps - 1) signal -> wait
// arrows, `steps - 1` between each pair of neighbouring streams, one per step period.
#pragma once

#include <cstdint>
#include <filesystem>

namespace app::gui::bench {

struct DenseWaitWorkload {
  uint32_t streams = 8;
  uint64_t steps = 1000;
};

// Writes the trace to `path`. Returns the number of records written. Throws core::Error on I/O
// failure.
uint64_t WriteDenseWaitWorkload(const std::filesystem::path& path, const DenseWaitWorkload& w);

// Records the workload writes per step (the bench sizes its case with it).
constexpr uint64_t kDenseWaitRecordsPerStreamStep = 7;

}  // namespace app::gui::bench
