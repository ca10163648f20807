#include "core/analysis/fence_rewinds.h"

#include <algorithm>
#include <unordered_set>

#include "core/model/event_types.h"

namespace core::analysis {

std::vector<FenceRewind> FindFenceRewinds(const core::store::TraceStore& store,
                                          const Reconstruction& r) {
  std::vector<FenceRewind> out;
  std::unordered_set<int64_t> seen_signals;
  for (const SignalBox& s : r.signals) {
    if (!s.rewind || s.executed == kUnknownTime) continue;
    out.push_back({s.executed, s.fence, s.previous_value, s.value, s.cpu ? 0 : s.queue,
                   s.signal_id});
    if (s.signal_id != 0) seen_signals.insert(s.signal_id);
  }
  const auto& ev = store.events;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.kind[i] != EventKind::FenceRewind) continue;
    const auto rewind = events::FenceRewind::At(ev, i);
    if (rewind.signal_id != 0 && seen_signals.count(rewind.signal_id)) continue;
    out.push_back({rewind.ts_ns, rewind.fence_id, rewind.previous_value, rewind.fence_value, 0,
                   rewind.signal_id});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const FenceRewind& a, const FenceRewind& b) { return a.ts < b.ts; });
  return out;
}

}  // namespace core::analysis
