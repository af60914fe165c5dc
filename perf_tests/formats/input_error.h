#pragma once
// The one error the gate reports for bad input: its message names the file, says what is wrong and what
// to do. The CLI turns it into kExitInvalidInput; anything else escaping the library is a bug.

#include <stdexcept>
#include <string>

namespace gpuperf::formats {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace gpuperf::formats
