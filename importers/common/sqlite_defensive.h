// How an importer opens another program's SQLite file: nothing its schema holds may run (no
// trusted schema, so a view or trigger runs no function; views and triggers off; defensive mode;
// no extension loading) and no value longer than `max_value_bytes` is read into memory.
#pragma once

#include <sqlite3.h>

namespace importers {

inline void MakeSqliteDefensive(sqlite3* db, int max_value_bytes = 16 << 20) {
  sqlite3_extended_result_codes(db, 1);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, max_value_bytes);
  sqlite3_exec(db, "PRAGMA cell_size_check = ON", nullptr, nullptr, nullptr);
}

}  // namespace importers
