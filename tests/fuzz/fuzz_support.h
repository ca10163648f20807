// Shared by the libFuzzer harnesses: an importer's records go to a trace held in memory
// (TraceWriter::InMemory, an SQLite ":memory:" database), so that nothing touches the disk per
// input and a harness runs thousands of inputs a second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/error.h"
#include "core/store/trace_writer.h"

namespace fuzz_support {

inline std::string_view Bytes(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `import(writer)` into a trace in memory and commits it, as `fencescope import` does into
// a file. False when the import refused the input with core::Error (the clear error bad input
// must get); any other failure (a crash, a sanitizer report, another exception) is a finding.
template <typename Import>
bool ImportInMemory(std::string_view source, Import&& import) {
  try {
    core::store::TraceWriter writer(core::store::TraceWriter::InMemory{}, source);
    import(writer);
    writer.Commit();
    return true;
  } catch (const core::Error&) {
    return false;
  }
}

// Whether an importer with a --lenient mode reads this input leniently: by the parity of its
// length, so that each input costs one import (strict, then lenient on every refused input ran
// most inputs twice, at 60 % of the speed) while both modes see every kind of input: a mutation
// that adds or drops a byte moves an input to the other mode.
inline bool LenientFor(size_t size) {
  return size % 2 == 1;
}

}  // namespace fuzz_support
