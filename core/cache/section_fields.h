// What the store's two sections of the packed cache hold (cached_trace.h): the fields of a
// TraceStore and of its bulk event columns, tied so that one LayoutHash, Save and Load serve
// a store being read into and a const one being written. Shared by CachedTrace and the packed
// cache's fuzz harness, which decodes hostile bytes into exactly these.
#pragma once

#include <tuple>

#include "core/store/trace_store.h"

namespace core::cache {

inline constexpr const char* kStoreSection = "store";
inline constexpr const char* kEventsSection = "events";
inline constexpr const char* kReconSection = "recon";

// Everything of a TraceStore but the path and the bulk columns.
template <typename Store>
auto StoreFields(Store& s) {
  return std::tie(s.meta, s.strings, s.adapters, s.engines, s.queues, s.processes, s.contexts,
                  s.threads, s.fences, s.psos, s.resources, s.counters, s.flows, s.problems,
                  s.events.ts, s.events.kind, s.events.rowid, s.index_of_rowid, s.events_hash,
                  s.events_by_rowid);
}
// The bulk event columns (EventColumns::ReleaseBulkColumns frees these).
template <typename Columns>
auto BulkFields(Columns& e) {
  return std::tie(e.queue, e.thread, e.fence, e.value, e.op, e.arg0, e.arg1, e.arg2, e.flags);
}

}  // namespace core::cache
