#include "importers/common/raw_table_read.h"

#include <sqlite3.h>

namespace importers {

void TouchEveryRow(core::store::Statement& rows, RawReadResult& r) {
  sqlite3_stmt* s = rows.handle();
  while (rows.Step()) {
    ++r.rows;
    for (int i = 0; i < rows.ColumnCount(); ++i) {
      r.checksum += sqlite3_column_type(s, i) == SQLITE_TEXT
                        ? static_cast<uint64_t>(sqlite3_column_bytes(s, i))
                        : static_cast<uint64_t>(sqlite3_column_int64(s, i));
    }
  }
}

}  // namespace importers
