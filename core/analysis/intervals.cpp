#include "core/analysis/intervals.h"

#include <algorithm>

namespace core::analysis {

std::vector<Interval> UnionOf(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> out;
  for (const Interval& i : intervals) {
    if (i.end <= i.start) continue;
    if (!out.empty() && i.start <= out.back().end) {
      out.back().end = std::max(out.back().end, i.end);
    } else {
      out.push_back(i);
    }
  }
  return out;
}

namespace {

// First interval of the sorted, disjoint `list` that ends after `t`.
size_t FirstEndingAfter(const std::vector<Interval>& list, core::model::TimeNs t) {
  return static_cast<size_t>(
      std::upper_bound(list.begin(), list.end(), t,
                       [](core::model::TimeNs x, const Interval& i) { return x < i.end; }) -
      list.begin());
}

}  // namespace

// Both functions start with a binary search, so subtracting or intersecting a few intervals
// against a long list costs O(log n), not O(n).
std::vector<Interval> Subtract(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  if (a.empty()) return out;
  size_t j = FirstEndingAfter(b, a.front().start);
  for (const Interval& i : a) {
    core::model::TimeNs cursor = i.start;
    while (j < b.size() && b[j].end <= cursor) ++j;
    size_t k = j;
    while (k < b.size() && b[k].start < i.end) {
      if (b[k].start > cursor) out.push_back({cursor, b[k].start});
      cursor = std::max(cursor, b[k].end);
      ++k;
    }
    if (cursor < i.end) out.push_back({cursor, i.end});
  }
  return out;
}

std::vector<Interval> Intersect(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  if (a.empty() || b.empty()) return out;
  size_t i = FirstEndingAfter(a, b.front().start);
  size_t j = FirstEndingAfter(b, a.front().start);
  const core::model::TimeNs last = std::min(a.back().end, b.back().end);
  while (i < a.size() && j < b.size() && a[i].start < last && b[j].start < last) {
    core::model::TimeNs start = std::max(a[i].start, b[j].start);
    core::model::TimeNs end = std::min(a[i].end, b[j].end);
    if (start < end) out.push_back({start, end});
    if (a[i].end < b[j].end) ++i; else ++j;
  }
  return out;
}

std::vector<Interval> Clip(const std::vector<Interval>& a, core::model::TimeNs start,
                           core::model::TimeNs end) {
  std::vector<Interval> out;
  for (const Interval& i : a) {
    Interval c{std::max(i.start, start), std::min(i.end, end)};
    if (c.start < c.end) out.push_back(c);
  }
  return out;
}

core::model::DurationNs TotalLength(const std::vector<Interval>& intervals) {
  core::model::DurationNs total = 0;
  for (const Interval& i : intervals) total += i.Length();
  return total;
}

}  // namespace core::analysis
