// Reads the tables of an Nsight Systems export the importer uses into an NsysCapture. Schemas
// from 2.9 (EXPORT_META_DATA, no eventSyncId) to 3.24 (META_DATA_EXPORT, greenContextId,
// deprecatedSyncType) read alike: a column the importer needs that a table lacks is an error
// naming the file, the table and the column; a NULL where a value is needed names the row.
#pragma once

#include <functional>

#include "importers/nsys/nsys_capture.h"
#include "importers/nsys/nsys_database.h"

namespace importers::nsys {

// `progress` gets the fraction of the tables read (may be empty).
NsysCapture ReadCapture(const NsysDatabase& db, const std::function<void(double)>& progress);

}  // namespace importers::nsys
