#include "app/gui/widgets/time_format.h"

#include <fmt/format.h>

#include <cstdlib>

namespace app::gui::widgets {

std::string FormatDuration(core::model::DurationNs ns, int digits) {
  const double v = static_cast<double>(ns);
  const double a = std::abs(v);
  if (a < 1e3) return fmt::format("{} ns", ns);
  if (a < 1e6) return fmt::format("{:.{}f} us", v / 1e3, digits);
  if (a < 1e9) return fmt::format("{:.{}f} ms", v / 1e6, digits);
  return fmt::format("{:.{}f} s", v / 1e9, digits);
}

std::string FormatTime(core::model::TimeNs ns, core::model::TimeNs origin) {
  core::model::TimeNs rel = ns - origin;
  return (rel < 0 ? "-" : "+") + FormatDuration(std::llabs(rel));
}

}  // namespace app::gui::widgets
