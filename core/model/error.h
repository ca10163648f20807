// The one exception type fencescope throws for bad input and failed I/O. The message is meant for
// the user: it names the file and the place (line, byte offset, row) where one is known.
#pragma once

#include <stdexcept>
#include <string>

namespace core {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace core
