// The packed cache's section bytes (core/cache/serialize.h FromBytes), as CachedTrace decodes
// a section it read from a trace file: the first byte picks the section (store, events, recon,
// analyses), the rest are its bytes. Load must refuse damaged bytes with CacheDamaged; what it
// accepts is then read in full (every value of every packed column and table), as the window
// and the reports would, so that a layout the checks let through cannot read out of bounds.
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/cache/cached_trace.h"
#include "core/cache/section_fields.h"
#include "core/cache/serialize.h"
#include "core/report/report_data.h"
#include "core/store/trace_store.h"

namespace {

uint64_t g_sink = 0;  // keeps the reads from being optimised away

template <typename T>
void Touch(const core::store::PackedColumn<T>& column) {
  for (size_t i = 0; i < column.size(); ++i) g_sink += static_cast<uint64_t>(column[i]);
}
template <typename T>
void Touch(const core::store::PackedTable<T>& table) {
  for (size_t i = 0; i < table.size(); ++i) {
    const T row = table[i];
    g_sink += reinterpret_cast<const unsigned char*>(&row)[0];
  }
}
template <typename T>
void Touch(const T&) {}  // plain data: Load checked its lengths

template <typename Tuple>
void TouchAll(const Tuple& fields) {
  std::apply([](const auto&... field) { (Touch(field), ...); }, fields);
}

void TouchRecon(const core::analysis::Reconstruction& r) {
  TouchAll(std::tie(r.packets, r.signals, r.waits, r.cpu_waits, r.interrupts, r.tasks,
                    r.mode_changes, r.preemptions, r.tdrs));
  for (const auto& q : r.queues) {
    TouchAll(std::tie(q.packets, q.segments, q.signals, q.waits, q.interrupts, q.missing,
                      q.preemptions, q.tdrs));
  }
  for (const auto& t : r.threads) {
    TouchAll(std::tie(t.cpu_waits, t.cpu_signals, t.submissions, t.tasks));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t* bytes = data + 1;
  const size_t n = size - 1;
  try {
    switch (data[0] % 4) {
      case 0: {
        core::store::TraceStore store;
        auto fields = core::cache::StoreFields(store);
        core::cache::FromBytes(bytes, n, fields);
        TouchAll(fields);
        // What the store is then asked: events by rowid, where the columns agree (the product
        // uses no section where they do not).
        if (core::cache::EventColumnsAgree(store)) {
          for (int64_t rowid : {int64_t{-7}, int64_t{0}, int64_t{1}, int64_t{INT32_MAX} + 5}) {
            g_sink += store.IndexOfRowId(rowid);
          }
          for (size_t i = 0; i < store.events.size() && i < 64; ++i) {
            g_sink += store.IndexOfRowId(store.events.RowIdOf(i));
          }
        }
        break;
      }
      case 1: {
        core::store::EventColumns events;
        auto fields = core::cache::BulkFields(events);
        core::cache::FromBytes(bytes, n, fields);
        TouchAll(fields);
        break;
      }
      case 2: {
        core::analysis::Reconstruction recon;
        core::cache::FromBytes(bytes, n, recon);
        TouchRecon(recon);
        break;
      }
      default: {
        core::report::ReportData report;
        core::cache::FromBytes(bytes, n, report);
        break;
      }
    }
  } catch (const core::cache::CacheDamaged&) {
  }
  return 0;
}
