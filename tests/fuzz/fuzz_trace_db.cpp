// The trace database loader: the bytes as a trace file held in memory (LoadTraceImage: the
// format checks, the topology tables, the events, and on damage the quick_check description),
// as view, stats and report load a file, without writing it to disk. What loads is then read
// as those commands read it: its span, every event's columns, and the reconstruction every
// analysis starts from (a trace that loads but that the reconstruction cannot take is a finding).
#include <cstddef>
#include <cstdint>

#include "core/analysis/reconstruction.h"
#include "core/model/error.h"
#include "core/store/trace_store.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const core::store::TraceStore store =
        core::store::LoadTraceImage(fuzz_support::Bytes(data, size), "fuzz.db");
    volatile int64_t sink = store.start_ns() + store.end_ns();
    const auto& events = store.events;
    for (size_t i = 0; i < events.size(); ++i) {
      for (int c = 0; c < static_cast<int>(core::model::EventColumn::kFlags) + 1; ++c) {
        sink = sink + events.ColumnValue(static_cast<core::model::EventColumn>(c), i);
      }
      sink = sink + static_cast<int64_t>(store.IndexOfRowId(events.RowIdOf(i)));
    }
    const core::analysis::Reconstruction recon = core::analysis::Reconstruct(store);
    sink = sink + static_cast<int64_t>(recon.packets.size());
  } catch (const core::Error&) {
  }
  return 0;
}
