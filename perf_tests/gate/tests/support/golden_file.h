#pragma once
// Golden-file comparison for the gate's tests: `actual` must equal testdata/expected/<name> byte for byte;
// GATE_UPDATE_GOLDEN=1 writes it instead (testdata/README.md), so that a report's change is a reviewed diff.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::testing {

inline bool updating_golden_files() {
  const char* update = std::getenv("GATE_UPDATE_GOLDEN");
  return update != nullptr && std::string(update) == "1";
}

inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = testdata("expected/" + name);
  if (updating_golden_files()) {
    std::ofstream out(path, std::ios::binary);
    out << actual;
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    std::printf("rewrote %s: review its diff\n", path.c_str());
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << path << " is missing: write it with GATE_UPDATE_GOLDEN=1 (testdata/README.md)";
  std::ostringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(actual, expected.str()) << "the report differs from " << path
                                    << "; if the change is intended, rewrite it with GATE_UPDATE_GOLDEN=1 and "
                                       "review the diff";
}

}  // namespace gpuperf::gate::testing
