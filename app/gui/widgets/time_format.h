// Times and durations as people read them on a timeline: "1.250 ms", "37 us", "2.5 s".
#pragma once

#include <string>

#include "core/model/types.h"

namespace app::gui::widgets {

// A duration with a unit chosen for its size and `digits` significant decimals.
std::string FormatDuration(core::model::DurationNs ns, int digits = 3);
// A trace time relative to `origin` (the trace start), e.g. "+12.345 ms".
std::string FormatTime(core::model::TimeNs ns, core::model::TimeNs origin);

}  // namespace app::gui::widgets
