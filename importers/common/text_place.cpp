#include "importers/common/text_place.h"

#include <algorithm>

#include <fmt/format.h>

namespace importers {

std::string DescribeOffset(std::string_view text, uint64_t offset) {
  const size_t end = std::min<uint64_t>(offset, text.size());
  const uint64_t line = 1 + std::count(text.begin(), text.begin() + end, '\n');
  const size_t line_start = text.rfind('\n', end == 0 ? 0 : end - 1);
  const uint64_t column =
      line_start == std::string_view::npos || end == 0 ? end + 1 : end - line_start;
  return fmt::format("byte {} (line {}, column {})", offset, line, column);
}

std::string DescribePlace(std::string_view label, std::string_view text, uint64_t offset) {
  return fmt::format("{}: {}", label, DescribeOffset(text, offset));
}

}  // namespace importers
