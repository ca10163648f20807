// The yardstick of `fencescope bench import RESULTS.db` (raw_table_read.h): a bare read of the
// rocpd tables the importer reads (`SELECT *` of each, the regions' and copies' names joined to
// rocpd_string, the kernels' to rocpd_info_kernel_symbol), touching every value.
#pragma once

#include "core/store/sqlite_db.h"
#include "importers/common/raw_table_read.h"

namespace importers::rocprof {

RawReadResult RawReadRocpdTables(core::store::Database& db);

}  // namespace importers::rocprof
