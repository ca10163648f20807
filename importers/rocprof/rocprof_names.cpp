#include "importers/rocprof/rocprof_names.h"

namespace importers::rocprof {

std::string KernelDisplayName(std::string_view symbol) {
  for (std::string_view suffix : {std::string_view(" [clone .kd]"), std::string_view(" (.kd)"),
                                  std::string_view(".kd")}) {
    if (symbol.size() > suffix.size() && symbol.ends_with(suffix)) {
      symbol.remove_suffix(suffix.size());
      break;
    }
  }
  return std::string(symbol);
}

std::string CopyDirection(std::string_view operation, bool src_gpu, bool dst_gpu) {
  struct Named {
    std::string_view operation, direction;
  };
  static constexpr Named kNamed[] = {{"HOST_TO_DEVICE", "HtoD"},
                                     {"DEVICE_TO_HOST", "DtoH"},
                                     {"DEVICE_TO_DEVICE", "DtoD"},
                                     {"HOST_TO_HOST", "HtoH"}};
  for (const Named& n : kNamed) {
    if (operation.ends_with(n.operation)) return std::string(n.direction);
  }
  return std::string(src_gpu ? "D" : "H") + "to" + (dst_gpu ? "D" : "H");
}

}  // namespace importers::rocprof
