// `fencescope compare A B`: the differences between two traces' reports, metric by metric and
// queue by queue (e.g. native vs monitored fences on the same scenario, PGO on vs off).
//
// Both reports are flattened to numeric leaves keyed by their JSON path; array elements are
// keyed by their identity (name, fence, or from -> to), so queue "3d" of A meets queue "3d" of
// B whatever their positions. Lists without an identity (steps, findings, histograms) are left
// out: they are not metrics.
#pragma once

#include <string>
#include <vector>

#include "core/report/json.h"

namespace core::report {

struct MetricDiff {
  std::string key;
  double a = 0;
  double b = 0;
  bool in_a = false;
  bool in_b = false;
  double Delta() const { return b - a; }
  // (b - a) / |a|, or 0 when a is 0
  double Relative() const;
};

struct QueueDiff {
  std::string queue;
  std::vector<MetricDiff> metrics;  // busy_ns, waiting_ns, ...
};

struct Comparison {
  std::string a_name;
  std::string b_name;
  std::vector<MetricDiff> metrics;  // everything but the per-queue figures, in A's key order
  std::vector<QueueDiff> queues;    // A's queues, then queues only B has
};

Comparison CompareReports(const std::string& a_name, const Json& a, const std::string& b_name,
                          const Json& b);
std::string CompareText(const Comparison& c, bool only_changed);
Json CompareJson(const Comparison& c);
// Self-contained HTML with per-queue bar charts of busy / waiting / idle for A and B.
std::string CompareHtml(const Comparison& c);

}  // namespace core::report
