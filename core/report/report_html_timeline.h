// The HTML report's per-queue timeline overview: one row per queue that did something and per
// CPU thread that waited, ran background tasks or is on the critical path, drawn over the span
// in which the queues were active (active_span.h; the caption says how long the idle lead-in
// and tail were), with a few lines of inline script to zoom (wheel) and pan (drag) it. The
// report stays one self-contained file that works offline.
#pragma once

#include <string>

#include "core/analysis/active_span.h"
#include "core/report/report_data.h"
#include "core/report/report_sections.h"

namespace core::report {

// The overview's <svg> and its caption. `active` from ComputeActiveSpan(d.recon).
std::string TimelineOverview(const ReportData& d, const ReportSections& sections,
                             const analysis::ActiveSpan& active);

// The zoom script (once per report, after every zoomable chart).
extern const char* const kZoomScript;

}  // namespace core::report
