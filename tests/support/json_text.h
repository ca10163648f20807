// Reads the JSON text a fencescope command printed back into a core::report::Json tree, so a
// test can look keys up with FindPath (core/report/fail_if.h) in what the binary wrote.
#pragma once

#include <cstdint>
#include <string>

#include "core/report/json.h"

namespace test_support {

// Throws std::runtime_error for text that is not JSON.
core::report::Json ParseJsonText(const std::string& text);

// Runs the fencescope binary with `args` (it must succeed) and reads what it printed as JSON.
core::report::Json RunFencescopeJson(const std::string& args);

// The number at `path` (FindPath syntax, e.g. "queues[0].busy_ns"); a failed expectation and -1
// when there is none.
int64_t IntAt(const core::report::Json& json, const std::string& path);

}  // namespace test_support
