// The small frame expressions scenario steps use for fence values and slots.
#pragma once

#include <string>
#include <string_view>

#include "core/sim/scenario.h"

namespace core::sim {

// Parses a frame expression ("i - 3", "2*i + 1", "i % 3", "7"). Throws core::Error with `where`
// prefixed to the message.
FrameExpr ParseFrameExpr(std::string_view text, const std::string& where);

}  // namespace core::sim
