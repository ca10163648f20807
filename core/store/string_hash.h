// A hash of text that also takes a std::string_view, so that an unordered container keyed by
// std::string is searched with a view (std::equal_to<> beside it) without building a string
// for each lookup: the interning tables of the writers and importers.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace core::store {

struct TransparentStringHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const noexcept {
    return std::hash<std::string_view>{}(text);
  }
};

}  // namespace core::store
