#include "core/analysis/longest_waits.h"

#include <algorithm>

namespace core::analysis {

std::vector<HeldWait> LongestWaits(const Reconstruction& r, const PacketCompletions& completions,
                                   size_t limit) {
  std::vector<HeldWait> all;
  for (uint32_t i = 0; i < r.waits.size(); ++i) {
    const WaitBox w = r.waits[i];
    if (w.unblocked == kUnknownTime) continue;
    const TimeNs start = w.observed != kUnknownTime ? w.observed : w.queued;
    if (start == kUnknownTime) continue;
    HeldWait h;
    h.wait = i;
    h.queue = w.queue;
    h.fence = w.fence;
    h.value = w.value;
    h.start = std::min(start, w.unblocked);
    h.end = w.unblocked;
    h.signal = w.signal;
    h.link_inferred = w.link_inferred;
    all.push_back(h);
  }
  for (uint32_t i = 0; i < r.cpu_waits.size(); ++i) {
    const CpuWait w = r.cpu_waits[i];
    if (w.begin == kUnknownTime || w.released == kUnknownTime) continue;
    HeldWait h;
    h.cpu = true;
    h.wait = i;
    h.thread = w.thread;
    h.fence = w.fence;
    h.value = w.value;
    h.start = w.begin;
    h.end = w.released;
    h.signal = w.signal;
    h.link_inferred = w.link_inferred;
    all.push_back(h);
  }
  const size_t n = std::min(limit, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<ptrdiff_t>(n), all.end(),
                    [](const HeldWait& a, const HeldWait& b) {
                      if (a.Held() != b.Held()) return a.Held() > b.Held();
                      return a.start < b.start;
                    });
  all.resize(n);
  for (HeldWait& h : all) {
    if (h.signal != kNoIndex) h.packet = PacketBeforeSignal(r, completions, h.signal);
  }
  return all;
}

}  // namespace core::analysis
