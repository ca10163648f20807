#include "core/report/svg_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace core::report {
namespace {

constexpr int kLeft = 64;
constexpr int kRight = 64;
constexpr int kTop = 28;
constexpr int kBottom = 48;

double NiceMax(double v) {
  if (v <= 0) return 1;
  double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (v <= m * p) return m * p;
  }
  return 10 * p;
}

std::string AxisLabel(double v, const std::string& unit) {
  if (unit == "ns") return FormatDuration(v);
  if (std::fabs(v) >= 1e6) return fmt::format("{:.3g}M{}", v / 1e6, unit.empty() ? "" : " " + unit);
  if (std::fabs(v) >= 1e3) return fmt::format("{:.3g}k{}", v / 1e3, unit.empty() ? "" : " " + unit);
  return fmt::format("{:.3g}{}", v, unit.empty() ? "" : " " + unit);
}

using LegendEntries = std::vector<std::pair<std::string, std::string>>;
constexpr int kLegendLine = 16;

int LegendEntryWidth(const std::string& label) { return 24 + static_cast<int>(label.size()) * 7; }

// Entries laid out left to right from x, wrapping to a new line rather than past max_x (a long
// legend ran off the chart). LegendLines: how many lines that takes.
int LegendLines(const LegendEntries& entries, int x, int max_x) {
  int lines = 1;
  for (int at = x; const auto& entry : entries) {
    const int w = LegendEntryWidth(entry.first);
    if (at > x && at + w > max_x) {
      ++lines;
      at = x;
    }
    at += w;
  }
  return lines;
}

std::string Legend(const LegendEntries& entries, int x, int y, int max_x) {
  std::string out;
  const int x0 = x;
  for (const auto& [label, colour] : entries) {
    const int w = LegendEntryWidth(label);
    if (x > x0 && x + w > max_x) {
      x = x0;
      y += kLegendLine;
    }
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>"
                       "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>",
                       x, y - 9, colour, x + 14, y, XmlEscape(label));
    x += w;
  }
  return out;
}

// The height of a chart whose legend, at the bottom, takes more than one line.
int WithLegend(int height, const LegendEntries& legend, int x, int width) {
  return height + (LegendLines(legend, x, width) - 1) * kLegendLine;
}

std::string Open(int width, int height, const std::string& title) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" role=\"img\">"
      "<title>{2}</title><text x=\"{3}\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{2}</text>",
      width, height, XmlEscape(title), kLeft);
}

std::string YAxis(double max, int width, int height, const std::string& unit, bool right) {
  std::string out;
  int plot_h = height - kTop - kBottom;
  for (int i = 0; i <= 4; ++i) {
    double v = max * i / 4;
    int y = kTop + plot_h - plot_h * i / 4;
    if (!right) {
      out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>", kLeft,
                         y, width - kRight, y);
      out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">{}</text>",
                         kLeft - 4, y + 3, XmlEscape(AxisLabel(v, unit)));
    } else {
      out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\">{}</text>", width - kRight + 4,
                         y + 3, XmlEscape(AxisLabel(v, unit)));
    }
  }
  return out;
}

}  // namespace

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string ShortenName(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "\u2026";
}

std::string FormatDuration(double ns) {
  double a = std::fabs(ns);
  if (a >= 1e9) return fmt::format("{:.3g} s", ns / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g} ms", ns / 1e6);
  if (a >= 1e3) return fmt::format("{:.3g} us", ns / 1e3);
  return fmt::format("{:.3g} ns", ns);
}

std::string FormatTimeAt(double ns, double step) {
  const double a = std::fabs(ns);
  const double unit = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
  const char* name = a >= 1e9 ? "s" : a >= 1e6 ? "ms" : a >= 1e3 ? "us" : "ns";
  // FormatDuration's three significant digits where they tell the times apart
  if (step <= 0 || a == 0) return FormatDuration(ns);
  const int own = std::max(0, 2 - static_cast<int>(std::floor(std::log10(a / unit))));
  const int needed = std::clamp(1 - static_cast<int>(std::floor(std::log10(step / unit))), 0, 6);
  if (needed <= own) return FormatDuration(ns);
  return fmt::format("{:.{}f} {}", ns / unit, needed, name);
}

std::string SvgBarChart(const std::string& title, const std::vector<std::string>& categories,
                        const std::vector<BarSeries>& series, const std::string& y_unit,
                        int width, int height) {
  double max = 0;
  for (const auto& s : series) {
    for (double v : s.values) max = std::max(max, v);
  }
  max = NiceMax(max);
  LegendEntries legend;
  for (const auto& s : series) legend.emplace_back(s.label, s.colour);
  std::string out = Open(width, WithLegend(height, legend, kLeft, width), title) +
                    YAxis(max, width, height, y_unit, false);
  int plot_w = width - kLeft - kRight;
  int plot_h = height - kTop - kBottom;
  size_t n = std::max<size_t>(categories.size(), 1);
  double slot = static_cast<double>(plot_w) / static_cast<double>(n);
  double bar = std::max(1.0, slot * 0.8 / std::max<size_t>(series.size(), 1));
  // at most about ten labels, each at most one slot wide
  size_t label_every = std::max<size_t>(1, (n + 9) / 10);
  for (size_t c = 0; c < categories.size(); ++c) {
    for (size_t s = 0; s < series.size(); ++s) {
      double v = c < series[s].values.size() ? series[s].values[c] : 0;
      double h = plot_h * v / max;
      double x = kLeft + slot * c + slot * 0.1 + bar * s;
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
          "<title>{}: {} = {}</title></rect>",
          x, kTop + plot_h - h, bar, h, series[s].colour, XmlEscape(series[s].label),
          XmlEscape(categories[c]), XmlEscape(AxisLabel(v, y_unit)));
    }
    if (c % label_every == 0) {
      out += fmt::format(
          "<text x=\"{:.1f}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
          kLeft + slot * (c + 0.5), kTop + plot_h + 14, XmlEscape(categories[c]));
    }
  }
  out += Legend(legend, kLeft, height - 8, width);
  out += "</svg>";
  return out;
}

std::string SvgLineChart(const std::string& title, const std::vector<double>& x,
                         const std::string& x_unit, const std::vector<LineSeries>& series,
                         const std::string& left_unit, const std::string& right_unit, int width,
                         int height) {
  double left_max = 0, right_max = 0;
  for (const auto& s : series) {
    for (double v : s.values) (s.right_axis ? right_max : left_max) = std::max(s.right_axis ? right_max : left_max, v);
  }
  left_max = NiceMax(left_max);
  right_max = NiceMax(right_max);
  bool has_right = std::any_of(series.begin(), series.end(), [](const LineSeries& s) { return s.right_axis; });
  LegendEntries legend;
  for (const auto& s : series) legend.emplace_back(s.label, s.colour);
  std::string out = Open(width, WithLegend(height, legend, kLeft, width), title) +
                    YAxis(left_max, width, height, left_unit, false);
  if (has_right) out += YAxis(right_max, width, height, right_unit, true);
  int plot_w = width - kLeft - kRight;
  int plot_h = height - kTop - kBottom;
  double x0 = x.empty() ? 0 : x.front();
  double x1 = x.empty() ? 1 : std::max(x.back(), x0 + 1e-9);
  auto px = [&](double v) { return kLeft + plot_w * (v - x0) / (x1 - x0); };
  for (const auto& s : series) {
    double max = s.right_axis ? right_max : left_max;
    std::string points;
    for (size_t i = 0; i < x.size() && i < s.values.size(); ++i) {
      points += fmt::format("{:.1f},{:.1f} ", px(x[i]), kTop + plot_h - plot_h * s.values[i] / max);
    }
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>",
                       s.colour, points);
    if (x.size() <= 40) {
      for (size_t i = 0; i < x.size() && i < s.values.size(); ++i) {
        out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"/>", px(x[i]),
                           kTop + plot_h - plot_h * s.values[i] / max, s.colour);
      }
    }
  }
  // whole-number x values without a unit (passes, indices) are labelled with themselves, not
  // fractions; x values with a unit (times in ns) always get labels in that unit
  bool whole = x_unit.empty() && !x.empty() &&
               std::all_of(x.begin(), x.end(), [](double v) { return v == std::floor(v); });
  std::vector<double> ticks;
  if (whole) {
    size_t every = std::max<size_t>(1, (x.size() + 7) / 8);
    for (size_t i = 0; i < x.size(); i += every) ticks.push_back(x[i]);
  } else {
    for (int i = 0; i <= 4; ++i) ticks.push_back(x0 + (x1 - x0) * i / 4);
  }
  for (double v : ticks) {
    std::string label = whole ? fmt::format("{}", static_cast<int64_t>(v)) : AxisLabel(v, x_unit);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
                       px(v), kTop + plot_h + 14, XmlEscape(label));
  }
  out += Legend(legend, kLeft, height - 8, width);
  out += "</svg>";
  return out;
}

std::string SvgStackedBars(const std::string& title, const std::vector<std::string>& segment_labels,
                           const std::vector<std::string>& colours,
                           const std::vector<StackedRow>& rows, const std::string& unit,
                           int width) {
  constexpr int kRow = 22;
  constexpr int kLabel = 160;
  int height = kTop + static_cast<int>(rows.size()) * kRow + 30;
  LegendEntries legend;
  for (size_t s = 0; s < segment_labels.size() && s < colours.size(); ++s) {
    legend.emplace_back(segment_labels[s], colours[s]);
  }
  double max = 0;
  for (const auto& r : rows) {
    double sum = 0;
    for (double v : r.values) sum += v;
    max = std::max(max, sum);
  }
  if (max <= 0) max = 1;
  std::string out = Open(width, WithLegend(height, legend, kLabel, width), title);
  int plot_w = width - kLabel - 20;
  for (size_t i = 0; i < rows.size(); ++i) {
    int y = kTop + static_cast<int>(i) * kRow;
    out += fmt::format("<text x=\"4\" y=\"{}\" font-size=\"11\">{}</text>", y + 14,
                       XmlEscape(rows[i].label));
    double x = kLabel;
    for (size_t s = 0; s < rows[i].values.size() && s < colours.size(); ++s) {
      double w = plot_w * rows[i].values[s] / max;
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\">"
          "<title>{}: {}</title></rect>",
          x, y + 3, w, kRow - 6, colours[s], XmlEscape(segment_labels[s]),
          XmlEscape(AxisLabel(rows[i].values[s], unit)));
      x += w;
    }
  }
  out += Legend(legend, kLabel, height - 8, width);
  out += "</svg>";
  return out;
}

}  // namespace core::report
