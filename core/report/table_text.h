// Plain-text renderings of a table of strings: aligned columns for people, RFC 4180 CSV for
// programs.
#pragma once

#include <string>
#include <vector>

namespace core::report {

std::string FormatAlignedTable(const std::vector<std::string>& columns,
                               const std::vector<std::vector<std::string>>& rows);
std::string FormatCsv(const std::vector<std::string>& columns,
                      const std::vector<std::vector<std::string>>& rows);

}  // namespace core::report
