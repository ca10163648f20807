// Distribution summaries used by the latency analysis and the reports.
//
// Percentiles use the nearest-rank method: the p-th percentile of n sorted samples is the sample
// at rank ceil(p / 100 * n) (1-based), so it is always one of the samples.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"

namespace core::analysis {

struct Percentiles {
  uint64_t count = 0;
  core::model::DurationNs p50 = 0;
  core::model::DurationNs p90 = 0;
  core::model::DurationNs p99 = 0;
  core::model::DurationNs max = 0;
  double mean = 0;
};

// Reorders `samples` (selects the ranks in place).
Percentiles Summarise(std::vector<core::model::DurationNs>& samples);

// Counts per power-of-two bucket: counts[0] holds samples < 1 ns (zero), counts[k] for k >= 1
// holds [2^(k-1), 2^k) ns. Trailing empty buckets are dropped.
struct Log2Histogram {
  std::vector<uint64_t> counts;
  static core::model::DurationNs BucketLow(size_t k) { return k == 0 ? 0 : int64_t{1} << (k - 1); }
};
Log2Histogram HistogramOf(const std::vector<core::model::DurationNs>& samples);

}  // namespace core::analysis
