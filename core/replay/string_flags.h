// A yes / no per string of a trace, decided once per string: scans of every event then test a
// slice's name by its id (most events of a PyTorch trace are slices; testing each slice's text
// was most of those scans).
#pragma once

#include <string>
#include <vector>

#include "core/store/trace_store.h"

namespace core::replay {

// [StringId] -> pred(the string).
template <class Pred>
std::vector<bool> FlagStrings(const core::store::TraceStore& store, Pred&& pred) {
  std::vector<bool> out(store.strings.size());
  for (size_t sid = 0; sid < store.strings.size(); ++sid) out[sid] = pred(store.strings[sid]);
  return out;
}

}  // namespace core::replay
