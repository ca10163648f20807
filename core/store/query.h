// Runs one read-only SQL statement against a trace file and returns the result as text cells,
// for `fencescope query` and the UI's SQL console.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace core::store {

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // NULL is the empty string
  bool truncated = false;                      // more than max_rows rows existed
};

// Throws core::Error naming the file for an invalid trace or SQL error. The database is opened
// read-only, so a statement that writes fails.
QueryResult RunQuery(const std::filesystem::path& trace, const std::string& sql,
                     size_t max_rows = SIZE_MAX);

}  // namespace core::store
