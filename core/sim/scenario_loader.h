// Reads a scenario from TOML (format: schemas/scenario_format.md). Every mistake is a core::Error
// naming the file, the line and the key.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/sim/frame_expr.h"
#include "core/sim/scenario.h"

namespace core::sim {

// The longest time a scenario (or `simulate --duration-ms`) may give: 1e9 ms, about 11.6 days.
// Larger values would overflow the nanosecond clock once added to other times.
inline constexpr double kMaxDurationMs = 1e9;

// Parses scenario text; `source_name` names it in messages (a path or "default.toml").
Scenario ParseScenario(std::string_view text, const std::string& source_name);

// A path to a .toml file, or the name of a scenario embedded in the binary ("default",
// "ring_buffer", ...). A path that exists wins over an embedded name.
Scenario LoadScenario(const std::string& path_or_name);

// Names of the embedded scenarios (assets/scenarios/*.toml without the extension), sorted.
std::vector<std::string> EmbeddedScenarioNames();

}  // namespace core::sim
