#include "importers/nsys/nsys_database.h"

#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/common/sqlite_defensive.h"

namespace importers::nsys {
namespace {

// The longest value (string or blob) a row may hold: a kernel's demangled name is a few KiB at
// most; a hostile file's huge value is refused by SQLite instead of being read into memory.
constexpr int kMaxValueBytes = 16 << 20;

// "file:" URI of a path, with every byte that URIs give a meaning percent-encoded.
std::string FileUri(const std::filesystem::path& path) {
  std::string uri = "file:";
  for (unsigned char c : std::filesystem::absolute(path).string()) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += fmt::format("%{:02X}", c);
    }
  }
  // immutable: the file is read as it is (no lock, no journal looked for, nothing written).
  return uri + "?mode=ro&immutable=1";
}

[[noreturn]] void ThrowOpen(sqlite3* db, const std::string& label) {
  const std::string message = db ? sqlite3_errmsg(db) : "out of memory";
  if (db) sqlite3_close(db);
  throw core::Error(fmt::format("{}: cannot open the SQLite file: {}", label, message));
}

}  // namespace

NsysDatabase::NsysDatabase(sqlite3* db, std::string label) : m_db(db), m_label(std::move(label)) {
  MakeSqliteDefensive(m_db, kMaxValueBytes);
  try {
    ReadTableNames();
  } catch (...) {
    // No destructor runs for an object whose constructor throws: the connection goes here.
    sqlite3_close_v2(m_db);
    throw;
  }
}

NsysDatabase::NsysDatabase(NsysDatabase&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)),
      m_label(std::move(other.m_label)),
      m_tables(std::move(other.m_tables)) {}

NsysDatabase::~NsysDatabase() {
  if (m_db) sqlite3_close_v2(m_db);
}

NsysDatabase NsysDatabase::OpenFile(const std::filesystem::path& path, std::string label) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(FileUri(path).c_str(), &db,
                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    ThrowOpen(db, label);
  }
  return NsysDatabase(db, std::move(label));
}

NsysDatabase NsysDatabase::OpenImage(std::string_view bytes, std::string label) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    ThrowOpen(db, label);
  }
  // READONLY without FREEONCLOSE: SQLite reads the caller's bytes in place and never writes or
  // frees them.
  auto* data = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
  const auto size = static_cast<sqlite3_int64>(bytes.size());
  if (sqlite3_deserialize(db, "main", data, size, size, SQLITE_DESERIALIZE_READONLY) !=
      SQLITE_OK) {
    ThrowOpen(db, label);
  }
  return NsysDatabase(db, std::move(label));
}

void NsysDatabase::ReadTableNames() {
  try {
    core::store::Statement tables =
        Prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
    while (tables.Step()) m_tables.insert(tables.ColumnText(0));
  } catch (const core::Error& e) {
    throw core::Error(fmt::format("{}: cannot read the SQLite file's list of tables: {}",
                                  m_label, e.what()));
  }
}

bool NsysDatabase::HasTable(std::string_view table) const {
  return m_tables.find(table) != m_tables.end();
}

std::set<std::string> NsysDatabase::Columns(std::string_view table) const {
  std::set<std::string> columns;
  if (!HasTable(table)) return columns;
  core::store::Statement info = Prepare("SELECT name FROM pragma_table_info(?1)");
  info.BindText(1, table);
  while (info.Step()) columns.insert(info.ColumnText(0));
  return columns;
}

core::store::Statement NsysDatabase::Prepare(std::string_view sql) const {
  return core::store::Statement(m_db, sql, m_label);
}

bool LooksLikeNsysExport(const NsysDatabase& db) {
  if (!db.HasTable("StringIds")) return false;
  return db.HasTable("CUPTI_ACTIVITY_KIND_KERNEL") || db.HasTable("CUPTI_ACTIVITY_KIND_RUNTIME") ||
         db.HasTable("TARGET_INFO_GPU") || db.HasTable("TARGET_INFO_SESSION_START_TIME") ||
         db.HasTable("NVTX_EVENTS");
}

bool IsNsysExportFile(const std::filesystem::path& path) {
  try {
    return LooksLikeNsysExport(NsysDatabase::OpenFile(path, path.string()));
  } catch (const core::Error&) {
    return false;
  }
}

}  // namespace importers::nsys
