// Which records of the trace the event table lists: a kind, a text, a time window of event
// indices. Plain function over the packed columns, so the table's filter can be tested alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/store/trace_store.h"

namespace app::gui::state {

// Event indices in [first, last) whose kind is `kind` (0: any kind) and that match `text`
// (empty: any): the text is found, ignoring case, in the name of the record's kind, queue,
// thread or fence, or, when the text is a number (decimal, or 0x hex), equals the record's
// op_id, value, arg0, arg1 or arg2.
std::vector<uint32_t> FilterEvents(const core::store::TraceStore& store, size_t first, size_t last,
                                   int kind, const std::string& text);

}  // namespace app::gui::state
