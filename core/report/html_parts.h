// Small pieces of the HTML report shared by its section files (report_html.cpp,
// report_html_launch.cpp, report_html_timeline.cpp): colours, table rows and cells, the line
// for the rows a bounded table leaves out, section headings, times from the trace start.
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/model/types.h"
#include "core/report/svg_chart.h"

namespace core::report {

// The colours of the figures' parts, the same in every chart (presentation only).
inline constexpr const char* kBusy = "#3b7dd8";
inline constexpr const char* kWaiting = "#f0a030";
inline constexpr const char* kIdle = "#d8d8d8";
inline constexpr const char* kMissing = "#d03030";
inline constexpr const char* kPath = "#7a2ea0";
inline constexpr const char* kPreempted = "#8fbf60";

// One table row; every cell is escaped.
inline std::string Row(const std::vector<std::string>& cells, bool header = false) {
  std::string out = "<tr>";
  const char* open = header ? "<th>" : "<td>";
  const char* close = header ? "</th>" : "</td>";
  for (const auto& c : cells) out += open + XmlEscape(c) + close;
  return out + "</tr>\n";
}

// One cell; `css_class` (e.g. "name": wraps long kernel names) when not empty.
inline std::string Cell(const std::string& text, const std::string& css_class = "") {
  const std::string open = css_class.empty() ? "<td>" : "<td class=\"" + css_class + "\">";
  return open + XmlEscape(text) + "</td>";
}

// A packet-name cell: long names shortened, the whole name as the tooltip.
inline std::string NameCell(const std::string& name) {
  const std::string shown = ShortenName(name);
  if (shown.size() == name.size()) return Cell(name, "name");
  return "<td class=\"name\" title=\"" + XmlEscape(name) + "\">" + XmlEscape(shown) + "</td>";
}

// The line under a bounded table for the rows it leaves out (table_bounds.h: "and 5,980 more
// fences, 12.4 ms in all"); "" when it leaves none out.
inline std::string MoreParagraph(const std::string& line) {
  return line.empty() ? std::string() : "<p class=\"more\">" + XmlEscape(line) + ".</p>\n";
}

inline std::string Section(const std::string& id, const std::string& title) {
  return fmt::format("<h2 id=\"{}\">{}</h2>\n", id, XmlEscape(title));
}

// `ns` as milliseconds after `start`.
inline std::string Ms(core::model::TimeNs ns, core::model::TimeNs start) {
  return fmt::format("{:.6f} ms", (ns - start) / 1e6);
}

}  // namespace core::report
