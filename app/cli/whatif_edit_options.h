// The edit options of `fencescope whatif` (--scale, --remove-sync, ...), registered on any
// subcommand that asks the same question: `whatif` itself and `view`, which opens the
// prediction beside the trace.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/replay/whatif_edits.h"

namespace app::cli {

struct WhatIfEditOptions {
  std::vector<std::string> scale, scale_queue, remove_waits, remove_sync, remove_cpu_waits,
      priority;
  std::vector<int64_t> remove_wait, remove_cpu_wait;
  std::optional<double> cpu_scale;
  std::string launch_latency;
  std::string fence_mode, preemption_granularity;
};

// `options` must outlive the parse (the subcommand's callback reads it).
void AddWhatIfEditOptions(CLI::App& cmd, WhatIfEditOptions& options);

// Throws core::Error for a malformed NAME=VALUE, a value that is not a number, a priority that
// is not an integer.
core::replay::Edits EditsOf(const WhatIfEditOptions& options);

}  // namespace app::cli
