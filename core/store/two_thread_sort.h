// Sorting on both cores for big sorts (the JSON importer's events and records by time, the
// loader's rows by time): each
// half is sorted on its own thread, then the halves are merged from both ends at once (one
// thread fills the front of the result, the other the back). Only for orders where no two
// items are equal (the keys end in an index), so the result is the one std::sort would give.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace core::store {

template <typename T, typename Less>
void SortOnTwoThreads(std::vector<T>& items, Less less) {
  const size_t n = items.size();
  if (n < (size_t{1} << 16)) {  // below this the second thread costs more than it saves
    std::sort(items.begin(), items.end(), less);
    return;
  }
  const size_t half = n / 2;
  const T* const begin = items.data();
  const T* const middle = begin + half;
  const T* const end = begin + n;
  std::thread front([&] { std::sort(items.begin(), items.begin() + half, less); });
  std::sort(items.begin() + half, items.end(), less);
  front.join();
  std::vector<T> merged(n);
  // The smallest `half` items, front to back.
  front = std::thread([&] {
    const T* a = begin;
    const T* b = middle;
    for (size_t k = 0; k < half; ++k) {
      merged[k] = (b == end || (a != middle && less(*a, *b))) ? *a++ : *b++;
    }
  });
  // The largest n - half, back to front.
  const T* a = middle;
  const T* b = end;
  for (size_t k = n; k-- > half;) {
    merged[k] = (b == middle || (a != begin && less(*(b - 1), *(a - 1)))) ? *--a : *--b;
  }
  front.join();
  items.swap(merged);
}

}  // namespace core::store
