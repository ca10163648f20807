// The yardstick of `fencescope bench import` on an SQLite capture (an Nsight Systems export, a
// rocpd database): a bare read of the rows the importer reads, touching every value, with
// nothing built from them. The import's time against it says what the importer adds to SQLite
// reading the same rows.
#pragma once

#include <cstdint>

#include "core/store/sqlite_db.h"

namespace importers {

struct RawReadResult {
  uint64_t rows = 0;
  uint64_t checksum = 0;  // the integers and text lengths read (keeps the pass honest)
};

// Steps through every row of `rows`, adding each value to `r`.
void TouchEveryRow(core::store::Statement& rows, RawReadResult& r);

}  // namespace importers
