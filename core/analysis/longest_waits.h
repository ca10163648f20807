// The waits that held their queue or thread longest, each with what released it: the signal
// (its queue, or a CPU signal), when it executed, and the packet whose completion executed it
// (core/analysis/packet_completions.h). This answers "what did this stream wait for?" for the
// waits that cost most.
//
// A GPU wait's held time runs from when its queue reached it (observed on the GPU, when the
// trace records that, else when it was queued) to its unblock; a CPU wait's from its begin to
// its release. Waits never released are not listed (the findings cover them).
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "core/analysis/packet_completions.h"
#include "core/analysis/reconstruction.h"
#include "core/analysis/wait_ref.h"

namespace core::analysis {

struct HeldWait : WaitRef {
  TimeNs start = 0;           // reached (GPU) / begin (CPU)
  TimeNs end = 0;             // unblocked / released
  uint32_t signal = kNoIndex;  // the releasing signal
  uint32_t packet = kNoIndex;  // the packet whose completion executed that signal
  bool link_inferred = false;  // the importer inferred the link (release_link = inferred)
  DurationNs Held() const { return end - start; }
  // Every field, the base's first, for the trace cache (core/cache/serialize.h cannot find the
  // fields of a struct with a base class by itself). A field added above belongs here too.
  static constexpr auto kCacheFields = std::make_tuple(
      &HeldWait::cpu, &HeldWait::index, &HeldWait::queue, &HeldWait::thread, &HeldWait::fence,
      &HeldWait::value, &HeldWait::start, &HeldWait::end, &HeldWait::signal, &HeldWait::packet,
      &HeldWait::link_inferred);
};

// The `limit` waits (GPU and CPU together) held longest, longest first (ties: earlier first).
std::vector<HeldWait> LongestWaits(const Reconstruction& r, const PacketCompletions& completions,
                                   size_t limit);

}  // namespace core::analysis
