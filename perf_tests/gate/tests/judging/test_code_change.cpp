// What changed between two fingerprints, as codes with fields: each field's difference with its numbers,
// kernels replaced, added and removed along the alignment, library versions, copies and sets, the order,
// the warnings, why a side is unknown; and the short kernel names the differences carry. Their words are
// tested in tests/reports/test_code_words.cpp.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gate/judging/code_change.h"
#include "gate/tests/support/code_fingerprint_fixture.h"

namespace gpuperf::gate {
namespace {

using namespace gpuperf::gate::testing;
using Kinds = std::vector<CodeDifferenceKind>;
using K = CodeDifferenceKind;

Kinds kinds_of(const CodeChange& change) {
  Kinds kinds;
  for (const CodeDifference& d : change.differences) kinds.push_back(d.kind);
  return kinds;
}

Kinds warning_kinds_of(const CodeChange& change) {
  Kinds kinds;
  for (const CodeDifference& d : change.differences) {
    if (d.warning) kinds.push_back(d.kind);
  }
  return kinds;
}

TEST(CompareCode, SameFingerprintsAreSame) {
  const CodeChange change = compare_code(three_kernels(), three_kernels());
  EXPECT_EQ(change.comparison, CodeComparison::kSame);
  EXPECT_TRUE(change.differences.empty());
  EXPECT_EQ(change.baseline_missing, CodeSideMissing::kCaptured);
  EXPECT_EQ(change.current_missing, CodeSideMissing::kCaptured);

  const CodeChange nothing_launched = compare_code(captured({}), captured({}));
  EXPECT_EQ(nothing_launched.comparison, CodeComparison::kSame);
  EXPECT_TRUE(nothing_launched.differences.empty());
}

TEST(CompareCode, EachFieldChangeIsExactlyItsDifference) {
  struct Case {
    std::function<void(formats::KernelLaunch&)> change;
    CodeDifferenceKind kind;
    long long before, now;  // the numbers the kind carries; dims cases: 0
    bool warning;
  };
  const std::vector<Case> cases = {
      {[](formats::KernelLaunch& k) { k.sass_hash = "1111111111111111"; }, K::kSassChanged, 0, 0, false},
      {[](formats::KernelLaunch& k) { k.registers_per_thread = 96; }, K::kRegisters, 64, 96, false},
      {[](formats::KernelLaunch& k) { k.local_memory_per_thread_bytes = 48; }, K::kLocalMemory, 0, 48, true},
      {[](formats::KernelLaunch& k) { k.static_shared_memory_bytes = 4096; }, K::kStaticSharedMemory, 1024, 4096, false},
      {[](formats::KernelLaunch& k) { k.grid = {128, 1, 1}; }, K::kGrid, 0, 0, true},
      {[](formats::KernelLaunch& k) { k.block = {128, 1, 1}; }, K::kBlock, 0, 0, false},
      {[](formats::KernelLaunch& k) { k.dynamic_shared_memory_bytes = 4096; }, K::kDynamicSharedMemory, 0, 4096, false},
      {[](formats::KernelLaunch& k) { k.launches = 3; }, K::kLaunches, 2, 3, false},
  };
  for (const Case& c : cases) {
    formats::Fingerprint now = three_kernels();
    c.change(now.kernels[1]);
    const CodeChange change = compare_code(three_kernels(), now);
    const int at = static_cast<int>(c.kind);
    EXPECT_EQ(change.comparison, CodeComparison::kChanged) << at;
    ASSERT_EQ(change.differences.size(), 1u) << at;
    const CodeDifference& d = change.differences[0];
    EXPECT_EQ(d.kind, c.kind) << at;
    EXPECT_EQ(d.kernel, "tiled<256>") << at;
    EXPECT_EQ(d.before, c.before) << at;
    EXPECT_EQ(d.now, c.now) << at;
    EXPECT_EQ(d.warning, c.warning) << at;
  }
  formats::Fingerprint now = three_kernels();
  now.kernels[1].grid = {128, 1, 1};
  now.kernels[1].block = {128, 2, 1};
  const CodeChange dims = compare_code(three_kernels(), now);
  ASSERT_EQ(kinds_of(dims), (Kinds{K::kGrid, K::kBlock}));
  EXPECT_EQ(dims.differences[0].before_dims, (std::array<int, 3>{528, 1, 1}));
  EXPECT_EQ(dims.differences[0].now_dims, (std::array<int, 3>{128, 1, 1}));
  EXPECT_EQ(dims.differences[1].before_dims, (std::array<int, 3>{256, 1, 1}));
  EXPECT_EQ(dims.differences[1].now_dims, (std::array<int, 3>{128, 2, 1}));
}

TEST(CompareCode, ReplacedCublasKernelIsOneDifference) {
  const formats::Fingerprint now = captured({reduce_launch(), tiled_launch(), gemm_launch(kGemm64)});
  const CodeChange change = compare_code(three_kernels(), now);
  EXPECT_EQ(change.comparison, CodeComparison::kChanged);
  ASSERT_EQ(kinds_of(change), Kinds{K::kKernelReplaced});
  EXPECT_EQ(change.differences[0].kernel, kGemm128);
  EXPECT_EQ(change.differences[0].other_kernel, kGemm64);
  EXPECT_EQ(warning_kinds_of(change), Kinds{}) << "a replacement is not an added kernel";
}

TEST(CompareCode, AddedAndRemovedKernels) {
  const formats::Fingerprint two = captured({reduce_launch(), gemm_launch(kGemm128)});
  const CodeChange added = compare_code(two, three_kernels());
  EXPECT_EQ(added.comparison, CodeComparison::kChanged);
  ASSERT_EQ(kinds_of(added), Kinds{K::kKernelAdded});
  EXPECT_EQ(added.differences[0].kernel, "tiled<256>");
  EXPECT_TRUE(added.differences[0].warning);

  const CodeChange removed = compare_code(three_kernels(), two);
  ASSERT_EQ(kinds_of(removed), Kinds{K::kKernelRemoved});
  EXPECT_EQ(removed.differences[0].kernel, "tiled<256>");
  EXPECT_FALSE(removed.differences[0].warning);
}

TEST(CompareCode, AlignsAlongTheLongestCommonSubsequence) {
  // Position by position, every kernel after the added one would look replaced.
  const CodeChange inserted =
      compare_code(captured({tiled_launch(), reduce_launch(), tiled_launch()}),
                   captured({tiled_launch(), gemm_launch(kGemm64), reduce_launch(), tiled_launch()}));
  ASSERT_EQ(kinds_of(inserted), Kinds{K::kKernelAdded});
  EXPECT_EQ(inserted.differences[0].kernel, kGemm64);

  // One gap, two kernels before and one now: the first pair is a replacement, the rest removed.
  const CodeChange gap =
      compare_code(captured({tiled_launch(), gemm_launch(kGemm128), reduce_launch(), tiled_launch()}),
                   captured({tiled_launch(), gemm_launch(kGemm64), tiled_launch()}));
  ASSERT_EQ(kinds_of(gap), (Kinds{K::kKernelReplaced, K::kKernelRemoved}));
  EXPECT_EQ(gap.differences[0].other_kernel, kGemm64);
  EXPECT_EQ(gap.differences[1].kernel, "reduce_sum");

  // Two kernels swapped: either could be the one kept; always the second.
  const CodeChange swapped = compare_code(captured({reduce_launch(), tiled_launch()}),
                                          captured({tiled_launch(), reduce_launch()}));
  ASSERT_EQ(kinds_of(swapped), (Kinds{K::kKernelRemoved, K::kKernelAdded}));
  EXPECT_EQ(swapped.differences[0].kernel, "reduce_sum");
  EXPECT_EQ(swapped.differences[1].kernel, "reduce_sum");
  EXPECT_EQ(warning_kinds_of(swapped), Kinds{K::kKernelAdded});
}

TEST(CompareCode, ReplacementBySameShortNameCarriesBothNames) {
  // Two instantiations that differ only past what short_kernel_name() keeps.
  formats::KernelLaunch before = tiled_launch();
  before.name = "void tiled<" + std::string(60, 'a') + "1>(float*)";
  before.mangled_name = "_Z5tiledI1aEvPf";
  formats::KernelLaunch now = before;
  now.name = "void tiled<" + std::string(60, 'a') + "2>(float*)";
  now.mangled_name = "_Z5tiledI1bEvPf";
  const std::string name = "tiled<" + std::string(43, 'a') + "...>";
  ASSERT_EQ(short_kernel_name(before), name);
  const CodeChange change = compare_code(captured({before}), captured({now}));
  ASSERT_EQ(kinds_of(change), Kinds{K::kKernelReplaced});
  EXPECT_EQ(change.differences[0].kernel, name);
  EXPECT_EQ(change.differences[0].other_kernel, name) << "equal short names: the words say the mangled names differ";
}

TEST(CompareCode, LibraryVersionsChangedAddedAndRemoved) {
  formats::Fingerprint before = three_kernels();
  before.libraries = {{"cub", "3.0.0"}, {"cublas", "13.0.0"}, {"curand", "10.4.0"}};
  formats::Fingerprint now = three_kernels();
  now.libraries = {{"cublas", "13.1.0"}, {"cudnn", "9.1.0"}, {"curand", "10.4.0"}};
  const CodeChange change = compare_code(before, now);
  EXPECT_EQ(change.comparison, CodeComparison::kChanged);
  ASSERT_EQ(kinds_of(change), (Kinds{K::kLibraryRemoved, K::kLibraryVersion, K::kLibraryAdded}));
  const std::vector<CodeDifference>& d = change.differences;
  EXPECT_EQ(d[0].library + " " + d[0].before_version + "|" + d[0].now_version, "cub 3.0.0|");
  EXPECT_EQ(d[1].library + " " + d[1].before_version + "|" + d[1].now_version, "cublas 13.0.0|13.1.0");
  EXPECT_EQ(d[2].library + " " + d[2].before_version + "|" + d[2].now_version, "cudnn |9.1.0");
  EXPECT_EQ(warning_kinds_of(change), Kinds{});
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
  const CodeChange change = compare_code(three_kernels(), now);
  EXPECT_EQ(kinds_of(change), (Kinds{K::kKernelReplaced, K::kSassChanged, K::kLibraryVersion, K::kRegisters,
                                     K::kRegisters, K::kGrid, K::kBlock, K::kLaunches, K::kLaunches, K::kSassUnknown}));
  std::vector<std::string> named;
  for (const CodeDifference& d : change.differences) named.push_back(d.kernel.empty() ? d.library : d.kernel);
  EXPECT_EQ(named, (std::vector<std::string>{kGemm128, "tiled<256>", "cublas", "reduce_sum", "tiled<256>", "reduce_sum",
                                             "tiled<256>", "reduce_sum", "tiled<256>", "reduce_sum"}))
      << "within a section, launch order";
}

TEST(CompareCode, NotCapturedIsUnknownWithEachSidesStatus) {
  formats::Fingerprint old_baseline;  // written before fingerprints were captured
  formats::Fingerprint no_cupti;
  no_cupti.capture_status = "CUPTI unavailable: libcupti.so.13 not found";

  const CodeChange no_baseline = compare_code(old_baseline, three_kernels());
  EXPECT_EQ(no_baseline.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(no_baseline.baseline_missing, CodeSideMissing::kNotCaptured);
  EXPECT_EQ(no_baseline.baseline_capture_status, "");
  EXPECT_EQ(no_baseline.current_missing, CodeSideMissing::kCaptured);
  EXPECT_TRUE(no_baseline.differences.empty()) << "nothing to list against an unknown side";

  const CodeChange not_now = compare_code(three_kernels(), no_cupti);
  EXPECT_EQ(not_now.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(not_now.baseline_missing, CodeSideMissing::kCaptured);
  EXPECT_EQ(not_now.current_missing, CodeSideMissing::kNotCaptured);
  EXPECT_EQ(not_now.current_capture_status, "CUPTI unavailable: libcupti.so.13 not found") << "kept as the file gave it";
  EXPECT_TRUE(not_now.differences.empty());

  const CodeChange neither = compare_code(no_cupti, old_baseline);
  EXPECT_EQ(neither.baseline_missing, CodeSideMissing::kNotCaptured);
  EXPECT_EQ(neither.baseline_capture_status, "CUPTI unavailable: libcupti.so.13 not found");
  EXPECT_EQ(neither.current_missing, CodeSideMissing::kNotCaptured);
  EXPECT_EQ(neither.current_capture_status, "");
}

TEST(CompareCode, UnknownSassIsNotSame) {
  formats::Fingerprint without_hash = three_kernels();
  without_hash.kernels[1].sass_hash.clear();
  const std::vector<std::pair<formats::Fingerprint, formats::Fingerprint>> pairs = {
      {without_hash, three_kernels()}, {three_kernels(), without_hash}, {without_hash, without_hash}};
  for (const auto& [before, now] : pairs) {
    const CodeChange change = compare_code(before, now);
    EXPECT_EQ(change.comparison, CodeComparison::kChanged);
    ASSERT_EQ(kinds_of(change), Kinds{K::kSassUnknown});
    EXPECT_EQ(change.differences[0].kernel, "tiled<256>");
    EXPECT_FALSE(change.differences[0].warning);
  }
  formats::Fingerprint more_registers = without_hash;
  more_registers.kernels[1].registers_per_thread = 96;
  EXPECT_EQ(kinds_of(compare_code(three_kernels(), more_registers)), (Kinds{K::kRegisters, K::kSassUnknown}));
}

TEST(CompareCode, WarnsOfSpillsAndHalvedGridsOnly) {
  auto warns = [](const std::function<void(formats::KernelLaunch&)>& before_change,
                  const std::function<void(formats::KernelLaunch&)>& now_change) {
    formats::Fingerprint before = three_kernels();
    formats::Fingerprint now = three_kernels();
    before_change(before.kernels[1]);
    now_change(now.kernels[1]);
    const CodeChange change = compare_code(before, now);
    EXPECT_EQ(change.differences.size(), 1u);
    return !change.differences.empty() && change.differences[0].warning;
  };
  auto keep = [](formats::KernelLaunch&) {};
  auto lmem = [](int bytes) { return [bytes](formats::KernelLaunch& k) { k.local_memory_per_thread_bytes = bytes; }; };
  auto grid = [](int x, int y) { return [x, y](formats::KernelLaunch& k) { k.grid = {x, y, 1}; }; };

  EXPECT_TRUE(warns(keep, lmem(48)));
  EXPECT_TRUE(warns(lmem(16), lmem(48))) << "more spills where there were some";
  EXPECT_FALSE(warns(lmem(48), lmem(16))) << "fewer spills";

  EXPECT_TRUE(warns(keep, grid(264, 1)));
  EXPECT_FALSE(warns(keep, grid(265, 1))) << "more than half";
  EXPECT_FALSE(warns(keep, grid(1056, 1))) << "a grid that grew";
  EXPECT_FALSE(warns(keep, grid(264, 2))) << "as many blocks, another shape";
  EXPECT_TRUE(warns(grid(8, 8), grid(8, 4))) << "total blocks count every dimension";
  EXPECT_FALSE(warns(keep, [](formats::KernelLaunch& k) { k.registers_per_thread = 255; }));
  EXPECT_FALSE(warns(keep, [](formats::KernelLaunch& k) { k.launches = 5; }));
}

TEST(CompareCode, CopiesAndSetsAddedRemovedResizedAndRepeatedAreTheirDifferences) {
  const formats::CopyOrSet set{"memset", 4194304, 1, 1};
  const formats::CopyOrSet copy{"memcpy DtoD", 1048576, 2, 1};
  const CodeChange same = compare_code(with_copies({set, copy}), with_copies({set, copy}));
  EXPECT_EQ(same.comparison, CodeComparison::kSame);
  EXPECT_TRUE(same.covers_all_gpu_work);

  auto only = [](const CodeChange& change) {
    EXPECT_EQ(change.differences.size(), 1u);
    return change.differences.empty() ? CodeDifference{} : change.differences[0];
  };
  const CodeChange added = compare_code(with_copies({copy}), with_copies({set, copy}));
  EXPECT_EQ(added.comparison, CodeComparison::kChanged);
  const CodeDifference set_added = only(added);
  EXPECT_EQ(set_added.kind, K::kCopyAdded);
  EXPECT_EQ(set_added.copy_kind, "memset");
  EXPECT_EQ(set_added.copy_bytes, 4194304);
  EXPECT_TRUE(set_added.warning) << "work the timed region did not do";
  EXPECT_FALSE(added.covers_all_gpu_work);
  const CodeDifference set_removed = only(compare_code(with_copies({set, copy}), with_copies({copy})));
  EXPECT_EQ(set_removed.kind, K::kCopyRemoved);
  EXPECT_EQ(set_removed.copy_bytes, 4194304);
  EXPECT_FALSE(set_removed.warning);

  formats::CopyOrSet bigger = copy;
  bigger.bytes = 2097152;
  const CodeDifference resized = only(compare_code(with_copies({set, copy}), with_copies({set, bigger})));
  EXPECT_EQ(resized.kind, K::kCopyResized);
  EXPECT_EQ(resized.copy_kind, "memcpy DtoD");
  EXPECT_EQ(resized.before, 1048576);
  EXPECT_EQ(resized.now, 2097152);
  formats::CopyOrSet twice = set;
  twice.count = 2;
  const CodeDifference repeated = only(compare_code(with_copies({set, copy}), with_copies({twice, copy})));
  EXPECT_EQ(repeated.kind, K::kCopyCount);
  EXPECT_EQ(repeated.before, 1);
  EXPECT_EQ(repeated.now, 2);
  formats::CopyOrSet moved = set;
  moved.after_launches = 0;
  const CodeDifference placed = only(compare_code(with_copies({set, copy}), with_copies({moved, copy})));
  EXPECT_EQ(placed.kind, K::kCopyPlace);
  EXPECT_EQ(placed.before, 1);
  EXPECT_EQ(placed.now, 0);

  // Resized and repeated at once: both, the size first.
  const CodeChange both = compare_code(with_copies({set, copy}), with_copies({set, [&] {
                                         formats::CopyOrSet c = bigger;
                                         c.count = 3;
                                         return c;
                                       }()}));
  EXPECT_EQ(kinds_of(both), (Kinds{K::kCopyResized, K::kCopyCount}));

  formats::Fingerprint kernel_added = with_copies({copy});
  kernel_added.kernels.push_back(reduce_launch());
  EXPECT_EQ(kinds_of(compare_code(with_copies({set, copy}), kernel_added)), (Kinds{K::kKernelAdded, K::kCopyRemoved}))
      << "which kernels ran comes first";
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
  ASSERT_EQ(change.differences.size(), 1u) << "the anonymous namespaces align: the kernel is matched, not replaced";
  EXPECT_EQ(change.differences[0].kind, CodeDifferenceKind::kGrid);
  EXPECT_EQ(change.differences[0].now_dims, (std::array<int, 3>{128, 1, 1}));
}

}  // namespace
}  // namespace gpuperf::gate
