// The counters an importer reports about a capture (links made, records it could not place),
// written as info-level import problems so that `fencescope info` lists them. Zero counts are
// left out.
#pragma once

#include <cstdint>
#include <span>

#include "core/store/trace_writer.h"

namespace importers {

struct ImportCounter {
  const char* name;
  uint64_t count;
  const char* description;
};

inline void CountNonZero(core::store::TraceWriter& writer,
                         std::span<const ImportCounter> counters) {
  for (const ImportCounter& c : counters) {
    if (c.count) writer.CountProblem(c.name, core::model::Severity::kInfo, c.description, c.count);
  }
}

}  // namespace importers
