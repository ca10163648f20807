// Which streams each hardware queue carried, as the importer recorded it where streams share a
// pool of hardware queues (rocprofv3 / rocpd: HIP streams on HSA queues; meta
// `queue_streams.<queue name>`). The report and the window's queue rows show it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/store/trace_store.h"

namespace core::report {

// "1 (120), 2 (3)": each stream and the packets it put on the queue, most used first; empty
// when the trace does not say.
std::string QueueStreams(const core::store::TraceStore& store, std::string_view queue_name);

// "Streams each hardware queue carried (packets per stream): Q: 1 (120), 2 (3); ...", for the
// queues named, in their order; empty when the trace records it for none.
std::string QueueStreamsSentence(const core::store::TraceStore& store,
                                 const std::vector<std::string>& queue_names);

}  // namespace core::report
