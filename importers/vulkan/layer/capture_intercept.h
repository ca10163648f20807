// The device functions the layer intercepts: queue submissions, CPU waits, host signals,
// semaphore and fence creation, presents, acquires and object names.
#pragma once

#include <vulkan/vulkan.h>

namespace fencescope_layer {

// The layer's own function of that name ("vkQueueSubmit", ...), or nullptr.
PFN_vkVoidFunction InterceptedFunction(const char* name);

}  // namespace fencescope_layer
