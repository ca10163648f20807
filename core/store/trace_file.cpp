#include "core/store/trace_file.h"

#include <cstring>
#include <fstream>

#include "core/model/error.h"
#include "core/store/schema_sql.h"

namespace core::store {

bool LooksLikeSqlite(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char header[16] = {};
  in.read(header, sizeof(header));
  return in.gcount() == 16 && std::memcmp(header, "SQLite format 3\0", 16) == 0;
}

Database OpenTrace(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw Error(name + ": no such file");
  if (std::filesystem::is_directory(path, error)) throw Error(name + ": is a directory");
  if (!LooksLikeSqlite(path)) {
    throw Error(name + ": not a fencescope trace (not an SQLite database; use 'fencescope import' "
                       "for trace files of other tools)");
  }
  Database db(name, Database::Mode::kReadOnly);
  int64_t version = 0;
  try {
    version = db.QueryInt("PRAGMA user_version");
  } catch (const DamagedDatabaseError&) {
    throw;  // a valid header, damage past it: named by DescribeDamage
  } catch (const Error&) {
    throw Error(name + ": not a fencescope trace (SQLite cannot read it)");
  }
  int64_t has_meta = db.QueryInt(
      "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'");
  std::string format;
  if (has_meta) {
    Statement s = db.Prepare("SELECT value FROM meta WHERE key='format'");
    if (s.Step()) format = s.ColumnText(0);
  }
  if (format != kFormatMarker) {
    throw Error(name + ": not a fencescope trace (an SQLite database without the meta row "
                       "format='fencescope-trace')");
  }
  if (version != kSchemaVersion) {
    throw Error(name + ": trace schema version " + std::to_string(version) +
                (version > kSchemaVersion ? " is newer than" : " is not")
                + " the version this fencescope reads (" + std::to_string(kSchemaVersion) + ")");
  }
  return db;
}

std::map<std::string, std::string> ReadMeta(Database& db) {
  std::map<std::string, std::string> meta;
  Statement s = db.Prepare("SELECT key, value FROM meta");
  while (s.Step()) meta[s.ColumnText(0)] = s.ColumnText(1);
  return meta;
}

}  // namespace core::store
