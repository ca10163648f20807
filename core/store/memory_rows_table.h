// An eponymous SQLite virtual table over rows held in memory, so that one step of
// `INSERT INTO t(...) SELECT * FROM <module>` inserts a whole batch of them: no parameter
// binding per value and one statement step per batch, where a bound INSERT costs a step per row.
// The trace writer inserts its events and its event arguments this way.
//
// `Columns` describes the rows:
//   using Row = ...;                                     // a plain struct
//   static constexpr const char* kDeclaration = "CREATE TABLE x(a, b, ...)";
//   static void Column(const Row&, int column, sqlite3_context*);  // sqlite3_result_*
#pragma once

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/error.h"
#include "core/store/sqlite_db.h"

namespace core::store {

// The rows a statement reading the table sees: set before its step, cleared after.
template <typename Row>
struct RowSpan {
  const Row* rows = nullptr;
  size_t count = 0;
};

// An id column: 0 (none) is NULL.
inline void ResultIdOrNull(sqlite3_context* context, uint32_t id) {
  if (id == 0) sqlite3_result_null(context);
  else sqlite3_result_int64(context, id);
}

template <typename Columns>
struct MemoryRowsModule {
  using Row = typename Columns::Row;
  struct Table {
    sqlite3_vtab base;
    const RowSpan<Row>* source;
  };
  struct Cursor {
    sqlite3_vtab_cursor base;
    const RowSpan<Row>* source;
    size_t row;
  };

  static int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out,
                     char**) {
    const int rc = sqlite3_declare_vtab(db, Columns::kDeclaration);
    if (rc != SQLITE_OK) return rc;
    auto* table = static_cast<Table*>(sqlite3_malloc(sizeof(Table)));
    if (!table) return SQLITE_NOMEM;
    *table = Table{{}, static_cast<const RowSpan<Row>*>(aux)};
    *out = &table->base;
    return SQLITE_OK;
  }
  static int Disconnect(sqlite3_vtab* table) {
    sqlite3_free(table);
    return SQLITE_OK;
  }
  static int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
    info->estimatedCost = 1;
    info->estimatedRows = 4096;
    return SQLITE_OK;
  }
  static int Open(sqlite3_vtab* table, sqlite3_vtab_cursor** out) {
    auto* cursor = static_cast<Cursor*>(sqlite3_malloc(sizeof(Cursor)));
    if (!cursor) return SQLITE_NOMEM;
    *cursor = Cursor{{}, reinterpret_cast<Table*>(table)->source, 0};
    *out = &cursor->base;
    return SQLITE_OK;
  }
  static int Close(sqlite3_vtab_cursor* cursor) {
    sqlite3_free(cursor);
    return SQLITE_OK;
  }
  static int Filter(sqlite3_vtab_cursor* cursor, int, const char*, int, sqlite3_value**) {
    reinterpret_cast<Cursor*>(cursor)->row = 0;
    return SQLITE_OK;
  }
  static int Next(sqlite3_vtab_cursor* cursor) {
    ++reinterpret_cast<Cursor*>(cursor)->row;
    return SQLITE_OK;
  }
  static int Eof(sqlite3_vtab_cursor* cursor) {
    const auto* c = reinterpret_cast<Cursor*>(cursor);
    return c->row >= c->source->count;
  }
  static int Column(sqlite3_vtab_cursor* cursor, sqlite3_context* context, int column) {
    const auto* c = reinterpret_cast<Cursor*>(cursor);
    Columns::Column(c->source->rows[c->row], column, context);
    return SQLITE_OK;
  }
  static int Rowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
    *rowid = static_cast<sqlite3_int64>(reinterpret_cast<Cursor*>(cursor)->row) + 1;
    return SQLITE_OK;
  }

  // Eponymous only (no xCreate): it exists on the connection, never in the database file.
  static constexpr sqlite3_module kModule = {
      0,       nullptr, Connect, BestIndex, Disconnect, nullptr, Open,    Close,   Filter,
      Next,    Eof,     Column,  Rowid,     nullptr,    nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, nullptr, nullptr,   nullptr,    nullptr};
};

// Makes the table `module` on `db` read `source`; returns the statement `insert_sql` (which
// selects from it). `source` must outlive the statement.
template <typename Columns>
Statement PrepareMemoryRowsInsert(sqlite3* db, const char* module, const char* insert_sql,
                                  RowSpan<typename Columns::Row>* source,
                                  const std::string& label) {
  if (sqlite3_create_module(db, module, &MemoryRowsModule<Columns>::kModule, source) !=
      SQLITE_OK) {
    throw Error(label + ": cannot register the table " + module + ": " + sqlite3_errmsg(db));
  }
  return Statement(db, insert_sql, label);
}

// Inserts `rows` in order through `insert` (a statement of PrepareMemoryRowsInsert over
// `source`).
template <typename Row>
void InsertMemoryRows(Statement& insert, RowSpan<Row>& source, const std::vector<Row>& rows) {
  source = RowSpan<Row>{rows.data(), rows.size()};
  try {
    insert.Run();
  } catch (...) {
    source = RowSpan<Row>{};
    throw;
  }
  source = RowSpan<Row>{};
}

}  // namespace core::store
