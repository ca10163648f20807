// The yardstick of `fencescope bench import FILE.sqlite`: a bare read of the activity tables the
// Nsight Systems importer reads (every row of each, `SELECT *`, the name columns joined to
// StringIds), touching every value, with nothing built from it. The import's time against it
// says what the importer adds to SQLite reading the same rows.
#pragma once

#include "importers/common/raw_table_read.h"
#include "importers/nsys/nsys_database.h"

namespace importers::nsys {

using importers::RawReadResult;

RawReadResult RawReadActivityTables(const NsysDatabase& db);

}  // namespace importers::nsys
