// Statistics of a time range (the selected range, else the whole trace): per queue the time
// busy running packets, blocked in a fence wait while not running, and idle; counts of what
// happened; and histograms of fence latency (signal executed -> wait unblocked) and of CPU wait
// times. Computed once per range, not per frame.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

struct QueueRangeStats {
  core::model::QueueId queue = 0;
  std::string name;
  core::model::DurationNs busy = 0;
  core::model::DurationNs blocked = 0;  // inside a wait box, not running a packet
  core::model::DurationNs idle = 0;
  uint64_t segments = 0;
  uint64_t signals = 0;
  uint64_t waits = 0;
};

// Summary of a list of microsecond values, with a log-spaced histogram (bar k: [2^(k-1), 2^k) us,
// bar 0: below 1 us).
struct LatencySummary {
  size_t count = 0;
  double median_us = 0, p95_us = 0, max_us = 0;
  std::vector<float> histogram;
};
LatencySummary SummarizeLatencies(std::vector<double> values_us, int buckets);

struct RangeStats {
  state::TimeRange range;
  std::vector<QueueRangeStats> queues;
  uint64_t interrupts = 0;
  uint64_t spurious_interrupts = 0;
  uint64_t cpu_waits = 0;
  std::vector<double> fence_latency_us;  // per GPU wait unblocked in range and linked
  std::vector<double> cpu_wait_us;       // per CPU wait released in range
  LatencySummary fence_latency;
  LatencySummary cpu_wait;
};

// Pure computation (tested without a window).
RangeStats ComputeRangeStats(const state::Document& doc, state::TimeRange range);

class RangeStatsView {
 public:
  void Draw(state::Document& doc);

 private:
  const state::Document* m_doc = nullptr;
  RangeStats m_stats;
  bool m_valid = false;
};

}  // namespace app::gui::views
