// Imports an ETW .etl capture with Microsoft-Windows-DxgKrnl events into a fencescope trace.
//
// Stages (each timed, so `bench import` can say whether decoding or SQLite inserts limit it):
//   1. read:   ReadEtl walks the container (buffers -> EVENT_HEADER records).
//   2. decode: DxgKrnl payloads decoded by (id, version), records sorted by time, mapped to
//              fencescope event records in memory (EtlGpuMapper, the GPUView model).
//   3. write:  topology and event rows appended through TraceWriter (the caller commits).
//
// Every record read is counted per (provider, event id, version) as an info row of
// import_problems ("etl_read ..."), so `fencescope info` lists what the capture held and what was
// decoded; unknown providers, ids and versions are counted there too, never fatal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/store/trace_writer.h"
#include "importers/import_options.h"

namespace importers::etl {

struct EtlImportStats {
  uint64_t input_bytes = 0;
  uint64_t etw_events = 0;       // EVENT_HEADER records read
  uint64_t dxgkrnl_events = 0;   // of which Microsoft-Windows-DxgKrnl
  uint64_t records_written = 0;  // rows appended to `events`
  double read_seconds = 0;       // container walk
  double decode_seconds = 0;     // payload decoding and mapping, in memory
  double write_seconds = 0;      // TraceWriter appends (SQLite inserts)
};

// Imports `bytes` (a whole .etl file; `label` names it in messages and meta.source_file) into
// `writer`. Throws core::Error on a corrupt container unless options.lenient (then corrupt
// buffers are skipped and counted). Does not Commit.
EtlImportStats ImportEtl(std::string_view bytes, const std::string& label,
                         core::store::TraceWriter& writer, const ImportOptions& options);

}  // namespace importers::etl
