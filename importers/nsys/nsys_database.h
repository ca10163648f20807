// An `nsys export --type sqlite` file opened for reading, and nothing else: read-only (the file
// is never written; an uncompressed file is opened `immutable`, an image held in memory is
// deserialized read-only), with SQLite's defensive settings (no trusted schema, so a view or
// trigger of the file runs no function; defensive mode; no extension loading; a bound on the
// length of a value). What the importer asks of it: which tables and columns the file has, and
// each table's rows, with errors that name the file, the table and the row.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "core/store/sqlite_db.h"

namespace importers::nsys {

class NsysDatabase {
 public:
  // Opens the file at `path` (`label` names it in messages).
  static NsysDatabase OpenFile(const std::filesystem::path& path, std::string label);
  // Opens the bytes of a database file held in memory; `bytes` must outlive the database.
  static NsysDatabase OpenImage(std::string_view bytes, std::string label);
  NsysDatabase(NsysDatabase&& other) noexcept;
  NsysDatabase& operator=(NsysDatabase&&) = delete;
  NsysDatabase(const NsysDatabase&) = delete;
  ~NsysDatabase();

  const std::string& label() const { return m_label; }
  // Tables (type 'table' in sqlite_master; a view of the same name does not count).
  bool HasTable(std::string_view table) const;
  // The columns of a table (empty when there is no such table).
  std::set<std::string> Columns(std::string_view table) const;
  // A statement over the file; SQLite's errors name the file.
  core::store::Statement Prepare(std::string_view sql) const;

 private:
  NsysDatabase(sqlite3* db, std::string label);
  void ReadTableNames();
  sqlite3* m_db = nullptr;
  std::string m_label;
  std::set<std::string, std::less<>> m_tables;
};

// True when the tables of an SQLite file are those of an Nsight Systems export: StringIds and
// at least one CUPTI_ACTIVITY_KIND_* or TARGET_INFO_* table.
bool LooksLikeNsysExport(const NsysDatabase& db);

// Whether the file at `path` is an Nsight Systems export (false when SQLite cannot read it).
bool IsNsysExportFile(const std::filesystem::path& path);

}  // namespace importers::nsys
