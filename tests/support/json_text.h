// Reads the JSON text a fencescope command printed back into a core::report::Json tree, so a
// test can look keys up with FindPath (core/report/fail_if.h) in what the binary wrote.
#pragma once

#include <string>

#include "core/report/json.h"

namespace test_support {

// Throws std::runtime_error for text that is not JSON.
core::report::Json ParseJsonText(const std::string& text);

}  // namespace test_support
