// Runs one read-only SQL statement against a trace file and returns the result as text cells,
// for `fencescope query` and the UI's SQL console.
//
// Read-only in fact, not only by the file's open mode: an authorizer allows reading tables
// (SELECT, WITH RECURSIVE, functions other than fts3_tokenizer and load_extension, and the
// PRAGMAs that only describe the schema, also as table-valued functions such as
// pragma_table_info('events')); anything else (VACUUM INTO, ATTACH, writes, schema
// changes, transactions) is refused when the statement is prepared. The two-argument
// fts3_tokenizer is turned off. Exactly one statement is run: a string holding a second one is
// an error naming it (nothing is run). A statement still running after `timeout_seconds` is
// stopped with an error saying the limit was reached; one whose stop flag is set (from another
// thread) is stopped with QueryStopped. Both are checked every few thousand SQLite VM steps.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/model/error.h"

namespace core::store {

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // NULL is the empty string
  bool truncated = false;                      // more than max_rows rows existed
};

// The time limit of a query unless told otherwise (`fencescope query --timeout`).
inline constexpr double kDefaultQueryTimeoutSeconds = 60.0;

// Thrown by RunQuery when its stop flag was set while the statement ran.
class QueryStopped : public Error {
 public:
  using Error::Error;
};

// Throws core::Error naming the file for an invalid trace, an SQL error, a refused statement or
// the time limit, QueryStopped when `*stop` became true. timeout_seconds <= 0: no limit.
QueryResult RunQuery(const std::filesystem::path& trace, const std::string& sql,
                     size_t max_rows = SIZE_MAX,
                     double timeout_seconds = kDefaultQueryTimeoutSeconds,
                     const std::atomic<bool>* stop = nullptr);

}  // namespace core::store
