// Thin RAII wrappers over the SQLite C API: a connection and a prepared statement. Every failure
// throws core::Error with SQLite's message and the database path.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/error.h"

namespace core::store {

// A trace file SQLite found damaged (SQLITE_CORRUPT, or SQLITE_NOTADB past a valid header). Its
// message names the file and, from PRAGMA quick_check, the damaged table, index or page. Every
// command that reads a trace reports it the same way and exits with kDamagedExitCode.
class DamagedDatabaseError : public Error {
 public:
  using Error::Error;
};
inline constexpr int kDamagedExitCode = 4;

// Whether SQLite was told, as the program started, to keep no memory statistics (no global
// mutex around its allocations; sqlite_db.cpp).
extern const bool kSqliteCountsNoMemory;

// True for SQLITE_CORRUPT and SQLITE_NOTADB (any extended code).
bool IsDamageCode(int rc);

// PRAGMA quick_check (full=false, at most 100 problems) or integrity_check (full=true, at most 100)
// on `path` through its own read-only connection. Each problem line names the table or index
// when SQLite tells the tree's root page ("table events (root page 5): Tree 5 page 12 ...").
struct CheckResult {
  bool ok = false;
  std::vector<std::string> problems;
};
CheckResult RunCheck(const std::string& path, bool full);

// Runs PRAGMA quick_check on `path` (own read-only connection) and describes the damage in one
// line: "table events (root page 5): Tree 5 page 12 cell 3: ...; ...". Lists at most a few
// problems; says so when even the schema cannot be read.
std::string DescribeDamage(const std::string& path);
// The same two for a database image held in memory (Database::FromImage), checked over its own
// bytes (not copied; `image` stays valid until the check returns).
CheckResult RunImageCheck(std::string_view image, bool full);
std::string DescribeImageDamage(std::string_view image);

// Throws DamagedDatabaseError: "PATH: damaged database (SQLite: WHAT): DescribeDamage(PATH)".
[[noreturn]] void ThrowDamaged(const std::string& path, std::string_view sqlite_message);

// The damage test that every reader shares: rethrows as DamagedDatabaseError when `rc` is a
// damage code, otherwise returns.
void CheckDamage(int rc, const std::string& path, std::string_view sqlite_message);

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, std::string_view sql, std::string path);
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Binding is 1-based, as in SQLite.
  void BindInt(int index, int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
  void BindIdOrNull(int index, uint32_t id) {
    if (id == 0) sqlite3_bind_null(m_stmt, index);
    else sqlite3_bind_int64(m_stmt, index, id);
  }
  void BindDouble(int index, double value) { sqlite3_bind_double(m_stmt, index, value); }
  void BindNull(int index) { sqlite3_bind_null(m_stmt, index); }
  // An empty view may have no data (std::string_view()), which SQLite would bind as NULL: it
  // is bound as the empty text it is.
  void BindText(int index, std::string_view text) {
    sqlite3_bind_text(m_stmt, index, text.data() ? text.data() : "",
                      static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }

  // Returns true when a row is ready, false when done. Throws on error.
  bool Step();
  // Runs to completion and resets, for INSERT/UPDATE statements.
  void Run();
  void Reset();

  int ColumnCount() const { return sqlite3_column_count(m_stmt); }
  int64_t ColumnInt(int index) const { return sqlite3_column_int64(m_stmt, index); }
  double ColumnDouble(int index) const { return sqlite3_column_double(m_stmt, index); }
  bool ColumnIsNull(int index) const { return sqlite3_column_type(m_stmt, index) == SQLITE_NULL; }
  int ColumnType(int index) const { return sqlite3_column_type(m_stmt, index); }
  std::string ColumnText(int index) const;
  std::string ColumnName(int index) const { return sqlite3_column_name(m_stmt, index); }
  sqlite3_stmt* handle() const { return m_stmt; }

 private:
  sqlite3_stmt* m_stmt = nullptr;
  std::string m_path;
};

class Database {
 public:
  // kReadWrite: an existing file, for writing beside what is in it (the trace cache).
  enum class Mode { kReadOnly, kCreate, kReadWrite };
  Database(const std::string& path, Mode mode);
  // A read-only database over a copy of `image` (the bytes of a database file), in memory:
  // nothing is read from or written to disk. `label` names it in messages, as a path would; its
  // damage is described from the image (DescribeImageDamage). For a trace given as bytes (the
  // fuzz harness of the trace loader). Throws core::Error when SQLite cannot take the image.
  static Database FromImage(std::string_view image, std::string label);
  Database(Database&& other) noexcept;
  Database& operator=(Database&&) = delete;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  void Exec(std::string_view sql);
  Statement Prepare(std::string_view sql) { return Statement(m_db, sql, m_path); }
  // Runs a query that yields one integer (0 when no row).
  int64_t QueryInt(std::string_view sql);
  void Close();
  sqlite3* handle() const { return m_db; }
  const std::string& path() const { return m_path; }
  // True for a database made by FromImage (no file another connection could open).
  bool in_memory() const { return m_in_memory; }

 private:
  Database() = default;
  sqlite3* m_db = nullptr;
  std::string m_path;
  bool m_in_memory = false;
};

}  // namespace core::store
