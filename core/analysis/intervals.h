// Time interval helpers shared by the analyses: unions, intersections and subtraction of sorted,
// disjoint interval lists. Intervals are half-open [start, end) in TimeNs; empty ones are dropped.
#pragma once

#include <vector>

#include "core/model/types.h"

namespace core::analysis {

struct Interval {
  core::model::TimeNs start = 0;
  core::model::TimeNs end = 0;
  core::model::DurationNs Length() const { return end > start ? end - start : 0; }
};

// Sorted, disjoint union of any intervals.
std::vector<Interval> UnionOf(std::vector<Interval> intervals);
// `a` minus `b`; both sorted and disjoint, as is the result.
std::vector<Interval> Subtract(const std::vector<Interval>& a, const std::vector<Interval>& b);
// Intersection of two sorted, disjoint lists.
std::vector<Interval> Intersect(const std::vector<Interval>& a, const std::vector<Interval>& b);
// Clips every interval to [start, end).
std::vector<Interval> Clip(const std::vector<Interval>& a, core::model::TimeNs start,
                           core::model::TimeNs end);
core::model::DurationNs TotalLength(const std::vector<Interval>& intervals);

}  // namespace core::analysis
