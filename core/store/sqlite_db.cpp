#include "core/store/sqlite_db.h"

#include <utility>

#include "core/model/error.h"

namespace core::store {
namespace {
[[noreturn]] void Fail(sqlite3* db, const std::string& path, std::string_view what) {
  throw Error(path + ": " + std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}
}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql, std::string path) : m_path(std::move(path)) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) !=
      SQLITE_OK) {
    Fail(db, m_path, "SQL error");
  }
}

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr)), m_path(std::move(other.m_path)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    if (m_stmt) sqlite3_finalize(m_stmt);
    m_stmt = std::exchange(other.m_stmt, nullptr);
    m_path = std::move(other.m_path);
  }
  return *this;
}

Statement::~Statement() {
  if (m_stmt) sqlite3_finalize(m_stmt);
}

bool Statement::Step() {
  int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  Fail(sqlite3_db_handle(m_stmt), m_path, "SQL error");
}

void Statement::Run() {
  int rc = sqlite3_step(m_stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
    sqlite3_reset(m_stmt);
    Fail(sqlite3_db_handle(m_stmt), m_path, "write failed");
  }
  sqlite3_reset(m_stmt);
}

void Statement::Reset() { sqlite3_reset(m_stmt); }

std::string Statement::ColumnText(int index) const {
  const unsigned char* text = sqlite3_column_text(m_stmt, index);
  if (!text) return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(m_stmt, index)));
}

Database::Database(const std::string& path, Mode mode) : m_path(path) {
  // A file being written belongs to one TraceWriter, used by one thread at a time: NOMUTEX
  // drops SQLite's per-call connection mutex (a lock and unlock around every bind and step,
  // about 6% of a Chrome JSON import's instructions).
  int flags = mode == Mode::kReadOnly
                  ? SQLITE_OPEN_READONLY
                  : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
  if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
    std::string message = m_path + ": cannot open: " + (m_db ? sqlite3_errmsg(m_db) : "?");
    if (m_db) sqlite3_close(m_db);
    m_db = nullptr;
    throw Error(message);
  }
  sqlite3_extended_result_codes(m_db, 1);
}

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_path(std::move(other.m_path)) {}

Database::~Database() { Close(); }

void Database::Close() {
  if (m_db) {
    sqlite3_close_v2(m_db);
    m_db = nullptr;
  }
}

void Database::Exec(std::string_view sql) {
  std::string copy(sql);
  char* message = nullptr;
  if (sqlite3_exec(m_db, copy.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(m_db);
    sqlite3_free(message);
    throw Error(m_path + ": SQL error: " + text);
  }
}

int64_t Database::QueryInt(std::string_view sql) {
  Statement statement = Prepare(sql);
  return statement.Step() ? statement.ColumnInt(0) : 0;
}

}  // namespace core::store
