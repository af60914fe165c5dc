// Host-side pieces of the harness that need no GPU.
#include <gtest/gtest.h>

#include "harness/gpu_info.h"
#include "harness/nvml.h"
#include "harness/slowdown_injection.cuh"

namespace gpuperf {
namespace {

TEST(GpuSlug, NamesBaselineFilesFromGpuNames) {
  EXPECT_EQ(gpu_slug("NVIDIA H200"), "nvidia-h200");
  EXPECT_EQ(gpu_slug("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(gpu_slug("  NVIDIA  A100-SXM4 (40GB) "), "nvidia-a100-sxm4-40gb");
}

TEST(SlowdownRules, ParsesPatternsAndPercents) {
  const auto rules = parse_slowdown_rules("reduction/.*=5;matmul/naive/.*=2.5");
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(slowdown_for(rules, "reduction/reduce1/n:1"), 5.0);
  EXPECT_EQ(slowdown_for(rules, "matmul/naive/m:1,n:1,k:1"), 2.5);
  EXPECT_FALSE(slowdown_for(rules, "fusion/axpb/n:1").has_value());
}

TEST(SlowdownRules, MatchesTheWholeName) {
  const auto rules = parse_slowdown_rules("reduce1=5");
  EXPECT_FALSE(slowdown_for(rules, "reduction/reduce1/n:1").has_value());
}

TEST(SlowdownRules, RejectsMalformedSpecificationsWithAHint) {
  for (const char* bad : {"reduction", "=5", "x=abc", "x=5%", "x=-1", "([=5"}) {
    try {
      parse_slowdown_rules(bad);
      FAIL() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("GPUPERF_INJECT_SLOWDOWN"), std::string::npos) << e.what();
    }
  }
}

TEST(ThrottleReasons, ThermalAndPowerBrakeCountButIdleDoesNot) {
  EXPECT_FALSE(Nvml::is_throttled(0x1));   // GPU idle
  EXPECT_FALSE(Nvml::is_throttled(0x4));   // SW power cap: recorded, not discarded
  EXPECT_TRUE(Nvml::is_throttled(0x8));    // HW slowdown
  EXPECT_TRUE(Nvml::is_throttled(0x40));   // HW thermal
  EXPECT_TRUE(Nvml::is_throttled(0x80));   // HW power brake
  EXPECT_EQ(Nvml::describe(0x24), "SW power cap, SW thermal slowdown");
}

}  // namespace
}  // namespace gpuperf
