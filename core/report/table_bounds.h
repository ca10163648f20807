// How the HTML and Markdown reports stay readable at any scale: a table shows at most
// kTableRows rows (those with the most time, or the first ones where the order is the point,
// e.g. time order) and one line for the rest ("and 5,980 more fences, 12.4 ms in all"); a cell
// that lists items lists at most kCellItems. A capture with 6,000 CUDA events gave a per-fence
// table of 6,000 rows. The JSON report keeps every row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace core::report {

constexpr size_t kTableRows = 20;
constexpr size_t kCellItems = 5;

struct BoundedRows {
  std::vector<size_t> shown;  // indices of the rows shown, in the order to show them
  size_t more = 0;            // rows left out
  double more_value = 0;      // their values added up (e.g. their time)
};

// Of `count` rows, the `limit` with the largest value(i), largest first (ties: the earlier row
// first); with keep_order, those rows in their own order (per-queue tables keep queue order).
BoundedRows TopRows(size_t count, const std::function<double(size_t)>& value,
                    size_t limit = kTableRows, bool keep_order = false);
// The first `limit` rows, for tables whose order is the point (findings in time order).
BoundedRows FirstRows(size_t count, const std::function<double(size_t)>& value,
                      size_t limit = kTableRows);

// TopRows over the items of `items` that `keep` accepts, as pointers into `items`.
template <typename T>
struct Bounded {
  std::vector<const T*> shown;
  size_t more = 0;
  double more_value = 0;
};
template <typename T, typename Keep, typename Value>
Bounded<T> TopOf(const std::vector<T>& items, Keep keep, Value value, size_t limit = kTableRows,
                 bool keep_order = false) {
  std::vector<const T*> kept;
  for (const T& item : items) {
    if (keep(item)) kept.push_back(&item);
  }
  const BoundedRows rows = TopRows(
      kept.size(), [&](size_t i) { return static_cast<double>(value(*kept[i])); }, limit,
      keep_order);
  Bounded<T> out{{}, rows.more, rows.more_value};
  for (size_t i : rows.shown) out.shown.push_back(kept[i]);
  return out;
}

// 5980 -> "5,980".
std::string Thousands(uint64_t n);
// "and 5,980 more fences, 12.4 ms in all" ("and 1 more fence, ..."; without `in_all`, no
// ", ... in all"); "" when nothing was left out.
std::string MoreLine(size_t more, const std::string& one, const std::string& many,
                     const std::string& in_all = "");

// A list cell: the texts of the items shown joined by "; ", then the more line ("and 3 more,
// 1.2 ms in all"), "" when there are no items.
std::string ListCell(const std::vector<std::string>& shown, size_t more,
                     const std::string& in_all = "");

}  // namespace core::report
