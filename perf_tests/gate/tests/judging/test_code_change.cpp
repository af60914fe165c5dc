// What changed between two fingerprints: each field's line, kernels replaced, added and removed along the
// alignment, library versions, the order of the lines, the warnings, the unknown cases; and the short
// kernel names the lines use.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "formats/tests/launch_fixture.h"
#include "gate/judging/code_change.h"

namespace gpuperf::gate {
namespace {

using Lines = std::vector<std::string>;

const char* const kGemm128 = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32warpgroupsize1x1x1_execute_"
                             "segment_k_off_kernel__5x_cublas";
const char* const kGemm64 = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x128x32warpgroupsize1x1x1_execute_"
                            "segment_k_off_kernel__5x_cublas";

formats::KernelLaunch reduce_launch() {
  formats::KernelLaunch k = formats::testing::launch_of("reduce_sum(float*, float const*, int)", "_Z10reduce_sumPfPKfi",
                                                        {128, 1, 1}, {512, 1, 1}, 32, "0123456789abcdef");
  k.dynamic_shared_memory_bytes = 2048;
  return k;
}

formats::KernelLaunch tiled_launch() {
  formats::KernelLaunch k = formats::testing::launch_of("void tiled<256>(float*, float const*)", "_Z5tiledILi256EEvPfPKf",
                                                        {528, 1, 1}, {256, 1, 1}, 64, "86d1a29afca82517");
  k.static_shared_memory_bytes = 1024;
  k.launches = 2;
  return k;
}

// A cuBLAS kernel: a plain C name, demangled as itself.
formats::KernelLaunch gemm_launch(const char* name) {
  formats::KernelLaunch k;
  k.name = name;
  k.mangled_name = name;
  k.grid = {8, 8, 2};
  k.block = {384, 1, 1};
  k.dynamic_shared_memory_bytes = 98304;
  k.registers_per_thread = 168;
  k.sass_hash = "fedcba9876543210";
  return k;
}

formats::Fingerprint captured(std::vector<formats::KernelLaunch> kernels) {
  formats::Fingerprint f;
  f.capture_status = formats::kCapturedByCupti;
  f.libraries = {{"cublas", "13.0.0"}};
  f.kernels = std::move(kernels);
  return f;
}

formats::Fingerprint three_kernels() { return captured({reduce_launch(), tiled_launch(), gemm_launch(kGemm128)}); }

TEST(CompareCode, SameFingerprintsAreSame) {
  const CodeChange change = compare_code(three_kernels(), three_kernels());
  EXPECT_EQ(change.comparison, CodeComparison::kSame);
  EXPECT_EQ(change.changes, Lines{});
  EXPECT_EQ(change.warnings, Lines{});
  EXPECT_EQ(change.unknown_reason, "");

  const CodeChange nothing_launched = compare_code(captured({}), captured({}));
  EXPECT_EQ(nothing_launched.comparison, CodeComparison::kSame);
  EXPECT_EQ(nothing_launched.changes, Lines{});
}

TEST(CompareCode, EachFieldChangeIsExactlyItsLine) {
  struct Case {
    std::function<void(formats::KernelLaunch&)> change;
    std::string line;
    bool warning;
  };
  const std::vector<Case> cases = {
      {[](formats::KernelLaunch& k) { k.sass_hash = "1111111111111111"; }, "tiled<256>: SASS changed", false},
      {[](formats::KernelLaunch& k) { k.registers_per_thread = 96; }, "tiled<256>: registers 64 -> 96", false},
      {[](formats::KernelLaunch& k) { k.local_memory_per_thread_bytes = 48; }, "tiled<256>: local memory 0 -> 48 B/thread",
       true},
      {[](formats::KernelLaunch& k) { k.static_shared_memory_bytes = 4096; },
       "tiled<256>: static shared memory 1024 -> 4096 B", false},
      {[](formats::KernelLaunch& k) { k.grid = {128, 1, 1}; }, "tiled<256>: grid 528x1x1 -> 128x1x1 blocks", true},
      {[](formats::KernelLaunch& k) { k.block = {128, 1, 1}; }, "tiled<256>: block 256x1x1 -> 128x1x1 threads", false},
      {[](formats::KernelLaunch& k) { k.dynamic_shared_memory_bytes = 4096; },
       "tiled<256>: dynamic shared memory 0 -> 4096 B", false},
      {[](formats::KernelLaunch& k) { k.launches = 3; }, "tiled<256>: launches 2 -> 3", false},
  };
  for (const Case& c : cases) {
    formats::Fingerprint now = three_kernels();
    c.change(now.kernels[1]);
    const CodeChange change = compare_code(three_kernels(), now);
    EXPECT_EQ(change.comparison, CodeComparison::kChanged) << c.line;
    EXPECT_EQ(change.changes, Lines{c.line});
    EXPECT_EQ(change.warnings, c.warning ? Lines{c.line} : Lines{}) << c.line;
  }
}

TEST(CompareCode, ReplacedCublasKernelIsOneLine) {
  const formats::Fingerprint now = captured({reduce_launch(), tiled_launch(), gemm_launch(kGemm64)});
  const CodeChange change = compare_code(three_kernels(), now);
  EXPECT_EQ(change.comparison, CodeComparison::kChanged);
  EXPECT_EQ(change.changes, Lines{std::string("kernel ") + kGemm128 + " replaced by " + kGemm64});
  EXPECT_EQ(change.warnings, Lines{}) << "a replacement is not an added kernel";
}

TEST(CompareCode, AddedAndRemovedKernels) {
  const formats::Fingerprint two = captured({reduce_launch(), gemm_launch(kGemm128)});
  const CodeChange added = compare_code(two, three_kernels());
  EXPECT_EQ(added.comparison, CodeComparison::kChanged);
  EXPECT_EQ(added.changes, Lines{"kernel tiled<256> added"});
  EXPECT_EQ(added.warnings, Lines{"kernel tiled<256> added"});

  const CodeChange removed = compare_code(three_kernels(), two);
  EXPECT_EQ(removed.changes, Lines{"kernel tiled<256> removed"});
  EXPECT_EQ(removed.warnings, Lines{});
}

TEST(CompareCode, AlignsAlongTheLongestCommonSubsequence) {
  // Position by position, every kernel after the added one would look replaced.
  const CodeChange inserted =
      compare_code(captured({tiled_launch(), reduce_launch(), tiled_launch()}),
                   captured({tiled_launch(), gemm_launch(kGemm64), reduce_launch(), tiled_launch()}));
  EXPECT_EQ(inserted.changes, Lines{std::string("kernel ") + kGemm64 + " added"});

  // One gap, two kernels before and one now: the first pair is a replacement, the rest removed.
  const CodeChange gap =
      compare_code(captured({tiled_launch(), gemm_launch(kGemm128), reduce_launch(), tiled_launch()}),
                   captured({tiled_launch(), gemm_launch(kGemm64), tiled_launch()}));
  EXPECT_EQ(gap.changes, (Lines{std::string("kernel ") + kGemm128 + " replaced by " + kGemm64,
                                "kernel reduce_sum removed"}));

  // Two kernels swapped: either could be the one kept; always the second.
  const CodeChange swapped = compare_code(captured({reduce_launch(), tiled_launch()}),
                                          captured({tiled_launch(), reduce_launch()}));
  EXPECT_EQ(swapped.changes, (Lines{"kernel reduce_sum removed", "kernel reduce_sum added"}));
  EXPECT_EQ(swapped.warnings, Lines{"kernel reduce_sum added"});
}

TEST(CompareCode, ReplacementBySameShortNameSaysTheNamesDiffer) {
  // Two instantiations that differ only past what short_kernel_name() keeps.
  formats::KernelLaunch before = tiled_launch();
  before.name = "void tiled<" + std::string(60, 'a') + "1>(float*)";
  before.mangled_name = "_Z5tiledI1aEvPf";
  formats::KernelLaunch now = before;
  now.name = "void tiled<" + std::string(60, 'a') + "2>(float*)";
  now.mangled_name = "_Z5tiledI1bEvPf";
  const std::string name = "tiled<" + std::string(43, 'a') + "...>";
  ASSERT_EQ(short_kernel_name(before), name);
  EXPECT_EQ(compare_code(captured({before}), captured({now})).changes,
            Lines{"kernel " + name + " replaced by another " + name + " (mangled names differ)"});
}

TEST(CompareCode, LibraryVersionsChangedAddedAndRemoved) {
  formats::Fingerprint before = three_kernels();
  before.libraries = {{"cub", "3.0.0"}, {"cublas", "13.0.0"}, {"curand", "10.4.0"}};
  formats::Fingerprint now = three_kernels();
  now.libraries = {{"cublas", "13.1.0"}, {"cudnn", "9.1.0"}, {"curand", "10.4.0"}};
  const CodeChange change = compare_code(before, now);
  EXPECT_EQ(change.comparison, CodeComparison::kChanged);
  EXPECT_EQ(change.changes,
            (Lines{"library cub 3.0.0 removed", "cublas 13.0.0 -> 13.1.0", "library cudnn 9.1.0 added"}));
  EXPECT_EQ(change.warnings, Lines{});
}

TEST(CompareCode, OrdersMostImportantFirstThenByLaunchOrder) {
  formats::Fingerprint now = captured({reduce_launch(), tiled_launch(), gemm_launch(kGemm64)});
  now.libraries["cublas"] = "13.1.0";
  formats::KernelLaunch& reduce = now.kernels[0];
  reduce.sass_hash.clear();
  reduce.launches = 2;
  reduce.grid = {256, 1, 1};
  reduce.registers_per_thread = 40;
  formats::KernelLaunch& tiled = now.kernels[1];
  tiled.launches = 1;
  tiled.block = {128, 1, 1};
  tiled.registers_per_thread = 96;
  tiled.sass_hash = "1111111111111111";
  const Lines expected = {
      std::string("kernel ") + kGemm128 + " replaced by " + kGemm64,
      "tiled<256>: SASS changed",
      "cublas 13.0.0 -> 13.1.0",
      "reduce_sum: registers 32 -> 40",
      "tiled<256>: registers 64 -> 96",
      "reduce_sum: grid 128x1x1 -> 256x1x1 blocks",
      "tiled<256>: block 256x1x1 -> 128x1x1 threads",
      "reduce_sum: launches 1 -> 2",
      "tiled<256>: launches 2 -> 1",
      "SASS of reduce_sum unknown",
  };
  EXPECT_EQ(compare_code(three_kernels(), now).changes, expected);
}

TEST(CompareCode, NotCapturedIsUnknownWithTheReason) {
  formats::Fingerprint old_baseline;  // written before fingerprints were captured
  formats::Fingerprint no_cupti;
  no_cupti.capture_status = "CUPTI unavailable: libcupti.so.13 not found";
  formats::Fingerprint unexplained;

  const CodeChange no_baseline = compare_code(old_baseline, three_kernels());
  EXPECT_EQ(no_baseline.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(no_baseline.unknown_reason, "the baseline has no fingerprint");
  EXPECT_EQ(no_baseline.changes, Lines{}) << "nothing to list against an unknown side";
  EXPECT_EQ(no_baseline.warnings, Lines{});

  EXPECT_EQ(compare_code(no_cupti, three_kernels()).unknown_reason,
            "the baseline has no fingerprint (CUPTI unavailable: libcupti.so.13 not found)");

  const CodeChange not_now = compare_code(three_kernels(), no_cupti);
  EXPECT_EQ(not_now.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(not_now.unknown_reason, "not captured now (CUPTI unavailable: libcupti.so.13 not found)");
  EXPECT_EQ(not_now.changes, Lines{});
  EXPECT_EQ(compare_code(three_kernels(), unexplained).unknown_reason, "not captured now (no reason given)");

  const CodeChange neither = compare_code(old_baseline, no_cupti);
  EXPECT_EQ(neither.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(neither.unknown_reason,
            "the baseline has no fingerprint; not captured now (CUPTI unavailable: libcupti.so.13 not found)");
}

TEST(CompareCode, UnknownSassIsNotSame) {
  formats::Fingerprint without_hash = three_kernels();
  without_hash.kernels[1].sass_hash.clear();
  const std::vector<std::pair<formats::Fingerprint, formats::Fingerprint>> pairs = {
      {without_hash, three_kernels()}, {three_kernels(), without_hash}, {without_hash, without_hash}};
  for (const auto& [before, now] : pairs) {
    const CodeChange change = compare_code(before, now);
    EXPECT_EQ(change.comparison, CodeComparison::kChanged);
    EXPECT_EQ(change.changes, Lines{"SASS of tiled<256> unknown"});
    EXPECT_EQ(change.warnings, Lines{});
  }
  formats::Fingerprint more_registers = without_hash;
  more_registers.kernels[1].registers_per_thread = 96;
  EXPECT_EQ(compare_code(three_kernels(), more_registers).changes,
            (Lines{"tiled<256>: registers 64 -> 96", "SASS of tiled<256> unknown"}));
}

TEST(CompareCode, WarnsOfSpillsAndHalvedGridsOnly) {
  auto warnings = [](const std::function<void(formats::KernelLaunch&)>& before_change,
                     const std::function<void(formats::KernelLaunch&)>& now_change) {
    formats::Fingerprint before = three_kernels();
    formats::Fingerprint now = three_kernels();
    before_change(before.kernels[1]);
    now_change(now.kernels[1]);
    const CodeChange change = compare_code(before, now);
    EXPECT_EQ(change.changes.size(), 1u);
    return change.warnings;
  };
  auto keep = [](formats::KernelLaunch&) {};
  auto lmem = [](int bytes) { return [bytes](formats::KernelLaunch& k) { k.local_memory_per_thread_bytes = bytes; }; };
  auto grid = [](int x, int y) { return [x, y](formats::KernelLaunch& k) { k.grid = {x, y, 1}; }; };

  EXPECT_EQ(warnings(keep, lmem(48)), Lines{"tiled<256>: local memory 0 -> 48 B/thread"});
  EXPECT_EQ(warnings(lmem(16), lmem(48)), Lines{"tiled<256>: local memory 16 -> 48 B/thread"})
      << "more spills where there were some";
  EXPECT_EQ(warnings(lmem(48), lmem(16)), Lines{}) << "fewer spills";

  EXPECT_EQ(warnings(keep, grid(264, 1)), Lines{"tiled<256>: grid 528x1x1 -> 264x1x1 blocks"});
  EXPECT_EQ(warnings(keep, grid(265, 1)), Lines{}) << "more than half";
  EXPECT_EQ(warnings(keep, grid(1056, 1)), Lines{}) << "a grid that grew";
  EXPECT_EQ(warnings(keep, grid(264, 2)), Lines{}) << "as many blocks, another shape";
  EXPECT_EQ(warnings(grid(8, 8), grid(8, 4)), Lines{"tiled<256>: grid 8x8x1 -> 8x4x1 blocks"})
      << "total blocks count every dimension";
  EXPECT_EQ(warnings(keep, [](formats::KernelLaunch& k) { k.registers_per_thread = 255; }), Lines{});
  EXPECT_EQ(warnings(keep, [](formats::KernelLaunch& k) { k.launches = 5; }), Lines{});
}

// Copies and sets: compared in order where both sides captured them, and only then all the GPU work.
formats::Fingerprint with_copies(std::vector<formats::CopyOrSet> copies) {
  formats::Fingerprint f = three_kernels();
  f.copies = std::move(copies);
  f.covers_copies = true;
  return f;
}

TEST(CompareCode, CopiesAndSetsAddedRemovedResizedAndRepeatedAreTheirLines) {
  const formats::CopyOrSet set{"memset", 4194304, 1, 1};
  const formats::CopyOrSet copy{"memcpy DtoD", 1048576, 2, 1};
  const CodeChange same = compare_code(with_copies({set, copy}), with_copies({set, copy}));
  EXPECT_EQ(same.comparison, CodeComparison::kSame);
  EXPECT_TRUE(same.covers_all_gpu_work);

  const CodeChange added = compare_code(with_copies({copy}), with_copies({set, copy}));
  EXPECT_EQ(added.comparison, CodeComparison::kChanged);
  EXPECT_EQ(added.changes, Lines{"memset of 4194304 bytes added"});
  EXPECT_EQ(added.warnings, Lines{"memset of 4194304 bytes added"}) << "work the timed region did not do";
  EXPECT_FALSE(added.covers_all_gpu_work);
  EXPECT_EQ(compare_code(with_copies({set, copy}), with_copies({copy})).changes, Lines{"memset of 4194304 bytes removed"});

  formats::CopyOrSet bigger = copy;
  bigger.bytes = 2097152;
  EXPECT_EQ(compare_code(with_copies({set, copy}), with_copies({set, bigger})).changes,
            Lines{"memcpy DtoD of 1048576 -> 2097152 bytes"});
  formats::CopyOrSet twice = set;
  twice.count = 2;
  EXPECT_EQ(compare_code(with_copies({set, copy}), with_copies({twice, copy})).changes,
            Lines{"memset of 4194304 bytes: once -> 2 times"});
  formats::CopyOrSet moved = set;
  moved.after_launches = 0;
  EXPECT_EQ(compare_code(with_copies({set, copy}), with_copies({moved, copy})).changes,
            Lines{"memset of 4194304 bytes: after kernel launch 1 -> 0"});

  formats::Fingerprint kernel_added = with_copies({set, copy});
  kernel_added.kernels.push_back(reduce_launch());
  const CodeChange both = compare_code(with_copies({set, copy}), with_copies({copy}));
  EXPECT_EQ(both.changes.size(), 1u);
  const CodeChange kernels_first = compare_code(with_copies({set, copy}), [&] {
    formats::Fingerprint f = kernel_added;
    f.copies = {copy};
    return f;
  }());
  ASSERT_EQ(kernels_first.changes.size(), 2u);
  EXPECT_EQ(kernels_first.changes[1], "memset of 4194304 bytes removed") << "which kernels ran comes first";
}

// A schema-1 side saw kernels alone: the same kernels are kSame, but not all the GPU work is known.
TEST(CompareCode, AllTheGpuWorkIsCoveredOnlyWhereBothSidesCapturedCopies) {
  const formats::Fingerprint kernels_only = three_kernels();
  ASSERT_FALSE(kernels_only.covers_copies);
  const formats::Fingerprint with_a_set = with_copies({formats::CopyOrSet{"memset", 64, 0, 1}});
  for (const auto& [before, now] : {std::pair{kernels_only, with_a_set}, std::pair{with_a_set, kernels_only},
                                    std::pair{kernels_only, kernels_only}}) {
    const CodeChange change = compare_code(before, now);
    EXPECT_EQ(change.comparison, CodeComparison::kSame) << "copies unknown on one side are not a change";
    EXPECT_FALSE(change.covers_all_gpu_work);
  }
  EXPECT_TRUE(compare_code(with_a_set, with_a_set).covers_all_gpu_work);
  formats::Fingerprint not_captured = with_a_set;
  not_captured.capture_status = "CUPTI unavailable";
  EXPECT_FALSE(compare_code(with_a_set, not_captured).covers_all_gpu_work);
}

TEST(ShortKernelName, DropsReturnTypeAndParameters) {
  formats::KernelLaunch k = tiled_launch();
  EXPECT_EQ(short_kernel_name(k), "tiled<256>");
  k.name = "reverse_tile(float*, float const*)";
  EXPECT_EQ(short_kernel_name(k), "reverse_tile");
  k.name = "(anonymous namespace)::scale(float*, int)";
  EXPECT_EQ(short_kernel_name(k), "(anonymous namespace)::scale") << "a space in brackets ends no return type";
  k.name = "void (anonymous namespace)::scale<2>(float*, int)";
  EXPECT_EQ(short_kernel_name(k), "(anonymous namespace)::scale<2>");
}

TEST(ShortKernelName, CutsLongTemplateArgumentsOnly) {
  formats::KernelLaunch k;
  k.mangled_name = "_ZN3cub18DeviceReduceKernelE";  // not read while there is a name
  k.name = "void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, float, int, cub::Sum>::Policy600, float*, "
           "float*, int, cub::Sum>(float*, float*, int, cub::GridEvenShare<int>, cub::Sum)";
  EXPECT_EQ(short_kernel_name(k), "cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, float, int, ...>");

  // Parentheses, braces and spaces inside the template arguments: a lambda's type.
  k.name = "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::AbsFunctor<"
           "float>>(at::TensorIteratorBase&, at::native::AbsFunctor<float> const&)::{lambda(int)#1}>(int, "
           "at::native::gpu_kernel_impl_nocast<at::native::AbsFunctor<float>>(at::TensorIteratorBase&, "
           "at::native::AbsFunctor<float> const&)::{lambda(int)#1})";
  EXPECT_EQ(short_kernel_name(k), "at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<...>");

  const std::string exactly = "k<" + std::string(kShortNameTemplateChars - 2, 'x') + ">";
  k.name = "void " + exactly + "(int)";
  EXPECT_EQ(short_kernel_name(k), exactly) << "at the bound: kept";
  k.name = "void k<" + std::string(kShortNameTemplateChars - 1, 'x') + ">(int)";
  EXPECT_EQ(short_kernel_name(k), "k<" + std::string(kShortNameTemplateChars - 5, 'x') + "...>");
  EXPECT_EQ(short_kernel_name(k).size(), 1 + kShortNameTemplateChars);
}

TEST(ShortKernelName, KeepsNamesWithoutParametersAndFallsBackToTheMangledName) {
  const formats::KernelLaunch gemm = gemm_launch(kGemm128);
  EXPECT_EQ(short_kernel_name(gemm), kGemm128) << "a C name is never cut, however long";
  formats::KernelLaunch k = tiled_launch();
  k.name = "tiled<256>";
  EXPECT_EQ(short_kernel_name(k), "tiled<256>");
  k.name.clear();
  EXPECT_EQ(short_kernel_name(k), "_Z5tiledILi256EEvPfPKf");
}

}  // namespace
}  // namespace gpuperf::gate

namespace gpuperf::gate {
namespace {

TEST(StableMangledName, AnonymousNamespacesOfOtherCheckoutsCompareEqual) {
  const std::string here = "_ZN7gpuperf9reduction63_GLOBAL__N__04c93339_30_reduce9_shfl_down_last_warp_cu_2cc3570d14reduce9_kernelILi256EEEvPKilPi";
  const std::string there = "_ZN7gpuperf9reduction63_GLOBAL__N__9f00aa11_30_reduce9_shfl_down_last_warp_cu_77e01b2c14reduce9_kernelILi256EEEvPKilPi";
  EXPECT_EQ(stable_mangled_name(here), "_ZN7gpuperf9reduction12_GLOBAL__N_114reduce9_kernelILi256EEEvPKilPi");
  EXPECT_EQ(stable_mangled_name(here), stable_mangled_name(there));
  EXPECT_EQ(stable_mangled_name("_Z4s100Pf"), "_Z4s100Pf");
  EXPECT_EQ(stable_mangled_name("x_GLOBAL__N_"), "x_GLOBAL__N_") << "no length before it: unchanged";
  formats::KernelLaunch a;
  a.name = "void gpuperf::reduction::(anonymous namespace)::reduce9_kernel<256>(int const*, long, int*)";
  a.mangled_name = here;
  a.sass_hash = "f05e65945e738e0e";
  formats::KernelLaunch b = a;
  b.mangled_name = there;
  b.grid = {128, 1, 1};
  formats::Fingerprint before, now;
  before.capture_status = now.capture_status = formats::kCapturedByCupti;
  before.kernels = {a};
  now.kernels = {b};
  const CodeChange change = compare_code(before, now);
  ASSERT_EQ(change.changes.size(), 1u);
  EXPECT_NE(change.changes[0].find("grid 1x1x1 -> 128x1x1 blocks"), std::string::npos) << change.changes[0];
}

}  // namespace
}  // namespace gpuperf::gate
