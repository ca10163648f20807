// Level of detail for the timeline: turns a lane of time-sorted spans (or instants) into the few
// draw items a row of pixels can show. The cost is proportional to pixels, not to events.
//
// Why it is cheap (the Tracy PreprocessZoneLevel idea)
//   A lane's spans never overlap, so both their starts and their ends are sorted. The visible
//   ones are found with two binary searches. A span narrower than `min_width_px` starts a folded
//   block; the block then swallows, with one lower_bound on the ends, every span that ends within
//   `min_width_px` of the block's end, and keeps going while the next span is also narrow and
//   starts within `min_width_px`. Each step moves the block's end right by at least
//   `min_width_px` of time, so a lane costs O(pixels / min_width_px * log n) however many events
//   it holds.
//
//            view_start                                               view_end
//   spans     | [==a==]  |||||||||| [====b====] || |  |||||||  [=c=]  |
//   draw      | [==a==]  [folded 10] [====b====] [fold 9      ] [=c=]  |
//
// Every span in the view is accounted for exactly once: the counts of the draw items add up to
// the number of visible spans (tests/ui/lod_test.cpp checks this).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/store/gallop_search.h"

namespace app::gui::timeline {

using core::model::TimeNs;

// The mapping from time to pixels of one frame's timeline area.
struct LodView {
  TimeNs start = 0;           // time at x = 0
  TimeNs end = 0;             // time at x = width
  double px_per_ns = 0.0;     // width / (end - start)
  float min_width_px = 3.0f;  // narrower spans fold (about 3 px * DPI scale)
  float max_fold_px = 40.0f;  // a folded block stops growing here, so dense stretches show as
                              // a row of blocks, each with its own count

  double ToPx(TimeNs t) const { return static_cast<double>(t - start) * px_per_ns; }
  TimeNs MinWidthNs() const {
    TimeNs ns = static_cast<TimeNs>(min_width_px / px_per_ns);
    return ns > 0 ? ns : 1;
  }
};

LodView MakeLodView(TimeNs start, TimeNs end, float width_px, float min_width_px);

using core::store::GallopFirstNotLess;

// One item to draw. count == 1: the span `first`. count > 1: a folded block standing for spans
// [first, first + count) of the lane.
struct DrawSpan {
  float x0 = 0;  // pixels from the left of the timeline area (may be < 0 or > width: clip)
  float x1 = 0;
  uint32_t first = 0;
  uint32_t count = 0;
};

// A point item (interrupt tick, marker): count > 1 folds instants [first, first + count).
struct DrawMark {
  float x = 0;
  uint32_t first = 0;
  uint32_t count = 0;
};

// Spans and marks may provide a faster search (Lane / MarkLane do, over the block headers of
// their packed columns): spans.FirstEndAtOrAfter(lo, t), marks.FirstAtOrAfter(lo, t).
template <typename Spans>
concept HasEndSearch = requires(const Spans& s, size_t lo, TimeNs t) {
  { s.FirstEndAtOrAfter(lo, t) } -> std::convertible_to<size_t>;
};
template <typename Marks>
concept HasTimeSearch = requires(const Marks& m, size_t lo, TimeNs t) {
  { m.FirstAtOrAfter(lo, t) } -> std::convertible_to<size_t>;
};

// Appends the draw items of `spans` visible in the view to `out`.
// Spans: size(), Start(i), End(i) with non-overlapping spans sorted by start (so also by end).
template <typename Spans>
void FoldSpans(const Spans& spans, const LodView& view, std::vector<DrawSpan>& out) {
  const size_t n = spans.size();
  if (n == 0 || view.end <= view.start) return;
  const TimeNs min_ns = view.MinWidthNs();
  // First span ending at or after the view start; first span starting after the view end.
  auto first_ending_at_or_after = [&](size_t lo, TimeNs t) -> size_t {
    if constexpr (HasEndSearch<Spans>) {
      return spans.FirstEndAtOrAfter(lo, t);
    } else {
      return GallopFirstNotLess(lo, n, [&](size_t i) { return spans.End(i) < t; });
    }
  };
  size_t last = n;
  {
    size_t lo = 0, hi = n;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (spans.Start(mid) <= view.end)
        lo = mid + 1;
      else
        hi = mid;
    }
    last = lo;
  }
  size_t i = first_ending_at_or_after(0, view.start);
  while (i < last) {
    const TimeNs s = spans.Start(i);
    const TimeNs e = spans.End(i);
    if (e - s >= min_ns) {
      out.push_back({static_cast<float>(view.ToPx(s)), static_cast<float>(view.ToPx(e)),
                     static_cast<uint32_t>(i), 1});
      ++i;
      continue;
    }
    const size_t fold_first = i;
    TimeNs fold_end = e;
    ++i;
    while (i < last && view.ToPx(fold_end) - view.ToPx(s) < view.max_fold_px) {
      // Everything ending within min_ns of the block's end joins it (it is sub-pixel there).
      size_t j = std::min(first_ending_at_or_after(i, fold_end + min_ns), last);
      if (j > i) {
        fold_end = std::max(fold_end, spans.End(j - 1));
        i = j;
        if (i >= last) break;
      }
      const TimeNs ns = spans.Start(i);
      const TimeNs ne = spans.End(i);
      if (ne - ns >= min_ns || ns - fold_end > min_ns) break;
      fold_end = ne;
      ++i;
    }
    const uint32_t count = static_cast<uint32_t>(i - fold_first);
    float x0 = static_cast<float>(view.ToPx(s));
    float x1 = static_cast<float>(view.ToPx(fold_end));
    if (x1 - x0 < view.min_width_px) x1 = x0 + view.min_width_px;
    out.push_back({x0, x1, static_cast<uint32_t>(fold_first), count});
  }
}

// Appends the ticks of sorted instants `ts` visible in the view; instants closer than
// min_width_px fold into one tick with a count.
void FoldMarks(const std::vector<TimeNs>& ts, const LodView& view, std::vector<DrawMark>& out);

// Same, for instants given through an accessor (Marks: size(), Time(i), sorted by time).
template <typename Marks>
void FoldMarksOf(const Marks& marks, const LodView& view, std::vector<DrawMark>& out) {
  const size_t n = marks.size();
  if (n == 0 || view.end <= view.start) return;
  const TimeNs min_ns = view.MinWidthNs();
  auto lower = [&](size_t lo, TimeNs t) -> size_t {
    if constexpr (HasTimeSearch<Marks>) {
      return marks.FirstAtOrAfter(lo, t);
    } else {
      return GallopFirstNotLess(lo, n, [&](size_t i) { return marks.Time(i) < t; });
    }
  };
  size_t i = lower(0, view.start);
  const size_t last = lower(i, view.end + 1);
  while (i < last) {
    const TimeNs t = marks.Time(i);
    size_t j = std::min(lower(i + 1, t + min_ns), last);
    out.push_back(
        {static_cast<float>(view.ToPx(t)), static_cast<uint32_t>(i), static_cast<uint32_t>(j - i)});
    i = j;
  }
}

// Number of instants per bucket of `bucket_px` pixels across the view (the interrupt rate
// curve): buckets[k] counts instants in [start + k * bucket, start + (k + 1) * bucket).
template <typename Marks>
void CountPerBucket(const Marks& marks, const LodView& view, float width_px, float bucket_px,
                    std::vector<uint32_t>& buckets) {
  buckets.clear();
  const size_t n = marks.size();
  if (width_px <= 0 || bucket_px <= 0 || view.end <= view.start) return;
  const size_t count = static_cast<size_t>(width_px / bucket_px) + 1;
  buckets.resize(count, 0);
  auto lower = [&](size_t lo, TimeNs t) -> size_t {
    if constexpr (HasTimeSearch<Marks>) {
      return marks.FirstAtOrAfter(lo, t);
    } else {
      return GallopFirstNotLess(lo, n, [&](size_t i) { return marks.Time(i) < t; });
    }
  };
  const double ns_per_bucket = bucket_px / view.px_per_ns;
  size_t from = lower(0, view.start);
  for (size_t k = 0; k < count; ++k) {
    TimeNs bucket_end = view.start + static_cast<TimeNs>((k + 1) * ns_per_bucket);
    size_t to = lower(from, bucket_end);
    buckets[k] = static_cast<uint32_t>(to - from);
    from = to;
  }
}

}  // namespace app::gui::timeline
