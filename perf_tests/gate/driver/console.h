#pragma once
// The driver's own lines on the error stream: notes while it runs, and the line that ends a test early.

#include <ostream>
#include <string>

namespace gpuperf::gate::driver {

// "[perf_gate] <text>": what the driver does or why it left something out.
inline void note(std::ostream& err, const std::string& text) { err << "[perf_gate] " << text << "\n"; }

}  // namespace gpuperf::gate::driver
