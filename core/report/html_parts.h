// Small pieces of the HTML report shared by its section files (report_html.cpp,
// report_html_launch.cpp): table rows and cells, section headings, times from the trace start.
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/model/types.h"
#include "core/report/svg_chart.h"

namespace core::report {

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

inline std::string Section(const std::string& id, const std::string& title) {
  return fmt::format("<h2 id=\"{}\">{}</h2>\n", id, XmlEscape(title));
}

// `ns` as milliseconds after `start`.
inline std::string Ms(core::model::TimeNs ns, core::model::TimeNs start) {
  return fmt::format("{:.6f} ms", (ns - start) / 1e6);
}

}  // namespace core::report
