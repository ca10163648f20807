#include "core/store/query.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "core/model/error.h"
#include "core/store/trace_file.h"

namespace core::store {
namespace {

bool IsOneOf(const char* name, std::initializer_list<const char*> names) {
  if (!name) return false;
  for (const char* n : names) {
    if (sqlite3_stricmp(name, n) == 0) return true;
  }
  return false;
}

// Allows reads only: see query.h.
int ReadOnlyAuthorizer(void*, int action, const char* arg1, const char* arg2, const char*,
                       const char*) {
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:  // arg2 is the function's name
      return IsOneOf(arg2, {"fts3_tokenizer", "load_extension"}) ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_UPDATE:
      // The first use of a table-valued function (pragma_table_info('events'), json_each(...))
      // on a connection declares its columns, and SQLite checks that declaration as an UPDATE
      // of the schema table (arg1, column arg2) though nothing is written. A real UPDATE of it
      // is still refused: it would write (sqlite3_stmt_readonly below), the connection is
      // read-only and defensive. Any other table: refused.
      return IsOneOf(arg1, {"sqlite_master"}) ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_PRAGMA:  // arg1 the pragma, arg2 its argument (NULL when none)
      if (IsOneOf(arg1, {"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo",
                         "foreign_key_list"})) {
        return SQLITE_OK;
      }
      if (!arg2 && IsOneOf(arg1, {"user_version", "application_id", "schema_version", "page_size",
                                  "page_count", "table_list", "encoding", "function_list",
                                  "pragma_list", "collation_list", "compile_options"})) {
        return SQLITE_OK;
      }
      return SQLITE_DENY;
    default:
      return SQLITE_DENY;
  }
}

// What the progress handler checks: the stop flag, then the time limit.
struct StopCheck {
  const std::atomic<bool>* stop = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  bool stopped = false;
  bool deadline_reached = false;
};

int StopOnFlagOrDeadline(void* data) {
  auto* check = static_cast<StopCheck*>(data);
  if (check->stop && check->stop->load(std::memory_order_relaxed)) {
    check->stopped = true;
    return 1;
  }
  if (check->deadline && std::chrono::steady_clock::now() >= *check->deadline) {
    check->deadline_reached = true;
    return 1;
  }
  return 0;
}

// `text` without leading white space and SQL comments.
std::string_view SkipSpaceAndComments(std::string_view text) {
  for (;;) {
    const size_t start = text.find_first_not_of(" \t\r\n\f\v");
    if (start == std::string_view::npos) return {};
    text.remove_prefix(start);
    if (text.substr(0, 2) == "--") {
      const size_t end = text.find('\n');
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    } else if (text.substr(0, 2) == "/*") {
      const size_t end = text.find("*/", 2);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 2);
    } else if (text.front() == ';') {
      text.remove_prefix(1);
    } else {
      return text;
    }
  }
}

class PreparedQuery {
 public:
  PreparedQuery(sqlite3* db, const std::string& sql, const std::string& name) {
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &m_stmt, &tail) !=
        SQLITE_OK) {
      CheckDamage(sqlite3_extended_errcode(db), name, sqlite3_errmsg(db));
      throw Error(name + ": SQL error: " + sqlite3_errmsg(db) +
                  (sqlite3_errcode(db) == SQLITE_AUTH
                       ? " (the query console only reads: SELECT, WITH and schema PRAGMAs)"
                       : ""));
    }
    if (!m_stmt) throw Error(name + ": SQL error: no statement to run");
    const std::string_view rest =
        SkipSpaceAndComments(std::string_view(tail, sql.c_str() + sql.size() - tail));
    if (!rest.empty()) {
      const size_t end = rest.find(';');
      std::string second(rest.substr(0, end));
      if (second.size() > 80) second = second.substr(0, 77) + "...";
      // the destructor does not run for a constructor that throws
      sqlite3_finalize(m_stmt);
      m_stmt = nullptr;
      throw Error(fmt::format("{}: SQL error: one statement at a time; a second statement "
                              "follows at character {}: \"{}\" (nothing was run)",
                              name, rest.data() - sql.c_str() + 1, second));
    }
  }
  ~PreparedQuery() { sqlite3_finalize(m_stmt); }
  PreparedQuery(const PreparedQuery&) = delete;
  PreparedQuery& operator=(const PreparedQuery&) = delete;
  sqlite3_stmt* get() const { return m_stmt; }

 private:
  sqlite3_stmt* m_stmt = nullptr;
};

}  // namespace

QueryResult RunQuery(const std::filesystem::path& trace, const std::string& sql,
                     size_t max_rows, double timeout_seconds, const std::atomic<bool>* stop) {
  StopCheck check;  // outlives the connection whose progress handler points at it
  check.stop = stop;
  Database db = OpenTrace(trace);
  sqlite3* handle = db.handle();
  sqlite3_db_config(handle, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, nullptr);
  sqlite3_db_config(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(handle, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_set_authorizer(handle, ReadOnlyAuthorizer, nullptr);
  const std::string name = trace.string();
  PreparedQuery s(handle, sql, name);
  if (!sqlite3_stmt_readonly(s.get())) {
    throw Error(name + ": SQL error: the statement would write (the query console only reads)");
  }
  if (timeout_seconds > 0) {
    check.deadline = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(timeout_seconds));
  }
  if (check.deadline || check.stop) {
    sqlite3_progress_handler(handle, 10000, StopOnFlagOrDeadline, &check);
  }
  QueryResult result;
  const int columns = sqlite3_column_count(s.get());
  for (int i = 0; i < columns; ++i) result.columns.push_back(sqlite3_column_name(s.get(), i));
  for (;;) {
    const int rc = sqlite3_step(s.get());
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      if (check.stopped) throw QueryStopped(name + ": query stopped");
      if (check.deadline_reached) {
        throw Error(fmt::format("{}: query stopped: the time limit of {:g} s was reached "
                                "(--timeout SECONDS to allow more)",
                                name, timeout_seconds));
      }
      CheckDamage(rc, name, sqlite3_errmsg(handle));
      throw Error(name + ": SQL error: " + sqlite3_errmsg(handle));
    }
    if (result.rows.size() >= max_rows) {
      result.truncated = true;
      break;
    }
    std::vector<std::string> row;
    row.reserve(result.columns.size());
    for (int i = 0; i < columns; ++i) {
      if (sqlite3_column_type(s.get(), i) == SQLITE_FLOAT) {
        char buffer[64];
        std::snprintf(buffer, sizeof(buffer), "%.17g", sqlite3_column_double(s.get(), i));
        row.emplace_back(buffer);
      } else {
        const unsigned char* text = sqlite3_column_text(s.get(), i);
        row.emplace_back(text ? reinterpret_cast<const char*>(text) : "",
                         text ? static_cast<size_t>(sqlite3_column_bytes(s.get(), i)) : 0);
      }
    }
    result.rows.push_back(std::move(row));
  }
  sqlite3_progress_handler(handle, 0, nullptr, nullptr);
  return result;
}

}  // namespace core::store
