// The Markdown report's GPU sections, in the HTML report's order and with its bounds
// (report_rows.h): queues, queue pairs, idle-gap attribution, idle time between packets,
// packets by name, wait latency, longest waits, launch delay and queue length, critical path.
// Shared with report_markdown.cpp: the line under a bounded table and heading anchors.
#pragma once

#include <string>

#include "core/report/report_data.h"

namespace core::report {

std::string GpuMarkdown(const ReportData& d);

// The line for the rows a bounded table leaves out, in italics; "" when it leaves none out.
std::string MarkdownMore(const std::string& line);

// The anchor a Markdown renderer (GitHub's rule) gives a heading: "### Idle-gap attribution"
// -> "idle-gap-attribution".
std::string MarkdownAnchor(const std::string& heading);

// The headings the lead's lines link to (LeadLine::section ids of the HTML report).
constexpr const char* kMdQueuesHeading = "Queues";
constexpr const char* kMdGapsHeading = "Idle-gap attribution";
constexpr const char* kMdWaitsHeading = "Longest waits and what released them";
constexpr const char* kMdPathHeading = "Critical path";

}  // namespace core::report
