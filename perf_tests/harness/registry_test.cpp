// The registry's rules, on cases that never touch a GPU (make() is never called).
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "common/device_info.h"
#include "common/registry.h"

namespace gpuperf {
namespace {

Case make_case(const std::string& variant, unsigned roles, const std::string& family = "") {
  Case c;
  c.family = family;
  c.variant = variant;
  c.shape = "n:1";
  c.roles = roles;
  c.make = []() -> std::unique_ptr<Instance> { return nullptr; };
  return c;
}

void both_roles(Registry& r) {
  r.add(make_case("checked", kCorrectness));
  r.add(make_case("timed", kPerf));
}
void only_perf(Registry& r) { r.add(make_case("timed", kPerf)); }
void only_correctness(Registry& r) { r.add(make_case("checked", kCorrectness)); }
void nothing(Registry&) {}
void names_another_family(Registry& r) { r.add(make_case("timed", kBoth, "reductoin")); }

std::string error_of(const std::string& family, void (*register_family)(Registry&)) {
  Registry r;
  try {
    r.add_family(family, register_family);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Registry, TheDeclaredNameIsEveryCasesFamily) {
  Registry r;
  r.add_family("reduction", both_roles);
  ASSERT_EQ(r.cases().size(), 2u);
  EXPECT_EQ(r.cases()[0].name(), "reduction/checked/n:1");
  EXPECT_EQ(r.cases()[1].family, "reduction");
}

TEST(Registry, ACaseOfAnotherFamilyIsAStartUpError) {
  const std::string e = error_of("reduction", names_another_family);
  EXPECT_NE(e.find("register_reduction added 'reductoin/timed/n:1' of family 'reductoin'"), std::string::npos) << e;
}

TEST(Registry, AFamilyWithoutCorrectnessOrPerfCasesIsAnError) {
  EXPECT_NE(error_of("fusion", only_perf).find("family 'fusion' registered 1 case(s) but no correctness case"),
            std::string::npos);
  EXPECT_NE(error_of("fusion", only_correctness).find("but no perf case"), std::string::npos);
  EXPECT_NE(error_of("fusion", nothing).find("registered 0 case(s)"), std::string::npos);
}

TEST(Registry, OutsideAFamilyACaseNeedsItsFamily) {
  Registry r;
  EXPECT_THROW(r.add(make_case("timed", kPerf)), std::invalid_argument);
  r.add(make_case("timed", kPerf, "fusion"));
  EXPECT_THROW(r.add(make_case("timed", kPerf, "fusion")), std::invalid_argument) << "duplicate name";
  r.add_family("reduction", both_roles);  // the family set by add_family() ends with it
  EXPECT_THROW(r.add(make_case("later", kPerf)), std::invalid_argument);
}

TEST(Requirements, ACaseIsNotApplicableWhereTheGpuLacksWhatItNeeds) {
  const Requirements tensor_core_tiles{80, 105 * 1024};
  EXPECT_EQ(not_applicable_reason(tensor_core_tiles, {90, 227 * 1024}), "") << "H100/H200";
  EXPECT_EQ(not_applicable_reason(tensor_core_tiles, {80, 163 * 1024}), "") << "A100";
  EXPECT_EQ(not_applicable_reason(tensor_core_tiles, {75, 64 * 1024}),
            "needs compute capability 8.0 or newer; this GPU has 7.5");
  EXPECT_EQ(not_applicable_reason(tensor_core_tiles, {89, 99 * 1024}),
            "needs 105 KiB of shared memory per block; this GPU allows 99 KiB")
      << "L4/L40S: new enough, but too little shared memory";
  EXPECT_EQ(not_applicable_reason(Requirements{}, {75, 64 * 1024}), "") << "no needs: runs everywhere";
}

TEST(Requirements, TheTensorCoreMatmulDeclaresItsNeeds) {
  Registry r;
  register_all_families(r);
  int declared = 0;
  for (const Case& c : r.cases()) {
    if (c.variant != "tf32_mma_tensor_core") continue;
    ++declared;
    EXPECT_EQ(c.needs.min_compute_capability, 80) << c.name();
    EXPECT_GT(c.needs.shared_memory_per_block_bytes, 99 * 1024) << c.name();
  }
  EXPECT_GT(declared, 0);
}

TEST(KernelImage, AGpuNoBuiltArchitectureServesIsToldWhatToConfigure) {
  EXPECT_EQ(no_kernel_image_message(70, "75-real,80-real,90"),
            "this build has no code for this GPU (compute capability 7.0; built for "
            "CMAKE_CUDA_ARCHITECTURES=75-real,80-real,90): configure with -DCMAKE_CUDA_ARCHITECTURES=native on this "
            "host (or add 70) and build again");
}

// The real families, as both programs register them at start-up (no case is made or run, so no GPU).
TEST(Registry, EveryFamilyPassesItsRulesAndNamesEveryCase) {
  Registry r;
  ASSERT_NO_THROW(register_all_families(r));
  std::map<std::string, unsigned> roles_of_family;
  for (const Case& c : r.cases()) roles_of_family[c.family] |= c.roles;
  EXPECT_GE(roles_of_family.size(), 9u);
  for (const auto& [family, roles] : roles_of_family) EXPECT_EQ(roles, unsigned{kBoth}) << family;
}

}  // namespace
}  // namespace gpuperf
