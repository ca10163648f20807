#include "app/gui/state/saved_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "app/gui/state/text_file.h"

namespace app::gui::state {
namespace {

template <typename T>
std::string Join(const std::vector<T>& values) {
  std::string out;
  for (const auto& v : values) out += fmt::format("{}{}", out.empty() ? "" : " ", v);
  return out;
}

template <typename T>
bool ParseList(const std::string& text, std::vector<T>& out) {
  std::istringstream in(text);
  out.clear();
  long long v = 0;
  while (in >> v) out.push_back(static_cast<T>(v));
  return in.eof();
}

bool ParsePair(const std::string& text, TimeNs& a, TimeNs& b) {
  std::istringstream in(text);
  long long x = 0, y = 0;
  if (!(in >> x >> y)) return false;
  a = x;
  b = y;
  return true;
}

bool ParseCount(const std::string& text, long long& out) {
  std::istringstream in(text);
  return static_cast<bool>(in >> out) && out >= 0;
}

// A permutation of 0..n-1: anything else would index past the model's tracks.
bool IsPermutation(std::vector<int> order, size_t n) {
  if (order.size() != n) return false;
  std::sort(order.begin(), order.end());
  for (size_t i = 0; i < n; ++i) {
    if (order[i] != static_cast<int>(i)) return false;
  }
  return true;
}

}  // namespace

std::filesystem::path SavedViewPath(const std::filesystem::path& views_dir,
                                    const std::filesystem::path& trace) {
  std::error_code ec;
  auto absolute = std::filesystem::absolute(trace, ec);
  size_t hash = std::hash<std::string>{}((ec ? trace : absolute).string());
  return views_dir / fmt::format("{}-{:016x}.view", trace.filename().string(), hash);
}

bool SaveView(const ViewState& view, const std::filesystem::path& trace,
              const std::filesystem::path& file) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  std::string out = "# fencescope view of " + trace.string() + "\n";
  out += fmt::format("trace = {} {}\n", view.trace.start, view.trace.end);
  out += fmt::format("tracks = {}\n", view.track_order.size());
  out += fmt::format("groups = {}\n", view.group_collapsed.size());
  out += fmt::format("visible = {} {}\n", view.visible.start, view.visible.end);
  out += fmt::format("range = {} {}\n", view.selected_range.start, view.selected_range.end);
  for (const auto& mark : view.bookmarks) {
    out += fmt::format("bookmark = {} {}\n", mark.ts, mark.label);
  }
  out += "order = " + Join(view.track_order) + "\n";
  out += "hidden = " + Join(view.track_hidden) + "\n";
  out += "collapsed = " + Join(view.group_collapsed) + "\n";
  out += "expanded = " + Join(view.track_expanded) + "\n";
  out += WhatIfLines(view.whatif);
  return WriteTextFileAtomically(file, out);
}

bool LoadView(ViewState& view, const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return false;
  ViewState saved = view;
  saved.bookmarks.clear();
  saved.whatif = {};
  TimeRange trace;
  long long tracks = -1, groups = -1;
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with('#')) continue;
    size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    std::string value = line.substr(eq + 3);
    bool ok = true;
    if (key == "trace") {
      ok = ParsePair(value, trace.start, trace.end);
    } else if (key == "tracks") {
      ok = ParseCount(value, tracks);
    } else if (key == "groups") {
      ok = ParseCount(value, groups);
    } else if (key == "visible") {
      ok = ParsePair(value, saved.visible.start, saved.visible.end) && saved.visible.Valid();
    } else if (key == "range") {
      ok = ParsePair(value, saved.selected_range.start, saved.selected_range.end);
    } else if (key == "bookmark") {
      std::istringstream fields(value);
      long long ts = 0;
      ok = static_cast<bool>(fields >> ts);
      std::string label;
      std::getline(fields >> std::ws, label);
      saved.bookmarks.push_back({ts, label});
    } else if (key == "order") {
      ok = ParseList(value, saved.track_order);
    } else if (key == "hidden") {
      ok = ParseList(value, saved.track_hidden);
    } else if (key == "collapsed") {
      ok = ParseList(value, saved.group_collapsed);
    } else if (key == "expanded") {
      ok = ParseList(value, saved.track_expanded);
    } else {
      bool known = false;
      ok = ReadWhatIfLine(key, value, saved.whatif, known);
    }
    if (!ok) return false;
  }
  // Only the trace it was saved from: same span, same track tree.
  const size_t n_tracks = view.track_order.size(), n_groups = view.group_collapsed.size();
  if (trace.start != view.trace.start || trace.end != view.trace.end ||
      tracks != static_cast<long long>(n_tracks) || groups != static_cast<long long>(n_groups) ||
      !IsPermutation(saved.track_order, n_tracks) || saved.track_hidden.size() != n_tracks ||
      saved.track_expanded.size() != n_tracks || saved.group_collapsed.size() != n_groups) {
    return false;
  }
  saved.selection = {};
  ++saved.layout_generation;
  view = std::move(saved);
  return true;
}

}  // namespace app::gui::state
