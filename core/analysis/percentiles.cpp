#include "core/analysis/percentiles.h"

#include <algorithm>
#include <cmath>

namespace core::analysis {

Percentiles Summarise(std::vector<core::model::DurationNs>& samples) {
  Percentiles p;
  p.count = samples.size();
  if (samples.empty()) return p;
  // Nearest rank: the ceil(pct% of n)-th smallest. Selected, not sorted (linear instead of
  // n log n: a 10M-event trace has millions of wait latencies): each selection leaves the
  // smaller values before the rank, where the next, smaller rank is selected.
  auto index = [&](double pct) {
    auto r = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(samples.size())));
    return std::clamp<size_t>(r, 1, samples.size()) - 1;
  };
  auto select = [&](size_t k, size_t end) {
    std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(k),
                     samples.begin() + static_cast<std::ptrdiff_t>(end));
    return samples[k];
  };
  const size_t i99 = index(99), i90 = index(90), i50 = index(50);
  p.max = *std::max_element(samples.begin(), samples.end());
  p.p99 = select(i99, samples.size());
  p.p90 = select(i90, i99 + 1);
  p.p50 = select(i50, i90 + 1);
  // Exact in any order (the durations are integers).
  __int128 sum = 0;
  for (auto s : samples) sum += s;
  p.mean = static_cast<double>(sum) / static_cast<double>(samples.size());
  return p;
}

Log2Histogram HistogramOf(const std::vector<core::model::DurationNs>& samples) {
  Log2Histogram h;
  for (auto s : samples) {
    size_t k = 0;
    if (s >= 1) {
      uint64_t v = static_cast<uint64_t>(s);
      k = 64 - static_cast<size_t>(__builtin_clzll(v));  // v in [2^(k-1), 2^k)
    }
    if (h.counts.size() <= k) h.counts.resize(k + 1, 0);
    ++h.counts[k];
  }
  return h;
}

}  // namespace core::analysis
