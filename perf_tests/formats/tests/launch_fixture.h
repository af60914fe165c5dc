#pragma once
// A captured kernel launch for the tests of fingerprints (formats' model, the gate's code comparison, the
// harness's verified cases): the fields that identify it; each test sets the rest it is about.

#include <array>
#include <string>
#include <utility>

#include "formats/fingerprint.h"

namespace gpuperf::formats::testing {

inline KernelLaunch launch_of(std::string name, std::string mangled_name, std::array<int, 3> grid,
                              std::array<int, 3> block, int registers_per_thread, std::string sass_hash) {
  KernelLaunch launch;
  launch.name = std::move(name);
  launch.mangled_name = std::move(mangled_name);
  launch.grid = grid;
  launch.block = block;
  launch.registers_per_thread = registers_per_thread;
  launch.sass_hash = std::move(sass_hash);
  return launch;
}

}  // namespace gpuperf::formats::testing
