// Turns parsed Chrome trace events into fencescope records: pairs B/E, async begin/end and
// legacy S/F, sorts by time, rebuilds nesting depth per thread, binds flows (v1 s/t/f with the
// "bp" rules, v2 bind_id/flow_in/flow_out) to the slices they belong to, maps Kineto device
// streams to queues and packets (kineto_gpu_mapping.h), and writes everything through the
// TraceWriter. Everything that could not be used is counted as a named import problem.
#pragma once

#include <functional>

#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_event.h"

namespace importers::chrome_json {

// `progress` receives a fraction in [0, 1] of the building work; may be empty. Without
// `helper_thread` the parse's tables are freed on this thread, before the records are written.
void BuildTrace(ParsedTrace& trace, core::store::TraceWriter& writer,
                const std::function<void(double)>& progress, bool helper_thread = true);

}  // namespace importers::chrome_json
