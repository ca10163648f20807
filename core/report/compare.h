// `fencescope compare A B`: the differences between two traces' reports, metric by metric and
// queue by queue (e.g. native vs monitored fences on the same scenario, PGO on vs off).
//
// Both reports are flattened to numeric leaves keyed by their JSON path; array elements are
// keyed by their identity (name, fence, or from -> to), so queue "3d" of A meets queue "3d" of
// B whatever their positions. Lists without an identity (steps, findings, histograms) are left
// out: they are not metrics. Queues are matched by their `identity` (ReportData::QueueIdentity:
// adapter, engine, queue name and the ids the source gave them), not by display name alone.
//
// Like with like: runs of one scenario share a time origin and span, and their figures are
// compared as they are. When the spans (duration_ns) differ, the figures that add up over the
// span (SpanTotals in compare.cpp: per-queue times and packets, queue-pair and idle-gap times,
// event and fence counts, ...) are compared as rates: a time as its share of the span (key
// "busy_ns" becomes "busy_share"), a count per second ("packets" becomes "packets_per_s").
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
  std::string queue;     // display name; the identity when two queues of the comparison share it
  std::string identity;  // what matched A's queue with B's
  std::vector<MetricDiff> metrics;  // busy_ns, waiting_ns, ... (busy_share, ... with rates)
};

struct Comparison {
  std::string a_name;
  std::string b_name;
  int64_t a_span_ns = 0;  // duration_ns of each report (0: it does not say)
  int64_t b_span_ns = 0;
  bool rates = false;  // the spans differ: totals over the span are compared per duration
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
