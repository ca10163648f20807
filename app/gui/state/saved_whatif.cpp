#include "app/gui/state/saved_whatif.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

namespace app::gui::state {
namespace {

// "NUMBER REST": a number, then the rest of the line (a name that may hold spaces).
template <typename T>
bool NumberThenText(const std::string& value, T& number, std::string& text) {
  std::istringstream in(value);
  if (!(in >> number)) return false;
  std::getline(in >> std::ws, text);
  return !text.empty();
}

template <typename T>
bool Number(const std::string& value, T& number) {
  std::istringstream in(value);
  return static_cast<bool>(in >> number) && (in >> std::ws).eof();
}

bool Factor(double f) { return std::isfinite(f) && f >= 0; }

}  // namespace

std::string WhatIfLines(const SavedWhatIf& q) {
  const core::replay::Edits& e = q.edits;
  if (e.Empty()) return "";
  std::string out = "whatif_label = " + q.label + "\n";
  // Factors with every digit a double has, so a typed factor comes back the same.
  for (const auto& [p, f] : e.scale) out += fmt::format("whatif_scale = {:.17g} {}\n", f, p);
  for (const auto& [n, f] : e.scale_queue) {
    out += fmt::format("whatif_scale_queue = {:.17g} {}\n", f, n);
  }
  for (int64_t w : e.remove_wait) out += fmt::format("whatif_remove_wait = {}\n", w);
  for (const auto& [a, b] : e.remove_waits) {
    out += fmt::format("whatif_remove_waits = {}\t{}\n", a, b);
  }
  for (const auto& c : e.remove_sync) out += "whatif_remove_sync = " + c + "\n";
  for (const auto& t : e.remove_cpu_waits) out += "whatif_remove_cpu_waits = " + t + "\n";
  for (int64_t w : e.remove_cpu_wait) out += fmt::format("whatif_remove_cpu_wait = {}\n", w);
  if (e.cpu_scale) out += fmt::format("whatif_cpu_scale = {:.17g}\n", *e.cpu_scale);
  if (e.launch_latency_ns) out += fmt::format("whatif_launch_latency = {}\n", *e.launch_latency_ns);
  for (const auto& [n, p] : e.priority) out += fmt::format("whatif_priority = {} {}\n", p, n);
  if (!e.fence_mode.empty()) out += "whatif_fence_mode = " + e.fence_mode + "\n";
  if (!e.preemption_granularity.empty()) {
    out += "whatif_preemption = " + e.preemption_granularity + "\n";
  }
  return out;
}

bool ReadWhatIfLine(const std::string& key, const std::string& value, SavedWhatIf& q,
                    bool& known) {
  core::replay::Edits& e = q.edits;
  known = true;
  if (key == "whatif_label") {
    q.label = value;
  } else if (key == "whatif_scale" || key == "whatif_scale_queue") {
    double f = 0;
    std::string name;
    if (!NumberThenText(value, f, name) || !Factor(f)) return false;
    (key == "whatif_scale" ? e.scale : e.scale_queue).push_back({name, f});
  } else if (key == "whatif_remove_wait" || key == "whatif_remove_cpu_wait") {
    int64_t id = 0;
    if (!Number(value, id)) return false;
    (key == "whatif_remove_wait" ? e.remove_wait : e.remove_cpu_wait).push_back(id);
  } else if (key == "whatif_remove_waits") {
    const size_t tab = value.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == value.size()) return false;
    e.remove_waits.push_back({value.substr(0, tab), value.substr(tab + 1)});
  } else if (key == "whatif_remove_sync" || key == "whatif_remove_cpu_waits") {
    if (value.empty()) return false;
    (key == "whatif_remove_sync" ? e.remove_sync : e.remove_cpu_waits).push_back(value);
  } else if (key == "whatif_cpu_scale") {
    double f = 0;
    if (!Number(value, f) || !Factor(f)) return false;
    e.cpu_scale = f;
  } else if (key == "whatif_launch_latency") {
    int64_t ns = 0;
    if (!Number(value, ns) || ns < 0) return false;
    e.launch_latency_ns = ns;
  } else if (key == "whatif_priority") {
    int32_t p = 0;
    std::string name;
    if (!NumberThenText(value, p, name)) return false;
    e.priority.push_back({name, p});
  } else if (key == "whatif_fence_mode") {
    e.fence_mode = value;
  } else if (key == "whatif_preemption") {
    e.preemption_granularity = value;
  } else {
    known = false;
  }
  return true;
}

}  // namespace app::gui::state
