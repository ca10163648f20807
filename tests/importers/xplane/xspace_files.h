// Hand-made XSpace profiles for the tests: make_xspace.py writes them with an encoder of its own
// and says where it planted what a test looks for (byte offsets).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "tests/support/test_support.h"

namespace xspace_files {

// Runs `make_xspace.py SHAPE OUT [HOST] [--trace-json TRACE_JSON]`; its "key<TAB>N" lines.
inline std::map<std::string, int64_t> Make(const std::string& shape,
                                           const std::filesystem::path& out,
                                           const std::string& host = "",
                                           const std::filesystem::path& trace_json = {}) {
  const auto script = test_support::SourceDir() / "tests/importers/xplane/make_xspace.py";
  return test_support::CommandFigures(
      "python3 " + test_support::Quote(script) + " " + shape + " " + test_support::Quote(out) +
      (host.empty() ? "" : " " + host) +
      (trace_json.empty() ? "" : " --trace-json " + test_support::Quote(trace_json)));
}

// The profile's start, which make_xspace.py normalised every line's timestamp to.
constexpr int64_t kProfileStart = 1'700'000'000'000'000'000;

}  // namespace xspace_files
