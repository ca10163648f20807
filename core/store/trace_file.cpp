#include "core/store/trace_file.h"

#include <charconv>
#include <cstdio>
#include <cstring>

#include "core/model/error.h"
#include "core/store/file_bytes.h"
#include "core/store/schema_sql.h"

namespace core::store {

std::string_view ImportableFormats() {
  return "Chrome trace-event JSON and PyTorch profiler (Kineto) traces (.json), ETW captures "
         "(.etl), trace-cmd captures (.dat), ftrace text (.txt), systrace HTML pages (.html), "
         "Nsight Systems exports (.sqlite, from nsys export --type sqlite), rocprofv3 captures "
         "(rocpd databases, JSON, a folder or zip of its CSV files) and rocprof kernel-trace CSV, "
         "and XSpace profiles of JAX / TensorFlow / PyTorch XLA (.xplane.pb), each plain or inside "
         "gzip (.gz) or zip";
}

namespace {

// The first 16 bytes of every SQLite database file.
constexpr char kSqliteHeader[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                    'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};


// "an SQLite database of another program (application_id 0x47504b47; tables: a, b, c, ...)".
std::string DescribeOtherDatabase(Database& db) {
  std::string out = "an SQLite database of another program (";
  const int64_t application_id = db.QueryInt("PRAGMA application_id");
  if (application_id != 0) {
    char id[16];
    std::snprintf(id, sizeof(id), "%#010x", static_cast<uint32_t>(application_id));
    out += std::string("application_id ") + id + "; ";
  }
  Statement tables = db.Prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
      "ORDER BY name LIMIT 6");
  std::string names;
  int count = 0;
  while (tables.Step()) {
    if (++count == 6) {
      names += ", ...";
      break;
    }
    names += (names.empty() ? "" : ", ") + tables.ColumnText(0);
  }
  out += names.empty() ? "no tables)" : "tables: " + names + ")";
  return out;
}

std::string NotATrace(const std::string& name, const std::string& what) {
  return name + ": not a fencescope trace: it is " + what +
         ". fencescope opens the trace databases it writes (simulate, import, record, capture) "
         "and imports " + std::string(ImportableFormats());
}

}  // namespace

bool LooksLikeSqlite(const std::filesystem::path& path) {
  // Through SQLite's file layer, not an ifstream: closing a plain descriptor of a trace would
  // drop the locks a cache commit in another thread holds on it (core/store/file_bytes.h).
  const auto header = ReadFileHead(path, 16);
  return header && header->size() == 16 && std::memcmp(header->data(), kSqliteHeader, 16) == 0;
}

namespace {

[[noreturn]] void ThrowNotSqlite(const std::string& name) {
  throw Error(name + ": not a fencescope trace (not an SQLite database; 'fencescope import' "
                     "reads " + std::string(ImportableFormats()) + ")");
}

// The checks after the SQLite header: the format marker and the schema version.
void ValidateTrace(Database& db, const std::string& name) {
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
    if (db.QueryInt("PRAGMA application_id") == static_cast<int64_t>(kApplicationId)) {
      throw Error(name + ": not a fencescope trace: it carries fencescope's application_id but "
                         "not the meta row format='fencescope-trace' (damaged or edited)");
    }
    throw Error(NotATrace(name, DescribeOtherDatabase(db) + ", without the meta row "
                                "format='fencescope-trace'"));
  }
  if (version != kSchemaVersion) {
    throw Error(name + ": trace schema version " + std::to_string(version) +
                (version > kSchemaVersion ? " is newer than" : " is not")
                + " the version this fencescope reads (" + std::to_string(kSchemaVersion) + ")");
  }
}

}  // namespace

Database OpenTrace(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw Error(name + ": no such file");
  if (std::filesystem::is_directory(path, error)) throw Error(name + ": is a directory");
  if (!LooksLikeSqlite(path)) ThrowNotSqlite(name);
  Database db(name, Database::Mode::kReadOnly);
  ValidateTrace(db, name);
  return db;
}

Database OpenTraceImage(std::string_view image, const std::string& label) {
  if (image.size() < sizeof(kSqliteHeader) ||
      std::memcmp(image.data(), kSqliteHeader, sizeof(kSqliteHeader)) != 0) {
    ThrowNotSqlite(label);
  }
  Database db = Database::FromImage(image, label);
  ValidateTrace(db, label);
  return db;
}

std::map<std::string, std::string> ReadMeta(Database& db) {
  std::map<std::string, std::string> meta;
  Statement s = db.Prepare("SELECT key, value FROM meta");
  while (s.Step()) meta[s.ColumnText(0)] = s.ColumnText(1);
  // The rows read as numbers (the trace's span, the schema's version): a damaged or edited one
  // is refused here, naming it, rather than failing wherever it is first read.
  for (const char* key : {"start_ns", "end_ns", "schema_version"}) {
    const auto it = meta.find(key);
    if (it == meta.end()) continue;
    const std::string& text = it->second;
    int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [at, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || at != end) {
      throw Error(db.path() + ": meta row " + key + " = '" + text.substr(0, 40) +
                  "' is not a whole number (damaged or edited trace)");
    }
  }
  return meta;
}

}  // namespace core::store
