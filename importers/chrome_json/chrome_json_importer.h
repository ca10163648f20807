// Chrome trace-event JSON importer (chrome://tracing, Perfetto, PyTorch profiler / Kineto):
// decoded bytes -> events (simdjson On Demand over pieces of the event array on both cores, see
// parallel_event_parse.h; the start and end of the array, and any piece that does not parse,
// go through the scanner event by event, see background_scanner.h; no tree of the file) ->
// sorted records through the TraceWriter. The caller owns the writer and commits it.
#pragma once

#include "core/store/trace_writer.h"
#include "importers/common/compressed_input.h"
#include "importers/import_options.h"

namespace importers::chrome_json {

struct ParsedTrace;

// Throws core::Error naming the file, byte offset, line and column of malformed input (unless
// options.lenient, which skips and counts bad events). Writes problems and meta to `writer`.
// The input's bytes are released once parsed (before the records are built), so the file's
// text and the records are never in memory together.
void ImportChromeJson(DecodedInput& input, core::store::TraceWriter& writer,
                      const ImportOptions& options);

// The first half of the import alone: scan and parse every event into `trace` (names go to the
// writer's string table; no event is written). ImportChromeJson = this + BuildTrace.
void ParseChromeJson(const DecodedInput& input, core::store::TraceWriter& writer,
                     const ImportOptions& options, ParsedTrace& trace);

}  // namespace importers::chrome_json
