#include "core/store/sqlite_db.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "core/model/error.h"
#include "core/store/file_bytes.h"

namespace core::store {

// SQLite counts every allocation it makes (sqlite3_memory_used) under one global mutex unless it
// is told not to before it starts. fencescope reads no such figure, and the lock and unlock
// around each allocation were 13% of the commit of a 10 M-event import (SQLite building its
// indexes); a trace writer's helper thread shared that mutex with the caller's. Set as the
// program starts, before any connection opens.
const bool kSqliteCountsNoMemory = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;

bool IsDamageCode(int rc) {
  rc &= 0xff;
  return rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB;
}

namespace {
// Root page -> "table NAME" / "index NAME", read from sqlite_master (empty when unreadable;
// then `schema_failure` holds SQLite's message: the schema itself cannot be read).
std::vector<std::pair<int64_t, std::string>> RootPages(sqlite3* db, std::string& schema_failure) {
  std::vector<std::pair<int64_t, std::string>> roots;
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT rootpage, type, name FROM sqlite_master WHERE rootpage > 0",
                         -1, &s, nullptr) != SQLITE_OK) {
    schema_failure = sqlite3_errmsg(db);
    sqlite3_finalize(s);
    return roots;
  }
  while (sqlite3_step(s) == SQLITE_ROW) {
    const char* type = reinterpret_cast<const char*>(sqlite3_column_text(s, 1));
    const char* name = reinterpret_cast<const char*>(sqlite3_column_text(s, 2));
    roots.emplace_back(sqlite3_column_int64(s, 0),
                       std::string(type ? type : "?") + " " + (name ? name : "?"));
  }
  sqlite3_finalize(s);
  return roots;
}

// The bytes of the database being checked: an in-memory image's, or its file's read once when
// first asked for. The view stays valid until the check returns.
using FileBytes = std::function<std::span<const unsigned char>()>;

std::vector<unsigned char> ReadBytes(const std::string& path);

// The digits of the first place in `line` where one of `prefixes` (tried in order at each
// place) is followed by digits and then by `suffix`; empty when there is none. What a regex
// search for "(?:PREFIX|...)(\d+)SUFFIX" finds, without a regex engine (std::regex took a tenth
// of the time a fuzzed damaged image took to load and describe).
std::string FirstNumberAfter(std::string_view line, std::initializer_list<std::string_view> prefixes,
                             std::string_view suffix = {}) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t at = 0; at < line.size(); ++at) {
    for (std::string_view prefix : prefixes) {
      if (line[at] != prefix.front() || line.compare(at, prefix.size(), prefix) != 0) continue;
      const size_t first = at + prefix.size();
      size_t end = first;
      while (end < line.size() && is_digit(line[end])) ++end;
      if (end > first && line.substr(end).starts_with(suffix)) {
        return std::string(line.substr(first, end - first));
      }
    }
  }
  return {};
}

// Names the table or index a quick_check line is about: the tree whose root page it tells, or
// the tree owning the page it tells (`owner_of`: "table NAME", "index NAME" or empty).
std::string NameTree(const std::string& line,
                     const std::vector<std::pair<int64_t, std::string>>& roots,
                     const std::function<std::string(int64_t)>& owner_of) {
  const std::string tree = FirstNumberAfter(line, {"Tree "}, " page");
  if (tree.empty()) {
    const std::string page = FirstNumberAfter(line, {"On tree page ", "On page ", "Page "});
    if (page.empty()) return {};
    return owner_of(std::stoll(page));
  }
  int64_t root = std::stoll(tree);
  for (const auto& [page, name] : roots) {
    if (page == root) return name + " (root page " + std::to_string(root) + ")";
  }
  return "root page " + std::to_string(root);
}
// Walks the b-tree rooted at `root` in the file's bytes (SQLite's file format: page size at
// offset 16, page 1's header after the 100-byte file header) and names the first page whose
// header is not a b-tree page header, or whose cell pointers or child page numbers point outside
// the page or the file. Used when quick_check itself stops at the damage. Empty when none found.
struct TreeWalk {
  std::set<int64_t> pages;  // the pages reached
  std::string damage;       // the first damaged page, empty when none was found
};

std::vector<unsigned char> ReadBytes(const std::string& path) {
  return ReadWholeFile(path);  // keeps this process's locks on the file (file_bytes.h)
}

TreeWalk WalkTree(std::span<const unsigned char> file, int64_t root) {
  TreeWalk result;
  if (file.size() < 100) return result;
  uint32_t page_size = (uint32_t{file[16]} << 8) | file[17];
  if (page_size == 1) page_size = 65536;
  if (page_size < 512 || (page_size & (page_size - 1))) return {};
  const uint64_t page_count = file.size() / page_size;
  std::set<int64_t>& seen = result.pages;
  std::string& found = result.damage;
  std::function<void(int64_t, int)> walk = [&](int64_t page, int depth) {
    if (!found.empty() || depth > 40 || !seen.insert(page).second) return;
    if (page < 1 || static_cast<uint64_t>(page) > page_count) {
      found = "page " + std::to_string(page) + " (beyond the file's " +
              std::to_string(page_count) + " pages)";
      return;
    }
    const size_t base = (page - 1) * size_t{page_size};
    const size_t header = base + (page == 1 ? 100 : 0);
    const unsigned type = file[header];
    const bool interior = type == 2 || type == 5;
    if (type != 2 && type != 5 && type != 10 && type != 13) {
      found = "page " + std::to_string(page) + " (not a b-tree page: type byte " +
              std::to_string(type) + ")";
      return;
    }
    const size_t cells = (size_t{file[header + 3]} << 8) | file[header + 4];
    const size_t pointers = header + (interior ? 12 : 8);
    if (pointers + 2 * cells > base + page_size) {
      found = "page " + std::to_string(page) + " (" + std::to_string(cells) +
              " cells do not fit in the page)";
      return;
    }
    if (!interior) return;
    auto child_at = [&](size_t at) {
      return static_cast<int64_t>((uint32_t{file[at]} << 24) | (uint32_t{file[at + 1]} << 16) |
                                  (uint32_t{file[at + 2]} << 8) | file[at + 3]);
    };
    for (size_t i = 0; i < cells && found.empty(); ++i) {
      const size_t offset = (size_t{file[pointers + 2 * i]} << 8) | file[pointers + 2 * i + 1];
      if (offset < 8 || offset + 4 > page_size) {
        found = "page " + std::to_string(page) + " (cell " + std::to_string(i) +
                " points outside the page)";
        return;
      }
      walk(child_at(base + offset), depth + 1);
    }
    if (found.empty()) walk(child_at(header + 8), depth + 1);
  };
  walk(root, 0);
  return result;
}

std::string FindDamagedPage(const FileBytes& bytes, int64_t root) {
  return WalkTree(bytes(), root).damage;
}

// quick_check of one table or index, for when the whole-file check stops at an error.
std::vector<std::string> CheckEachTree(sqlite3* db, const FileBytes& bytes, bool full,
                                       const std::vector<std::pair<int64_t, std::string>>& roots) {
  std::vector<std::string> problems;
  for (const auto& [root, name] : roots) {
    if (name.rfind("table ", 0) != 0) continue;  // a table's check covers its indexes
    const std::string table = name.substr(6);
    std::string sql = std::string(full ? "PRAGMA integrity_check(\"" : "PRAGMA quick_check(\"");
    for (char c : table) sql += c == '"' ? std::string("\"\"") : std::string(1, c);
    sql += "\")";
    sqlite3_stmt* s = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
    std::vector<std::string> lines;
    if (rc == SQLITE_OK) {
      while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char* text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        lines.emplace_back(text ? text : "");
      }
    }
    std::string error = rc == SQLITE_DONE ? std::string() : sqlite3_errmsg(db);
    sqlite3_finalize(s);
    if (!error.empty()) {
      std::string page = FindDamagedPage(bytes, root);
      problems.push_back(name + " (root page " + std::to_string(root) + "): unreadable (" +
                         error + ")" + (page.empty() ? "" : ", damaged " + page));
    } else if (!(lines.size() == 1 && lines[0] == "ok")) {
      for (auto& line : lines) problems.push_back(name + ": " + line);
    }
  }
  return problems;
}

// The checks of RunCheck on `db` (left open: its owner closes it). `schema_failure`, when not
// empty, is SQLite's message from a statement that failed to compile on `db` for damage: compiling
// reads nothing but the header and the schema, so the schema is known to be unreadable and is not
// parsed again only to fail with the same message.
CheckResult RunCheckOn(sqlite3* db, const FileBytes& bytes, bool full,
                       const std::string& schema_failure = {}) {
  CheckResult result;
  std::string failure = schema_failure;
  const auto roots =
      schema_failure.empty() ? RootPages(db, failure) : std::vector<std::pair<int64_t, std::string>>{};
  std::vector<std::string> lines;
  auto run = [&](const char* sql) {
    lines.clear();
    failure.clear();
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
      failure = sqlite3_errmsg(db);
    } else {
      int rc;
      while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char* text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        lines.emplace_back(text ? text : "");
      }
      if (rc != SQLITE_DONE) failure = sqlite3_errmsg(db);
    }
    sqlite3_finalize(s);
  };
  // When sqlite_master itself cannot be read, neither check can start: each would only parse the
  // schema again to fail with the same message (a damaged schema is most of what a damaged file
  // shows, and parsing it is most of the check's time).
  const bool schema_unreadable = !failure.empty();
  if (!schema_unreadable) {
    run(full ? "PRAGMA integrity_check(100)" : "PRAGMA quick_check(100)");
    if (!failure.empty()) {
      // The check read the damaged rows and stopped there. With a limit of one problem it ends
      // after the b-tree pass, before reading rows: that first problem names the page.
      const std::string stopped = failure;
      run("PRAGMA quick_check(1)");
      if (failure.empty() && !(lines.size() == 1 && lines[0] == "ok")) {
        result.problems.push_back(std::string(full ? "integrity_check" : "quick_check") +
                                  " stops at the damage (" + stopped + "); the first problem:");
      } else {
        failure = stopped;
      }
    }
  }
  if (!failure.empty()) {
    // The check stopped at the damage: check table by table to name it.
    if (!roots.empty()) result.problems = CheckEachTree(db, bytes, full, roots);
    if (result.problems.empty()) {
      std::string page = FindDamagedPage(bytes, 1);
      result.problems.push_back(std::string(full ? "integrity_check" : "quick_check") +
                                " cannot run (" + failure + "): the schema (sqlite_master, " +
                                (page.empty() ? "page 1" : page) +
                                ") or the file header is damaged");
    }
    return result;
  }
  if (lines.size() == 1 && lines[0] == "ok") {
    result.ok = true;
    return result;
  }
  // "table NAME" or "index NAME" owning `page` (the first in `roots` whose tree holds it), empty
  // when none does. Every tree is walked once, when a line first names a page, not per line.
  std::vector<std::set<int64_t>> tree_pages;
  auto owner_of = [&](int64_t page) -> std::string {
    if (tree_pages.empty()) {
      for (const auto& [root, name] : roots) tree_pages.push_back(WalkTree(bytes(), root).pages);
    }
    for (size_t i = 0; i < tree_pages.size(); ++i) {
      if (tree_pages[i].count(page)) return roots[i].second;
    }
    return {};
  };
  for (const std::string& row : lines) {
    size_t begin = 0;
    while (begin <= row.size()) {  // a row may hold several problems, one a line
      size_t end = row.find('\n', begin);
      if (end == std::string::npos) end = row.size();
      std::string line = row.substr(begin, end - begin);
      begin = end + 1;
      if (line.empty() || line.rfind("*** in database", 0) == 0) continue;
      std::string tree = NameTree(line, roots, owner_of);
      result.problems.push_back(tree.empty() ? line : tree + ": " + line);
    }
  }
  return result;
}

// A read-only in-memory database holding `image` (nullptr when SQLite cannot). A copy of it, owned
// by SQLite (FREEONCLOSE), so that the image may go before the connection does; or, with
// `copy` false, the image's own bytes, which the caller keeps until the connection closes.
sqlite3* OpenImage(std::string_view image, bool copy) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    sqlite3_close(db);
    return nullptr;
  }
  const auto size = static_cast<sqlite3_int64>(image.size());
  static unsigned char no_bytes[1] = {};
  auto* bytes = image.empty() ? no_bytes
                              : const_cast<unsigned char*>(
                                    reinterpret_cast<const unsigned char*>(image.data()));
  unsigned flags = SQLITE_DESERIALIZE_READONLY;
  if (copy) {
    bytes = static_cast<unsigned char*>(sqlite3_malloc64(image.empty() ? 1 : image.size()));
    if (!bytes) {
      sqlite3_close(db);
      return nullptr;
    }
    if (!image.empty()) std::memcpy(bytes, image.data(), image.size());
    flags |= SQLITE_DESERIALIZE_FREEONCLOSE;
  }
  if (sqlite3_deserialize(db, "main", bytes, size, size, flags) != SQLITE_OK) {
    sqlite3_close(db);
    return nullptr;
  }
  return db;
}

// The image of an in-memory database `db` opened by Database::FromImage (SQLite's memdb VFS
// holds a deserialized database); nullopt for a file.
std::optional<std::string_view> ImageOf(sqlite3* db) {
  char* vfs = nullptr;
  if (!db || sqlite3_file_control(db, "main", SQLITE_FCNTL_VFSNAME, &vfs) != SQLITE_OK || !vfs) {
    return std::nullopt;
  }
  const bool memdb = std::string_view(vfs).starts_with("memdb");
  sqlite3_free(vfs);
  if (!memdb) return std::nullopt;
  sqlite3_int64 size = 0;
  const unsigned char* bytes = sqlite3_serialize(db, "main", &size, SQLITE_SERIALIZE_NOCOPY);
  if (!bytes) return std::string_view();
  return std::string_view(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
}

std::string DescribeCheck(const CheckResult& check) {
  if (check.ok) {
    return "quick_check finds no damaged b-tree page (page 1 header or an overflow chain?)";
  }
  std::string out =
      check.problems.front().rfind("quick_check", 0) == 0 ? "" : "quick_check: ";
  const size_t shown = std::min<size_t>(check.problems.size(), 3);
  for (size_t i = 0; i < shown; ++i) {
    if (i) out += out.back() == ':' ? " " : "; ";
    out += check.problems[i];
  }
  if (check.problems.size() > shown) out += "; ... ('fencescope info --check' lists them all)";
  return out;
}

[[noreturn]] void ThrowDamagedWith(const std::string& path, std::string_view sqlite_message,
                                   const std::string& description) {
  throw DamagedDatabaseError(path + ": damaged database (SQLite: " + std::string(sqlite_message) +
                             "): " + description);
}

// The checks of RunCheckOn on their own connection `db`, closed once they are done.
CheckResult RunCheckAndClose(sqlite3* db, const FileBytes& bytes, bool full) {
  CheckResult result = RunCheckOn(db, bytes, full);
  sqlite3_close(db);
  return result;
}

std::span<const unsigned char> AsBytes(std::string_view image) {
  return {reinterpret_cast<const unsigned char*>(image.data()), image.size()};
}

// CheckDamage for a failure on connection `db`: a file is checked through its path, on a
// connection of its own; an in-memory image (read-only, nothing else can reach it) on `db`
// itself, whose schema is then most often parsed already (parsing it again on a connection of
// the check's own was most of the time a damaged image took to describe).
// `in_compile`: the failure came from compiling a statement (sqlite3_prepare), so from the schema.
void CheckDamageOn(sqlite3* db, int rc, const std::string& path, std::string_view message,
                   bool in_compile = false) {
  if (!IsDamageCode(rc)) return;
  const std::string sqlite_message(message);  // `message` may be db's, which the check replaces
  if (const auto image = ImageOf(db)) {
    ThrowDamagedWith(path, sqlite_message,
                     DescribeCheck(RunCheckOn(db, [&] { return AsBytes(*image); }, false,
                                              in_compile ? sqlite_message : std::string())));
  }
  ThrowDamaged(path, sqlite_message);
}
}  // namespace

CheckResult RunCheck(const std::string& path, bool full) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    CheckResult result;
    result.problems.push_back(std::string("cannot open to check: ") +
                              (db ? sqlite3_errmsg(db) : "?"));
    sqlite3_close(db);
    return result;
  }
  std::optional<std::vector<unsigned char>> file;  // read when first needed, then kept
  return RunCheckAndClose(
      db,
      [&]() -> std::span<const unsigned char> {
        if (!file) file = ReadBytes(path);
        return *file;
      },
      full);
}

CheckResult RunImageCheck(std::string_view image, bool full) {
  // The image outlives this check's connection: no copy of it.
  sqlite3* db = OpenImage(image, false);
  if (!db) {
    CheckResult result;
    result.problems.push_back("cannot open to check: out of memory");
    return result;
  }
  return RunCheckAndClose(db, [&] { return AsBytes(image); }, full);
}

std::string DescribeDamage(const std::string& path) { return DescribeCheck(RunCheck(path, false)); }

std::string DescribeImageDamage(std::string_view image) {
  return DescribeCheck(RunImageCheck(image, false));
}

void ThrowDamaged(const std::string& path, std::string_view sqlite_message) {
  ThrowDamagedWith(path, sqlite_message, DescribeDamage(path));
}

void CheckDamage(int rc, const std::string& path, std::string_view sqlite_message) {
  if (IsDamageCode(rc)) ThrowDamaged(path, sqlite_message);
}

namespace {
[[noreturn]] void Fail(sqlite3* db, const std::string& path, std::string_view what,
                       bool in_compile = false) {
  if (db) CheckDamageOn(db, sqlite3_extended_errcode(db), path, sqlite3_errmsg(db), in_compile);
  throw Error(path + ": " + std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}
}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql, std::string path) : m_path(std::move(path)) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) !=
      SQLITE_OK) {
    Fail(db, m_path, "SQL error", /*in_compile=*/true);
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
  // Readers too: a connection is used by one thread at a time (sqlite3_interrupt, the one call
  // made from another thread, is safe without the mutex).
  int flags = mode == Mode::kReadOnly    ? (SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
              : mode == Mode::kReadWrite ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
                                         : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                            SQLITE_OPEN_NOMUTEX);
  if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
    if (m_db && mode == Mode::kReadOnly && IsDamageCode(sqlite3_extended_errcode(m_db))) {
      std::string sqlite_message = sqlite3_errmsg(m_db);
      sqlite3_close(m_db);
      m_db = nullptr;
      ThrowDamaged(path, sqlite_message);
    }
    std::string message = m_path + ": cannot open: " + (m_db ? sqlite3_errmsg(m_db) : "?");
    if (m_db) sqlite3_close(m_db);
    m_db = nullptr;
    throw Error(message);
  }
  sqlite3_extended_result_codes(m_db, 1);
  // A reader may meet a trace while its packed cache is being committed (core/cache): it waits
  // for the commit rather than failing with "database is locked".
  sqlite3_busy_timeout(m_db, 10000);
}

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)),
      m_path(std::move(other.m_path)),
      m_in_memory(other.m_in_memory) {}

Database Database::FromImage(std::string_view image, std::string label) {
  Database db;
  db.m_path = std::move(label);
  db.m_in_memory = true;
  db.m_db = OpenImage(image, true);
  if (!db.m_db) throw Error(db.m_path + ": cannot hold the database in memory");
  sqlite3_extended_result_codes(db.m_db, 1);
  return db;
}

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
    CheckDamageOn(m_db, sqlite3_extended_errcode(m_db), m_path, text);
    throw Error(m_path + ": SQL error: " + text);
  }
}

int64_t Database::QueryInt(std::string_view sql) {
  Statement statement = Prepare(sql);
  return statement.Step() ? statement.ColumnInt(0) : 0;
}

}  // namespace core::store
