#include "core/analysis/fence_signal_search.h"

#include <algorithm>

namespace core::analysis {

uint32_t FindReleasingSignal(const FenceSignals& fs, FenceValue value, TimeNs queued,
                             TimeNs until) {
  if (fs.signal.empty() || until == kUnknownTime) return kNoIndex;
  size_t hi = std::upper_bound(fs.executed.begin(), fs.executed.end(), until) - fs.executed.begin();
  size_t run = 0;
  if (queued != kUnknownTime) {
    // signals executed at or before the queue time: [0, at_queue)
    size_t at_queue =
        std::upper_bound(fs.executed.begin(), fs.executed.end(), queued) - fs.executed.begin();
    if (at_queue > 0) {
      // the last run that began at or before the queue time
      auto it = std::upper_bound(fs.run_starts.begin(), fs.run_starts.end(),
                                 static_cast<uint32_t>(at_queue - 1));
      run = static_cast<size_t>(it - fs.run_starts.begin()) - 1;
    }
  }
  for (; run < fs.run_starts.size(); ++run) {
    size_t begin = fs.run_starts[run];
    size_t end = run + 1 < fs.run_starts.size() ? fs.run_starts[run + 1] : fs.signal.size();
    end = std::min(end, hi);
    if (begin >= end) break;
    auto first = std::lower_bound(fs.run_max.begin() + begin, fs.run_max.begin() + end, value);
    if (first != fs.run_max.begin() + end) return fs.signal[first - fs.run_max.begin()];
  }
  return kNoIndex;
}


}  // namespace core::analysis
