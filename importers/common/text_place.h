// Names a place in an input file for error messages and import-problem counters:
// "file: byte 1234 (line 7, column 12)". The line is found by counting newlines only when a
// message is made, so it costs nothing on the good path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace importers {

// `text` is the decoded content the offset refers to (after gzip/zip); `label` names the file.
std::string DescribePlace(std::string_view label, std::string_view text, uint64_t offset);

// "byte 1234 (line 7, column 12)" without the label.
std::string DescribeOffset(std::string_view text, uint64_t offset);

}  // namespace importers
