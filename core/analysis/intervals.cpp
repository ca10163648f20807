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

std::vector<Interval> Subtract(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  size_t j = 0;
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
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
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
