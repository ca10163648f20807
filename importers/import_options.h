// Options every importer takes (shared by the import dispatcher and the importers).
#pragma once

#include <cstdint>
#include <functional>

#include "importers/common/compressed_input.h"

namespace importers {

struct ImportOptions {
  // Skip malformed events (and a file cut off inside its last event), counting them as import
  // problems, instead of failing.
  bool lenient = false;
  // Most bytes a gzip stream or zip member may inflate to (--max-inflated); more is an error
  // naming the file and the compressed byte where the limit was passed.
  uint64_t max_inflated = kDefaultMaxInflated;
  // Fraction of the import done, in [0, 1]; may be empty.
  std::function<void(double)> progress;
};

}  // namespace importers
