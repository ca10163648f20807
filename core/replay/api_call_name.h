// A host API call's name as users write it: Nsight Systems exports name runtime and driver calls
// with their API version (`cudaDeviceSynchronize_v3020`, `cudaLaunchKernel_v7000`); Kineto,
// rocprofv3 and the whatif options name them without it.
#pragma once

#include <string_view>

namespace core::replay {

// `name` without a trailing `_v` + digits.
inline std::string_view ApiCallName(std::string_view name) {
  const size_t at = name.rfind("_v");
  if (at == std::string_view::npos || at == 0 || at + 2 == name.size()) return name;
  for (size_t i = at + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, at);
}

}  // namespace core::replay
