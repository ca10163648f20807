// Small pieces of the HTML report shared by its section files (report_html.cpp,
// report_html_launch.cpp): table rows, section headings, times from the trace start.
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

inline std::string Section(const std::string& id, const std::string& title) {
  return fmt::format("<h2 id=\"{}\">{}</h2>\n", id, XmlEscape(title));
}

// `ns` as milliseconds after `start`.
inline std::string Ms(core::model::TimeNs ns, core::model::TimeNs start) {
  return fmt::format("{:.6f} ms", (ns - start) / 1e6);
}

}  // namespace core::report
