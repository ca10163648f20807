// Deterministic jitter for the synthetic bench workloads: a 64-bit LCG, so runs are identical
// everywhere.
#pragma once

#include <cstdint>

#include "core/model/types.h"

namespace app::gui::bench {

struct Jitter {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  // A value in [0, range); range > 0.
  core::model::TimeNs Next(core::model::TimeNs range) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<core::model::TimeNs>((state >> 33) % static_cast<uint64_t>(range));
  }
};

}  // namespace app::gui::bench
