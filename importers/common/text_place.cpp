#include "importers/common/text_place.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace importers {

std::string DescribeOffset(std::string_view text, uint64_t offset) {
  const size_t end = std::min<uint64_t>(offset, text.size());
  // memchr from newline to newline rather than a test of each byte: a message about a place
  // deep in a large file costs a pass at memory speed (and under the fuzzing build's comparison
  // tracing, one call per line instead of one per byte).
  uint64_t line = 1;
  const char* line_start = text.data();
  const char* const stop = text.data() + end;
  while (line_start < stop) {
    const void* newline = std::memchr(line_start, '\n', static_cast<size_t>(stop - line_start));
    if (!newline) break;
    ++line;
    line_start = static_cast<const char*>(newline) + 1;
  }
  const uint64_t column = static_cast<uint64_t>(stop - line_start) + 1;
  return fmt::format("byte {} (line {}, column {})", offset, line, column);
}

std::string DescribePlace(std::string_view label, std::string_view text, uint64_t offset) {
  return fmt::format("{}: {}", label, DescribeOffset(text, offset));
}

}  // namespace importers
