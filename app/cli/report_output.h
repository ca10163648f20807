// What `report` and `fleet report` do alike with a finished report: pick the format from the
// output's extension, evaluate the --fail-if gates over the JSON (before anything is written, so
// an unknown key writes nothing), write the file or standard output, then name the gates that
// held and exit with code 3.
#pragma once

#include <string>
#include <vector>

#include "core/report/json.h"

namespace app::cli {

// `format` when given, else from the extension of `output`: .json -> json, .md -> md, no
// output -> json (standard output), anything else -> html.
std::string ReportFormatFor(const std::string& output, const std::string& format);

// The expressions of `fail_if` that are true over `json`. Throws core::Error for a bad one.
std::vector<std::string> TrippedGates(const core::report::Json& json,
                                      const std::vector<std::string>& fail_if);

// Writes `content` to `output` (atomically) or to standard output when `output` is empty; on a
// file, prints "wrote OUTPUT (NOTE, N bytes)" on stderr. Then each tripped gate, and exit code 3
// when there is one.
void DeliverReport(const std::string& output, const std::string& content,
                   const std::string& note, const std::vector<std::string>& tripped);

}  // namespace app::cli
