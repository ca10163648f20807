// Inline SVG charts for the self-contained HTML reports (no scripts, no network). Each function
// returns one <svg> element sized in CSS pixels. Colours are chosen by the caller (report
// presentation), passed as CSS colour strings.
#pragma once

#include <string>
#include <vector>

namespace core::report {

struct BarSeries {
  std::string label;
  std::string colour;
  std::vector<double> values;  // one per category
};

// Vertical bars per category, one bar per series side by side. `categories` label the x axis.
std::string SvgBarChart(const std::string& title, const std::vector<std::string>& categories,
                        const std::vector<BarSeries>& series, const std::string& y_unit,
                        int width = 720, int height = 260);

// Lines over a shared numeric x axis. Each series may be drawn on the right axis.
struct LineSeries {
  std::string label;
  std::string colour;
  std::vector<double> values;  // one per x
  bool right_axis = false;
};
std::string SvgLineChart(const std::string& title, const std::vector<double>& x,
                         const std::string& x_unit, const std::vector<LineSeries>& series,
                         const std::string& left_unit, const std::string& right_unit,
                         int width = 720, int height = 260);

// Horizontal stacked bars: one row per label, segments in the given colours.
struct StackedRow {
  std::string label;
  std::vector<double> values;  // same order as `segment_labels`
};
std::string SvgStackedBars(const std::string& title, const std::vector<std::string>& segment_labels,
                           const std::vector<std::string>& colours,
                           const std::vector<StackedRow>& rows, const std::string& unit,
                           int width = 720);

// XML/HTML text escaping.
std::string XmlEscape(const std::string& text);
// Short human form of a duration in ns: "12.3 ms".
std::string FormatDuration(double ns);
// A time (ns from the capture's start) as FormatDuration writes it, or to more decimals where
// telling apart times `step` ns apart needs them (two significant digits of the step): 355.12 ms
// with a step of 128 us, where FormatDuration's three digits say 355 ms for every tick of a
// 0.5 ms window.
std::string FormatTimeAt(double ns, double step);
// `text` cut to at most `max_bytes` (at a UTF-8 character boundary) plus "\u2026" when longer:
// templated CUDA kernel names reach thousands of characters.
std::string ShortenName(const std::string& text, size_t max_bytes = 160);

}  // namespace core::report
