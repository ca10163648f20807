// The scenario TOML loader (ParseScenario: TOML syntax, then the scenario's own checks).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/error.h"
#include "core/sim/scenario_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    core::sim::ParseScenario(std::string_view(reinterpret_cast<const char*>(data), size),
                             "fuzz.toml");
  } catch (const core::Error&) {
  }
  return 0;
}
