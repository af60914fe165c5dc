// The correctness tests: one GoogleTest per registry case with the kCorrectness role, named
// <family>.<variant>__<shape>. Each runs the variant twice on fresh random inputs (two seeds) with
// poisoned outputs and compares with the family's reference. Exits 77 (CTest: skipped) with no GPU.
// Reproduce a failure with the seed it prints: GPUPERF_SEED=<seed> gpuperf_correctness --gtest_filter=...
// gpuperf_correctness --version prints the harness's version ("gpuperf 0.1.0") and exits 0, with no GPU.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "common/device_info.h"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "formats/exit_codes.h"
#include "formats/version.h"
#include "harness/case_check.h"
#include "harness/gpu_info.h"

namespace gpuperf {
namespace {

// gtest filters use ':' and '-', so shapes like "m:17,n:33" become "m_17_n_33".
std::string test_name(const Case& c) {
  std::string name = c.variant + "__" + c.shape;
  for (char& ch : name) {
    if (ch == ':' || ch == ',' || ch == '-' || ch == '.') ch = '_';
  }
  return name;
}

class CaseTest : public ::testing::Test {
 public:
  CaseTest(const Case& c, std::string not_applicable) : case_(c), not_applicable_(std::move(not_applicable)) {}
  void TestBody() override {
    if (!not_applicable_.empty()) GTEST_SKIP() << "not applicable on this GPU: " << not_applicable_;
    const auto instance = case_.make();
    for (int attempt = 0; attempt < 2; ++attempt) {
      const CheckResult result = run_checked(*instance, fresh_seed(), nullptr);
      ASSERT_TRUE(result.ok) << case_.name() << ": " << result.message;
    }
  }

 private:
  const Case& case_;
  std::string not_applicable_;  // why the case cannot run on this GPU; empty when it can
};

}  // namespace
}  // namespace gpuperf

int main(int argc, char** argv) {
  using namespace gpuperf;
  // Before GoogleTest parses its flags and before the GPU is looked for: --version needs neither.
  if (std::any_of(argv + 1, argv + argc, [](const char* arg) { return std::string(arg) == "--version"; })) {
    std::printf("%s\n", formats::kHarnessVersionLine);
    return formats::kExitPass;
  }
  ::testing::InitGoogleTest(&argc, argv);
  std::string why;
  if (!query_gpu(why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return formats::kExitNotJudged;
  }
  static Registry registry;
  DeviceCapabilities device;
  try {
    if (const std::string missing = missing_kernel_image(); !missing.empty()) {
      std::fprintf(stderr, "error: %s\n", missing.c_str());
      return formats::kExitInvalidInput;
    }
    device = device_capabilities();
    register_all_families(registry);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return formats::kExitInvalidInput;
  }
  for (const Case& c : registry.cases()) {
    if ((c.roles & kCorrectness) == 0) continue;
    // A case this GPU cannot run is still a test, reported skipped with the reason: listed, never absent.
    std::string not_applicable = not_applicable_reason(c.needs, device);
    ::testing::RegisterTest(c.family.c_str(), test_name(c).c_str(), nullptr, c.name().c_str(), __FILE__, __LINE__,
                            [&c, not_applicable]() -> ::testing::Test* { return new CaseTest(c, not_applicable); });
  }
  return RUN_ALL_TESTS();
}
