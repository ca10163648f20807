// The Vulkan capture layer's record files (vk_record_format.h), through the importer
// `fencescope import` runs on a capture folder (ImportVulkanRecords), into a trace in memory.
// The input is one process's file.
#include <cstddef>
#include <cstdint>

#include "importers/vulkan/vk_record_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_support::ImportInMemory("vulkan-layer", [&](core::store::TraceWriter& writer) {
    importers::vulkan::ImportVulkanRecordBytes({{"fuzz.vkrec", fuzz_support::Bytes(data, size)}},
                                               writer);
  });
  return 0;
}
