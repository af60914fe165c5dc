// The registry's rules, on cases that never touch a GPU (make() is never called).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/device_info.h"
#include "common/global_memory_bytes.h"
#include "common/registry.h"
#include "common/variant_cases.h"

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

Case referring_case(const std::string& variant, unsigned roles, const std::string& compared_with,
                    const std::string& speedup_over = "") {
  Case c = make_case(variant, roles, "fusion");
  c.compared_with = compared_with;
  c.speedup_over = speedup_over;
  return c;
}

std::string reference_error_of(const Registry& r) {
  try {
    r.validate_references();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
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

// A name reaches every report and CI log: one outside formats/names.h's rule stops the program at start-up
// (gpuperf_bench and gpuperf_correctness exit 2 with the message), named escaped, with the rule.
void poisoned_variant(Registry& r) {
  r.add(make_case("checked", kCorrectness));
  r.add(make_case("x\n::error::pwned", kPerf));
}
void poisoned_shape(Registry& r) {
  Case c = make_case("timed", kBoth);
  c.shape = "n:`<img src=x>`";
  r.add(c);
}
void overlong_name(Registry& r) { r.add(make_case(std::string(150, 'v'), kBoth)); }

TEST(Registry, ANameOutsideTheRuleIsAStartUpError) {
  const std::string variant = error_of("fusion", poisoned_variant);
  EXPECT_NE(variant.find("registry: variant or shape 'x\\x0a::error::pwned' has a control character (\\x0a) at 1; "
                         "a variant or shape is letters, digits and _ . , : - (baselines/README.md, Names) "
                         "(register_fusion)"),
            std::string::npos)
      << variant;
  EXPECT_EQ(variant.find('\n'), std::string::npos) << "the message itself stays on one line";
  EXPECT_NE(error_of("fusion", poisoned_shape).find("variant or shape 'n:`<img src=x>`' has '`' at 2"),
            std::string::npos);
  EXPECT_NE(error_of("fusion", overlong_name).find("benchmark name 'fusion/" + std::string(53, 'v') +
                                                    "...' is 161 characters long (at most 160)"),
            std::string::npos);
  EXPECT_NE(error_of("fu\x1b[31msion", both_roles).find("registry: family name 'fu\\x1b[31msion' has a control "
                                                         "character (\\x1b) at 2"),
            std::string::npos);
  EXPECT_NE(error_of("fam-ily", both_roles).find("family name 'fam-ily' has '-' at 3"), std::string::npos);
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
  if (declared == 0 && !GPUPERF_MATMUL_BUILT) GTEST_SKIP() << "matmul is not among this build's GPUPERF_ONLY_FAMILIES";
  EXPECT_GT(declared, 0);
}

TEST(KernelImage, AGpuNoBuiltArchitectureServesIsToldWhatToConfigure) {
  EXPECT_EQ(no_kernel_image_message(70, "75-real,80-real,90"),
            "this build has no code for this GPU (compute capability 7.0; built for "
            "CMAKE_CUDA_ARCHITECTURES=75-real,80-real,90): configure with -DCMAKE_CUDA_ARCHITECTURES=native on this "
            "host (or add 70) and build again");
}

TEST(CaseShape, AxesAreWrittenInTheOrderGiven) {
  EXPECT_EQ(shape({{"m", 1024}, {"n", 1024}, {"k", 1024}}), "m:1024,n:1024,k:1024");
  EXPECT_EQ(shape({{"n", std::int64_t{1} << 25}, {"match", "0.25"}}), "n:33554432,match:0.25");
  EXPECT_EQ(shape({{"stride", 100}}), "stride:100");
  EXPECT_EQ(shape({{"n", 0}}), "n:0") << "0 is a number, not a null text";
}

TEST(GlobalMemoryBytes, CountsElementsOfTheirTypeInBytes) {
  EXPECT_EQ(double(GlobalMemoryBytes()), 0.0);
  EXPECT_EQ(double(GlobalMemoryBytes().reads<int>(1000)), 4000.0);
  EXPECT_EQ(double(GlobalMemoryBytes().reads<float>(3).writes<double>(2)), 28.0);
  constexpr std::int64_t kQuarterGi = std::int64_t{1} << 28;
  EXPECT_EQ(double(GlobalMemoryBytes().reads<int>(kQuarterGi).reads<int>(kQuarterGi)), 2147483648.0) << "2 GiB";
}

TEST(References, ADanglingReferenceIsAnErrorNamingBothCases) {
  Registry r;
  r.add(make_case("naive", kBoth, "fusion"));
  r.add(referring_case("fused", kBoth, "", "fusion/naiev/n:1"));
  EXPECT_EQ(reference_error_of(r),
            "registry: case 'fusion/fused/n:1' has speedup_over 'fusion/naiev/n:1', which is no registered case: "
            "register it, or fix the name");
}

TEST(References, ACaseMayNameOneAddedAfterIt) {
  Registry r;
  r.add(referring_case("fused", kBoth, "ceiling/device_copy/n:1", "fusion/naive/n:1"));
  r.add(make_case("naive", kBoth, "fusion"));
  r.add(make_case("device_copy", kBoth, "ceiling"));
  EXPECT_EQ(reference_error_of(r), "");
}

TEST(References, ATimedCaseIsComparedOnlyWithATimedOne) {
  Registry r;
  r.add(make_case("device_copy", kCorrectness, "ceiling"));
  r.add(referring_case("fused", kPerf, "ceiling/device_copy/n:1"));
  EXPECT_NE(reference_error_of(r).find("has compared_with 'ceiling/device_copy/n:1', which is never timed"),
            std::string::npos)
      << reference_error_of(r);
}

TEST(References, ACaseIsNotComparedWithItself) {
  Registry r;
  r.add(referring_case("fused", kBoth, "fusion/fused/n:1"));
  EXPECT_NE(reference_error_of(r).find("'fusion/fused/n:1' has compared_with 'fusion/fused/n:1': itself"),
            std::string::npos);
}

TEST(References, AFamilyThisBuildLeavesOutIsNotLookedFor) {
  Registry r;  // as built with GPUPERF_ONLY_FAMILIES=fusion: no ceiling family
  r.add(referring_case("fused", kBoth, "ceiling/device_copy/n:1"));
  EXPECT_EQ(reference_error_of(r), "");
}

void refers_within_family(Registry& r) {
  Case naive = make_case("naive", kBoth);
  r.add(naive);
  Case fused = make_case("fused", kBoth);
  fused.speedup_over = speedup_over_naive(r, "naive", fused);
  naive.speedup_over = speedup_over_naive(r, "naive", naive);
  EXPECT_EQ(naive.speedup_over, "") << "the naive variant is not compared with itself";
  r.add(fused);
}

TEST(References, AFamilyNamesItsOwnCasesWithoutKnowingItsName) {
  Registry r;
  EXPECT_THROW(r.name_in_family("naive", "n:1"), std::logic_error) << "outside add_family()";
  r.add_family("fusion", refers_within_family);
  EXPECT_EQ(r.cases()[1].speedup_over, "fusion/naive/n:1");
  EXPECT_EQ(reference_error_of(r), "");
}

// add_variant_cases(): the loop every register_<family>() shares.
struct TableVariant {
  const char* name;
  bool any_stride;
};
const TableVariant kTableVariants[] = {{"naive", true}, {"vec4", false}};
struct TablePoint {
  int stride;
  unsigned roles;
};
const TablePoint kTablePoints[] = {{1, kCorrectness}, {2, kBoth}, {4, kPerf}};

void every_variant_at_every_point(Registry& r) {
  add_variant_cases(r, kTableVariants, kTablePoints, [&r](Case& c, const TableVariant&, const TablePoint& point) {
    c.shape = shape({{"stride", point.stride}});
    c.speedup_over = speedup_over_naive(r, kTableVariants[0].name, c);
    c.make = []() -> std::unique_ptr<Instance> { return nullptr; };
  });
}

TEST(VariantCases, EveryVariantInTableOrderThenEveryPointWithItsRoles) {
  Registry r;
  r.add_family("coalescing", every_variant_at_every_point);
  std::vector<std::string> names;
  std::vector<unsigned> roles;
  for (const Case& c : r.cases()) {
    names.push_back(c.name());
    roles.push_back(c.roles);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"coalescing/naive/stride:1", "coalescing/naive/stride:2",
                                             "coalescing/naive/stride:4", "coalescing/vec4/stride:1",
                                             "coalescing/vec4/stride:2", "coalescing/vec4/stride:4"}));
  EXPECT_EQ(roles, (std::vector<unsigned>{kCorrectness, kBoth, kPerf, kCorrectness, kBoth, kPerf}));
  EXPECT_EQ(r.cases()[4].speedup_over, "coalescing/naive/stride:2") << "what describe() sets is kept";
}

void stride_one_only_where_the_variant_says(Registry& r) {
  add_variant_cases(r, kTableVariants, kTablePoints, [](Case& c, const TableVariant& variant, const TablePoint& point) {
    if (point.stride != 1 && !variant.any_stride) return false;
    c.shape = shape({{"stride", point.stride}});
    c.make = []() -> std::unique_ptr<Instance> { return nullptr; };
    return true;
  });
}

TEST(VariantCases, APairDescribeRefusesIsLeftOut) {
  Registry r;
  r.add_family("coalescing", stride_one_only_where_the_variant_says);
  std::vector<std::string> names;
  for (const Case& c : r.cases()) names.push_back(c.name());
  EXPECT_EQ(names, (std::vector<std::string>{"coalescing/naive/stride:1", "coalescing/naive/stride:2",
                                             "coalescing/naive/stride:4", "coalescing/vec4/stride:1"}));
}

TEST(VariantCases, DescribeSeesTheTablesOwnElements) {
  Registry r;
  std::vector<const TableVariant*> seen;
  add_variant_cases(r, kTableVariants, kTablePoints,
                    [&seen](Case& c, const TableVariant& variant, const TablePoint& point) {
                      seen.push_back(&variant);
                      c.family = "coalescing";
                      c.shape = shape({{"stride", point.stride}});
                      c.make = []() -> std::unique_ptr<Instance> { return nullptr; };
                    });
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen[0], &kTableVariants[0]) << "make() may keep a reference to a variant of a static table";
  EXPECT_EQ(seen[5], &kTableVariants[1]);
}

// The real families, as both programs register them at start-up (no case is made or run, so no GPU).
// A build of a few families (GPUPERF_ONLY_FAMILIES, as scripts/gpu_check.sh --families makes) registers
// those only: GPUPERF_FAMILIES_BUILT says how many the build has.
TEST(Registry, EveryFamilyPassesItsRulesAndNamesEveryCase) {
  Registry r;
  ASSERT_NO_THROW(register_all_families(r));
  std::map<std::string, unsigned> roles_of_family;
  for (const Case& c : r.cases()) roles_of_family[c.family] |= c.roles;
  EXPECT_EQ(roles_of_family.size(), static_cast<std::size_t>(GPUPERF_FAMILIES_BUILT));
  for (const auto& [family, roles] : roles_of_family) EXPECT_EQ(roles, unsigned{kBoth}) << family;
}

// What each family's cases are shown against (register_all_families() has validated the names).
TEST(References, TheRealFamiliesNameTheirCeilingAndNaiveVariant) {
  Registry r;
  register_all_families(r);
  const auto of = [&r](const std::string& name) -> const Case& {
    const Case* c = r.find(name);
    if (c == nullptr) throw std::runtime_error(name + " is not registered");
    return *c;
  };
  // In a build of every family, every reference resolves (validation skips families left out).
  if (r.find(read_only_ceiling()) != nullptr) {
    for (const Case& c : r.cases()) {
      if (!c.compared_with.empty()) {
        EXPECT_NE(r.find(c.compared_with), nullptr) << c.name();
      }
      if (!c.speedup_over.empty()) {
        EXPECT_NE(r.find(c.speedup_over), nullptr) << c.name();
      }
    }
  }
  for (const Case& c : r.cases()) {
    if (c.family == "ceiling" || c.metric == Metric::kCycles) {
      EXPECT_EQ(c.compared_with, "") << c.name();
    }
  }
  if (r.find("reduction/reduce9_shfl_down_last_warp/n:33554432") != nullptr) {
    const Case& reduce9 = of("reduction/reduce9_shfl_down_last_warp/n:33554432");
    EXPECT_EQ(reduce9.compared_with, "ceiling/read_only_stream/n:268435456");
    EXPECT_EQ(reduce9.speedup_over, "reduction/reduce1_interleaved_divergent/n:33554432");
    EXPECT_EQ(of("reduction/reduce1_interleaved_divergent/n:33554432").speedup_over, "");
  }
  if (r.find("matmul/tf32_mma_tensor_core/m:4096,n:4096,k:4096") != nullptr) {
    const Case& mma = of("matmul/tf32_mma_tensor_core/m:4096,n:4096,k:4096");
    EXPECT_EQ(mma.compared_with, "matmul/cublas_sgemm_tf32/m:4096,n:4096,k:4096");
    EXPECT_EQ(mma.speedup_over, "matmul/naive/m:4096,n:4096,k:4096");
    EXPECT_EQ(of("matmul/blocktile_2d_vec4/m:4096,n:4096,k:4096").compared_with,
              "matmul/cublas_sgemm/m:4096,n:4096,k:4096");
    EXPECT_EQ(of("matmul/cublas_sgemm_tf32/m:4096,n:4096,k:4096").compared_with, "");
  }
  if (r.find("fusion/axpb_fused/n:268435456") != nullptr) {
    const Case& axpb = of("fusion/axpb_fused/n:268435456");
    EXPECT_EQ(axpb.compared_with, "ceiling/device_copy/n:268435456");
    EXPECT_EQ(axpb.speedup_over, "fusion/axpb_through_temporary/n:268435456") << "the naive form of its own operation";
  }
}

}  // namespace
}  // namespace gpuperf
