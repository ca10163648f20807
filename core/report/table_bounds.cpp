#include "core/report/table_bounds.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace core::report {

BoundedRows TopRows(size_t count, const std::function<double(size_t)>& value, size_t limit,
                    bool keep_order) {
  std::vector<size_t> order(count);
  std::iota(order.begin(), order.end(), size_t{0});
  std::vector<double> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = value(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] > v[b]; });
  BoundedRows out;
  const size_t shown = std::min(count, limit);
  out.shown.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown));
  out.more = count - shown;
  for (size_t k = shown; k < count; ++k) out.more_value += v[order[k]];
  if (keep_order) std::sort(out.shown.begin(), out.shown.end());
  return out;
}

BoundedRows FirstRows(size_t count, const std::function<double(size_t)>& value, size_t limit) {
  BoundedRows out;
  const size_t shown = std::min(count, limit);
  for (size_t i = 0; i < shown; ++i) out.shown.push_back(i);
  out.more = count - shown;
  for (size_t i = shown; i < count; ++i) out.more_value += value(i);
  return out;
}

std::string Thousands(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string MoreLine(size_t more, const std::string& one, const std::string& many,
                     const std::string& in_all) {
  if (more == 0) return "";
  std::string out = fmt::format("and {} more", Thousands(more));
  const std::string& noun = more == 1 ? one : many;
  if (!noun.empty()) out += " " + noun;
  if (!in_all.empty()) out += ", " + in_all + " in all";
  return out;
}

std::string ListCell(const std::vector<std::string>& shown, size_t more,
                     const std::string& in_all) {
  std::string out;
  for (const std::string& item : shown) out += (out.empty() ? "" : "; ") + item;
  if (const std::string rest = MoreLine(more, "", "", in_all); !rest.empty()) {
    out += (out.empty() ? "" : "; ") + rest;
  }
  return out;
}

}  // namespace core::report
