// The version of this build, from `git describe` when it was built (cmake/version.cmake), and the
// line `fencescope --version` prints.
#pragma once

#include <string>
#include <string_view>

namespace app {

// e.g. "0.1.0+git395.gc482d18" (see cmake/version.cmake for the forms).
std::string_view Version();

// "fencescope VERSION" and the trace schema version this build reads and writes.
std::string VersionText();

}  // namespace app
