// GallopFirstNotLess: a search over a range where a predicate is true then false, that looks
// near its starting point first. Used where a search usually moves a little from its last
// answer (the timeline's level of detail, sorted packed columns searched from a known index).
#pragma once

#include <algorithm>
#include <cstddef>

namespace core::store {

// First index in [lo, hi) for which less(i) is false (less must be true then false along the
// range), hi when there is none. Gallops out from lo before bisecting, so it touches memory near
// lo first.
template <typename Less>
size_t GallopFirstNotLess(size_t lo, size_t hi, Less less) {
  if (lo >= hi || !less(lo)) return lo;
  size_t known_less = lo;
  size_t step = 1;
  while (lo + step < hi && less(lo + step)) {
    known_less = lo + step;
    step *= 2;
  }
  size_t a = known_less + 1, b = std::min(lo + step, hi);
  while (a < b) {
    size_t mid = a + (b - a) / 2;
    if (less(mid))
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

}  // namespace core::store
