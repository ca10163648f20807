#include "core/analysis/percentiles.h"

#include <algorithm>
#include <cmath>

namespace core::analysis {

Percentiles Summarise(std::vector<core::model::DurationNs>& samples) {
  Percentiles p;
  p.count = samples.size();
  if (samples.empty()) return p;
  std::sort(samples.begin(), samples.end());
  auto rank = [&](double pct) {
    auto r = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(samples.size())));
    return samples[std::clamp<size_t>(r, 1, samples.size()) - 1];
  };
  p.p50 = rank(50);
  p.p90 = rank(90);
  p.p99 = rank(99);
  p.max = samples.back();
  double sum = 0;
  for (auto s : samples) sum += static_cast<double>(s);
  p.mean = sum / static_cast<double>(samples.size());
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
