// Options every importer takes (shared by the import dispatcher and the importers).
#pragma once

#include <functional>

namespace importers {

struct ImportOptions {
  // Skip malformed events (and a file cut off inside its last event), counting them as import
  // problems, instead of failing.
  bool lenient = false;
  // Fraction of the import done, in [0, 1]; may be empty.
  std::function<void(double)> progress;
};

}  // namespace importers
