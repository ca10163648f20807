// The report's "What would pay" section (HTML and Markdown): the opportunities of
// core/replay/opportunities.h as a bar chart and a table, the replay's fidelity beside them.
#pragma once

#include <string>

#include "core/report/report_data.h"

namespace core::report {

// The section's heading, for links to it.
inline constexpr const char* kMdOpportunitiesHeading = "What would pay: each change replayed";

// "" when d.opportunities was not computed or found nothing.
std::string OpportunitiesHtml(const ReportData& d);
std::string OpportunitiesMarkdown(const ReportData& d);

}  // namespace core::report
