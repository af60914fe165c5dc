// A family in one file (common/family.h): the cases its builders register and the errors of a family
// declared wrongly, without a GPU (make() is never called here; correctness.harness runs them on one:
// family_gpu_test.cu).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "common/family.h"

namespace {

// Stand-ins for a team's launchers, of a signature of their own: never called here.
struct SaxpyArgs {
  const float* x;
  const float* y;
  float a;
  std::int64_t n;
  float* out;
};
void naive(const SaxpyArgs&, cudaStream_t) {}
void vec4(const SaxpyArgs&, cudaStream_t) {}

}  // namespace

// As examples/consumer/saxpy/register_saxpy.cu declares its family.
GPUPERF_FAMILY(onefile_saxpy) {
  constexpr float kA = 1.5f;
  const auto calling = [](void (*launch)(const SaxpyArgs&, cudaStream_t)) {
    return [launch](const float* x, const float* y, float* out, std::int64_t n, cudaStream_t stream) {
      launch({x, y, kA, n, out}, stream);
    };
  };
  family.elementwise<float(float, float)>()
      .sizes({std::int64_t{1} << 26})
      .expected([](std::int64_t i, const float* x, const float* y) { return double{kA} * x[i] + y[i]; })
      .tolerance(1e-6, 1e-6)
      .flops_per_element(2)
      .variant("naive", calling(naive))
      .variant("grid_stride_vec4", calling(vec4));
}

namespace gpuperf {
namespace {

std::vector<std::string> names_of(const Registry& r) {
  std::vector<std::string> names;
  for (const Case& c : r.cases()) names.push_back(c.name());
  return names;
}

std::string error_of(void (*register_family)(Registry&)) {
  Registry r;
  try {
    r.add_family("fam", register_family);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

void run_nothing(const float*, float*, std::int64_t, cudaStream_t) {}

// A valid element-wise set of one variant, for the error cases to break one thing of.
ElementWiseCases<float(float)>& copy_cases(Family& family) {
  return family.elementwise<float(float)>()
      .expected([](std::int64_t i, const float* x) { return double{x[i]}; })
      .tolerance(0.0, 0.0)
      .variant("copy", run_nothing);
}

TEST(OneFileFamily, ElementWiseCasesAreNamedRoledAndCountedAsAFamilyByHand) {
  Registry r;
  r.add_family("onefile_saxpy", register_onefile_saxpy);
  ASSERT_EQ(names_of(r), (std::vector<std::string>{
                             "onefile_saxpy/naive/n:1", "onefile_saxpy/naive/n:1000003", "onefile_saxpy/naive/n:67108864",
                             "onefile_saxpy/grid_stride_vec4/n:1", "onefile_saxpy/grid_stride_vec4/n:1000003",
                             "onefile_saxpy/grid_stride_vec4/n:67108864"}));
  const Case& timed = r.cases()[5];
  EXPECT_EQ(timed.roles, unsigned{kBoth});
  EXPECT_EQ(r.cases()[4].roles, unsigned{kCorrectness});
  EXPECT_DOUBLE_EQ(timed.bytes, 12.0 * (1 << 26)) << "x and y read, out written: 3 floats an element";
  EXPECT_DOUBLE_EQ(timed.flops, 2.0 * (1 << 26));
  EXPECT_EQ(timed.speedup_over, "onefile_saxpy/naive/n:67108864") << "the first variant is the naive one";
  EXPECT_EQ(r.cases()[2].speedup_over, "");
  EXPECT_TRUE(static_cast<bool>(timed.make));
  EXPECT_EQ(timed.metric, Metric::kTime);
  EXPECT_EQ(timed.runs_per_sample, 1);
}

struct Sum {
  explicit Sum(const Point& p) : n(p.get("n")) {}
  std::int64_t n;
};

void sums_by_block(Registry& registry) {
  Family family(registry, "fam");
  family.cases<Sum>()
      .axes({size_axis("n", {1 << 24}), int_axis("block", {128, 256})})
      .inputs([](Sum&, std::uint64_t) {})
      .poison([](Sum&) {})
      .check([](Sum&) { return CheckResult::pass(); })
      .bytes([](const Point& p) { return 4.0 * static_cast<double>(p.get("n")); })
      .flops([](const Point& p) { return static_cast<double>(p.get("n")); })
      .each_case([](Case& c, const Point& p) { c.runs_per_sample = p.get("n") < 1000 ? 10 : 1; })
      .variant("atomic", [](Sum&, cudaStream_t, const Point& p) { (void)p.get("block"); })
      .variant("tree", [](Sum&, cudaStream_t) {});
  family.add_cases();
}

TEST(OneFileFamily, LambdaCasesSweepTheProductOfTheirAxes) {
  Registry r;
  r.add_family("fam", sums_by_block);
  ASSERT_EQ(r.cases().size(), 12u) << "2 variants x 3 sizes x 2 blocks";
  EXPECT_EQ(r.cases()[0].name(), "fam/atomic/n:1,block:128");
  EXPECT_EQ(r.cases()[1].name(), "fam/atomic/n:1,block:256");
  EXPECT_EQ(r.cases()[11].name(), "fam/tree/n:16777216,block:256");
  EXPECT_EQ(r.cases()[11].speedup_over, "fam/atomic/n:16777216,block:256");
  EXPECT_DOUBLE_EQ(r.cases()[11].bytes, 4.0 * (1 << 24));
  EXPECT_DOUBLE_EQ(r.cases()[11].flops, 1.0 * (1 << 24));
  EXPECT_EQ(r.cases()[0].runs_per_sample, 10) << "each_case() sets what the builder does not";
  EXPECT_EQ(r.cases()[11].runs_per_sample, 1);
}

// As the families of kernels/ declare theirs: one set per variant where the variant decides its buffers,
// the naive variant's speedups named across sets, a ceiling to compare with, a size timed only.
void sums_as_kernels_declares_them(Registry& registry) {
  Family family(registry, "fam");
  const auto sum_cases = [&family]() -> LambdaCases<Sum>& {
    return family.cases<Sum>()
        .sizes({1 << 25}, kOddSizes, {1 << 28})
        .inputs([](Sum&, std::uint64_t) {})
        .poison([](Sum&) {})
        .check([](Sum&) { return CheckResult::pass(); })
        .compared_with("ceiling/read_only_stream/n:268435456");
  };
  sum_cases().variant("copy_frame", [](Sum&, cudaStream_t) {}).speedup_over("");
  sum_cases().variant("atomic", [](Sum&, cudaStream_t) {});
  sum_cases().variant("vec4", [](Sum&, cudaStream_t) {}).speedup_over("atomic");
  family.add_cases();
}

TEST(OneFileFamily, SetsNameTheirCeilingTheirNaiveVariantAndSizesTimedOnly) {
  Registry r;
  r.add_family("fam", sums_as_kernels_declares_them);
  ASSERT_EQ(r.cases().size(), 12u) << "3 sets of one variant x 4 sizes";
  EXPECT_EQ(r.cases()[8].name(), "fam/vec4/n:1");
  EXPECT_EQ(r.cases()[2].roles, unsigned{kBoth}) << "a perf size is timed and checked";
  EXPECT_EQ(r.cases()[3].name(), "fam/copy_frame/n:268435456");
  EXPECT_EQ(r.cases()[3].roles, unsigned{kPerf}) << "a perf-only size is timed, never checked";
  EXPECT_EQ(r.cases()[0].roles, unsigned{kCorrectness});
  for (const Case& c : r.cases()) EXPECT_EQ(c.compared_with, "ceiling/read_only_stream/n:268435456") << c.name();
  EXPECT_EQ(r.cases()[3].speedup_over, "") << "speedup_over(\"\"): none";
  EXPECT_EQ(r.cases()[7].speedup_over, "") << "a set's first variant is its own naive one by default";
  EXPECT_EQ(r.cases()[11].speedup_over, "fam/atomic/n:268435456") << "speedup_over() names another set's variant";
  r.validate_references();  // the ceiling's family is not built here: not checked; atomic's cases exist
}

void adds_each_type(Registry& registry) {
  Family family(registry, "fam");
  for_each_type<float, int>([&](auto tag) {
    using T = typename decltype(tag)::type;
    auto& cases = family.elementwise<T(T, T)>()
                      .axes({type_axis<T>("T"), size_axis("n", {1 << 20})})
                      .expected([](std::int64_t i, const T* x, const T* y) { return x[i] + y[i]; })
                      .variant("add", [](const T*, const T*, T*, std::int64_t, cudaStream_t) {});
    if constexpr (std::is_floating_point_v<T>) cases.tolerance(1e-6, 0.0);
  });
  family.add_cases();
}

TEST(OneFileFamily, ALoopOverTypesNamesTheCasesOfEachByATypeAxis) {
  Registry r;
  r.add_family("fam", adds_each_type);
  EXPECT_EQ(names_of(r), (std::vector<std::string>{"fam/add/T:f32,n:1", "fam/add/T:f32,n:1000003",
                                                   "fam/add/T:f32,n:1048576", "fam/add/T:i32,n:1",
                                                   "fam/add/T:i32,n:1000003", "fam/add/T:i32,n:1048576"}));
  EXPECT_DOUBLE_EQ(r.cases()[5].bytes, 12.0 * (1 << 20));
}

void no_tolerance(Registry& registry) {
  Family family(registry, "fam");
  family.elementwise<float(float)>()
      .sizes({1 << 20})
      .expected([](std::int64_t i, const float* x) { return double{x[i]}; })
      .variant("copy", run_nothing);
  family.add_cases();
}
void integers_with_tolerance(Registry& registry) {
  Family family(registry, "fam");
  family.elementwise<int(int)>()
      .sizes({1 << 20})
      .expected([](std::int64_t i, const int* x) { return x[i]; })
      .tolerance(1.0, 0.0)
      .variant("copy", [](const int*, int*, std::int64_t, cudaStream_t) {});
  family.add_cases();
}
void no_reference(Registry& registry) {
  Family family(registry, "fam");
  family.elementwise<float(float)>().sizes({1 << 20}).tolerance(0.0, 0.0).variant("copy", run_nothing);
  family.add_cases();
}
void no_variant(Registry& registry) {
  Family family(registry, "fam");
  family.elementwise<float(float)>()
      .sizes({1 << 20})
      .expected([](std::int64_t i, const float* x) { return double{x[i]}; })
      .tolerance(0.0, 0.0);
  family.add_cases();
}
void variant_twice(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).sizes({1 << 20}).variant("copy", run_nothing);
  family.add_cases();
}
void same_names_in_two_sets(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).sizes({1 << 20});
  copy_cases(family).sizes({1 << 20});
  family.add_cases();
}
void variant_outside_the_rule(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).sizes({1 << 20}).variant("vec4 `x`", run_nothing);
  family.add_cases();
}
void no_sizes(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family);
  family.add_cases();
}
void sizes_twice(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).sizes({1 << 20}).axes({size_axis("n", {1 << 22})});
  family.add_cases();
}
void empty_axes(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).axes({});
  family.add_cases();
}
void empty_axis(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).axes({size_axis("n", {1 << 20}), int_axis("block", {})});
  family.add_cases();
}
void no_length_axis(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).axes({int_axis("block", {128})});
  family.add_cases();
}
void no_odd_size(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).sizes({1 << 20}, {1, 1024});
  family.add_cases();
}
void no_range(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).sizes({1 << 20}).inputs_between(1.0, -1.0);
  family.add_cases();
}
void fractional_integers(Registry& registry) {
  Family family(registry, "fam");
  family.elementwise<int(int)>()
      .sizes({1 << 20})
      .inputs_between(-0.5, 3.0)
      .expected([](std::int64_t i, const int* x) { return x[i]; })
      .variant("copy", [](const int*, int*, std::int64_t, cudaStream_t) {});
  family.add_cases();
}
void lambdas_missing(Registry& registry) {
  Family family(registry, "fam");
  family.cases<Sum>().sizes({1 << 20}).inputs([](Sum&, std::uint64_t) {}).variant("tree", [](Sum&, cudaStream_t) {});
  family.add_cases();
}
void checked_only(Registry& registry) {
  Family family(registry, "fam");
  copy_cases(family).axes({size_axis("n", {1 << 20}), int_axis("block", {128}, kCorrectness)});
  family.add_cases();
}

TEST(OneFileFamily, AFamilyDeclaredWronglyIsAStartUpErrorNamingItsSetAndTheFix) {
  EXPECT_EQ(error_of(no_tolerance),
            "register_fam: element-wise cases of copy: a floating output needs a tolerance: .tolerance(abs, rel), "
            "e.g. (1e-6, 1e-6) for a float result of one or two roundings, with the reason beside it");
  EXPECT_EQ(error_of(integers_with_tolerance),
            "register_fam: element-wise cases of copy: an integer output is compared exactly: remove .tolerance()");
  EXPECT_NE(error_of(no_reference).find("register_fam: element-wise cases of copy: no reference: give .expected("),
            std::string::npos);
  EXPECT_EQ(error_of(no_variant), "register_fam: element-wise cases: no variant: add one with .variant(name, run)");
  EXPECT_EQ(error_of(variant_twice),
            "register_fam: element-wise cases of copy, copy: the variant 'copy' is given twice: give each its own name");
  EXPECT_EQ(error_of(same_names_in_two_sets), "registry: duplicate case name 'fam/copy/n:1'");
  EXPECT_NE(error_of(variant_outside_the_rule).find("variant or shape 'vec4 `x`' has ' ' at 4"), std::string::npos)
      << error_of(variant_outside_the_rule);
  EXPECT_EQ(error_of(no_sizes),
            "register_fam: element-wise cases of copy: no sizes: give .sizes({perf sizes}) or .axes({...})");
  EXPECT_EQ(error_of(sizes_twice),
            "register_fam: element-wise cases of copy: .sizes() or .axes() is given 2 times: give one, once");
  EXPECT_EQ(error_of(empty_axes),
            "register_fam: element-wise cases of copy: no axes: give at least one, e.g. size_axis(\"n\", {1 << 26})");
  EXPECT_EQ(error_of(empty_axis), "register_fam: element-wise cases of copy: axis 'block' has no values: give at least one");
  EXPECT_NE(error_of(no_length_axis).find("the point block:128 has no integer axis 'n', the arrays' length"),
            std::string::npos);
  EXPECT_NE(error_of(no_odd_size).find("register_fam: element-wise cases of copy: size axis 'n' checks no odd size"),
            std::string::npos);
  EXPECT_NE(error_of(no_range).find(".inputs_between(1.000000, -1.000000) is no range: give lo < hi"), std::string::npos);
  EXPECT_NE(error_of(fractional_integers).find("fills int inputs: give whole numbers"), std::string::npos);
  EXPECT_EQ(error_of(lambdas_missing), "register_fam: cases of tree: no .poison([](State&) {...}): poison every output "
                                       "(gpuperf::poison)");
  EXPECT_NE(error_of(checked_only).find("registered 3 case(s) but no perf case"), std::string::npos)
      << "the registry's own rules still hold: " << error_of(checked_only);
}

TEST(OneFileFamily, ASetNotAddedRegistersNothingAndTheRegistrySaysSo) {
  EXPECT_NE(error_of([](Registry& registry) {
              Family family(registry, "fam");
              copy_cases(family).sizes({1 << 20});  // no add_cases(): GPUPERF_FAMILY calls it
            }).find("registered 0 case(s) but no correctness case"),
            std::string::npos);
}

}  // namespace
}  // namespace gpuperf
