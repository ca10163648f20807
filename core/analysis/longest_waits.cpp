#include "core/analysis/longest_waits.h"

#include <algorithm>

namespace core::analysis {

namespace {

HeldWait Held(WaitRef wait, TimeNs start, TimeNs end, uint32_t signal, bool link_inferred) {
  HeldWait h;
  static_cast<WaitRef&>(h) = wait;
  h.start = start;
  h.end = end;
  h.signal = signal;
  h.link_inferred = link_inferred;
  return h;
}

}  // namespace

std::vector<HeldWait> LongestWaits(const Reconstruction& r, const PacketCompletions& completions,
                                   size_t limit) {
  std::vector<HeldWait> all;
  for (uint32_t i = 0; i < r.waits.size(); ++i) {
    const WaitBox w = r.waits[i];
    if (w.unblocked == kUnknownTime) continue;
    const TimeNs start = w.observed != kUnknownTime ? w.observed : w.queued;
    if (start == kUnknownTime) continue;
    all.push_back(Held(WaitRef::Gpu(i, w), std::min(start, w.unblocked), w.unblocked, w.signal,
                       w.link_inferred));
  }
  for (uint32_t i = 0; i < r.cpu_waits.size(); ++i) {
    const CpuWait w = r.cpu_waits[i];
    if (w.begin == kUnknownTime || w.released == kUnknownTime) continue;
    all.push_back(Held(WaitRef::Cpu(i, w), w.begin, w.released, w.signal, w.link_inferred));
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
