// The text `fencescope info` prints: schema version, source, time span, rows per table and the
// import problems, read straight from the file (no full load).
#pragma once

#include <filesystem>
#include <string>

namespace core::report {

// Throws core::Error for a file that is not a valid trace.
std::string FormatTraceInfo(const std::filesystem::path& trace);

}  // namespace core::report
