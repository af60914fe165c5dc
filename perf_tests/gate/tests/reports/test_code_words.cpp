// The words of a code change (reports/code_words.h), on the comparisons of judging/code_change.h's tests:
// every line exactly as the reports print it ("tiled<256>: registers 64 -> 96", "kernel A replaced by B",
// "memset of 4194304 bytes added"), the warnings among them, why a comparison was not made, and why a
// platform keeps unchanged benchmarks timed. The JSON report's "changes", "warnings" and "unknown_reason".
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gate/judging/code_change.h"
#include "gate/reports/code_words.h"
#include "gate/tests/support/code_fingerprint_fixture.h"

namespace gpuperf::gate {
namespace {

using namespace gpuperf::gate::testing;
using Lines = std::vector<std::string>;

// compare_code's result as the reports word it.
struct Worded {
  CodeComparison comparison;
  Lines changes;
  Lines warnings;
  std::string unknown_reason;
  bool covers_all_gpu_work;
};

Worded worded(const formats::Fingerprint& baseline, const formats::Fingerprint& current) {
  const CodeChange change = compare_code(baseline, current);
  return {change.comparison, code_change_words(change), code_warning_words(change), code_unknown_words(change),
          change.covers_all_gpu_work};
}

TEST(CodeWords, SameFingerprintsAreSame) {
  const Worded change = worded(three_kernels(), three_kernels());
  EXPECT_EQ(change.comparison, CodeComparison::kSame);
  EXPECT_EQ(change.changes, Lines{});
  EXPECT_EQ(change.warnings, Lines{});
  EXPECT_EQ(change.unknown_reason, "");

  const Worded nothing_launched = worded(captured({}), captured({}));
  EXPECT_EQ(nothing_launched.comparison, CodeComparison::kSame);
  EXPECT_EQ(nothing_launched.changes, Lines{});
}

TEST(CodeWords, EachFieldChangeIsExactlyItsLine) {
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
    const Worded change = worded(three_kernels(), now);
    EXPECT_EQ(change.comparison, CodeComparison::kChanged) << c.line;
    EXPECT_EQ(change.changes, Lines{c.line});
    EXPECT_EQ(change.warnings, c.warning ? Lines{c.line} : Lines{}) << c.line;
  }
}

TEST(CodeWords, ReplacedCublasKernelIsOneLine) {
  const formats::Fingerprint now = captured({reduce_launch(), tiled_launch(), gemm_launch(kGemm64)});
  const Worded change = worded(three_kernels(), now);
  EXPECT_EQ(change.comparison, CodeComparison::kChanged);
  EXPECT_EQ(change.changes, Lines{std::string("kernel ") + kGemm128 + " replaced by " + kGemm64});
  EXPECT_EQ(change.warnings, Lines{}) << "a replacement is not an added kernel";
}

TEST(CodeWords, AddedAndRemovedKernels) {
  const formats::Fingerprint two = captured({reduce_launch(), gemm_launch(kGemm128)});
  const Worded added = worded(two, three_kernels());
  EXPECT_EQ(added.comparison, CodeComparison::kChanged);
  EXPECT_EQ(added.changes, Lines{"kernel tiled<256> added"});
  EXPECT_EQ(added.warnings, Lines{"kernel tiled<256> added"});

  const Worded removed = worded(three_kernels(), two);
  EXPECT_EQ(removed.changes, Lines{"kernel tiled<256> removed"});
  EXPECT_EQ(removed.warnings, Lines{});
}

TEST(CodeWords, AlignsAlongTheLongestCommonSubsequence) {
  // Position by position, every kernel after the added one would look replaced.
  const Worded inserted =
      worded(captured({tiled_launch(), reduce_launch(), tiled_launch()}),
                   captured({tiled_launch(), gemm_launch(kGemm64), reduce_launch(), tiled_launch()}));
  EXPECT_EQ(inserted.changes, Lines{std::string("kernel ") + kGemm64 + " added"});

  // One gap, two kernels before and one now: the first pair is a replacement, the rest removed.
  const Worded gap =
      worded(captured({tiled_launch(), gemm_launch(kGemm128), reduce_launch(), tiled_launch()}),
                   captured({tiled_launch(), gemm_launch(kGemm64), tiled_launch()}));
  EXPECT_EQ(gap.changes, (Lines{std::string("kernel ") + kGemm128 + " replaced by " + kGemm64,
                                "kernel reduce_sum removed"}));

  // Two kernels swapped: either could be the one kept; always the second.
  const Worded swapped = worded(captured({reduce_launch(), tiled_launch()}),
                                          captured({tiled_launch(), reduce_launch()}));
  EXPECT_EQ(swapped.changes, (Lines{"kernel reduce_sum removed", "kernel reduce_sum added"}));
  EXPECT_EQ(swapped.warnings, Lines{"kernel reduce_sum added"});
}

TEST(CodeWords, ReplacementBySameShortNameSaysTheNamesDiffer) {
  // Two instantiations that differ only past what short_kernel_name() keeps.
  formats::KernelLaunch before = tiled_launch();
  before.name = "void tiled<" + std::string(60, 'a') + "1>(float*)";
  before.mangled_name = "_Z5tiledI1aEvPf";
  formats::KernelLaunch now = before;
  now.name = "void tiled<" + std::string(60, 'a') + "2>(float*)";
  now.mangled_name = "_Z5tiledI1bEvPf";
  const std::string name = "tiled<" + std::string(43, 'a') + "...>";
  ASSERT_EQ(short_kernel_name(before), name);
  EXPECT_EQ(worded(captured({before}), captured({now})).changes,
            Lines{"kernel " + name + " replaced by another " + name + " (mangled names differ)"});
}

TEST(CodeWords, LibraryVersionsChangedAddedAndRemoved) {
  formats::Fingerprint before = three_kernels();
  before.libraries = {{"cub", "3.0.0"}, {"cublas", "13.0.0"}, {"curand", "10.4.0"}};
  formats::Fingerprint now = three_kernels();
  now.libraries = {{"cublas", "13.1.0"}, {"cudnn", "9.1.0"}, {"curand", "10.4.0"}};
  const Worded change = worded(before, now);
  EXPECT_EQ(change.comparison, CodeComparison::kChanged);
  EXPECT_EQ(change.changes,
            (Lines{"library cub 3.0.0 removed", "cublas 13.0.0 -> 13.1.0", "library cudnn 9.1.0 added"}));
  EXPECT_EQ(change.warnings, Lines{});
}

TEST(CodeWords, OrdersMostImportantFirstThenByLaunchOrder) {
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
  EXPECT_EQ(worded(three_kernels(), now).changes, expected);
}

TEST(CodeWords, NotCapturedIsUnknownWithTheReason) {
  formats::Fingerprint old_baseline;  // written before fingerprints were captured
  formats::Fingerprint no_cupti;
  no_cupti.capture_status = "CUPTI unavailable: libcupti.so.13 not found";
  formats::Fingerprint unexplained;

  const Worded no_baseline = worded(old_baseline, three_kernels());
  EXPECT_EQ(no_baseline.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(no_baseline.unknown_reason, "the baseline has no fingerprint");
  EXPECT_EQ(no_baseline.changes, Lines{}) << "nothing to list against an unknown side";
  EXPECT_EQ(no_baseline.warnings, Lines{});

  EXPECT_EQ(worded(no_cupti, three_kernels()).unknown_reason,
            "the baseline has no fingerprint (CUPTI unavailable: libcupti.so.13 not found)");

  const Worded not_now = worded(three_kernels(), no_cupti);
  EXPECT_EQ(not_now.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(not_now.unknown_reason, "not captured now (CUPTI unavailable: libcupti.so.13 not found)");
  EXPECT_EQ(not_now.changes, Lines{});
  EXPECT_EQ(worded(three_kernels(), unexplained).unknown_reason, "not captured now (no reason given)");

  const Worded neither = worded(old_baseline, no_cupti);
  EXPECT_EQ(neither.comparison, CodeComparison::kUnknown);
  EXPECT_EQ(neither.unknown_reason,
            "the baseline has no fingerprint; not captured now (CUPTI unavailable: libcupti.so.13 not found)");
}

TEST(CodeWords, UnknownSassIsNotSame) {
  formats::Fingerprint without_hash = three_kernels();
  without_hash.kernels[1].sass_hash.clear();
  const std::vector<std::pair<formats::Fingerprint, formats::Fingerprint>> pairs = {
      {without_hash, three_kernels()}, {three_kernels(), without_hash}, {without_hash, without_hash}};
  for (const auto& [before, now] : pairs) {
    const Worded change = worded(before, now);
    EXPECT_EQ(change.comparison, CodeComparison::kChanged);
    EXPECT_EQ(change.changes, Lines{"SASS of tiled<256> unknown"});
    EXPECT_EQ(change.warnings, Lines{});
  }
  formats::Fingerprint more_registers = without_hash;
  more_registers.kernels[1].registers_per_thread = 96;
  EXPECT_EQ(worded(three_kernels(), more_registers).changes,
            (Lines{"tiled<256>: registers 64 -> 96", "SASS of tiled<256> unknown"}));
}

TEST(CodeWords, WarnsOfSpillsAndHalvedGridsOnly) {
  auto warnings = [](const std::function<void(formats::KernelLaunch&)>& before_change,
                     const std::function<void(formats::KernelLaunch&)>& now_change) {
    formats::Fingerprint before = three_kernels();
    formats::Fingerprint now = three_kernels();
    before_change(before.kernels[1]);
    now_change(now.kernels[1]);
    const Worded change = worded(before, now);
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

TEST(CodeWords, CopiesAndSetsAddedRemovedResizedAndRepeatedAreTheirLines) {
  const formats::CopyOrSet set{"memset", 4194304, 1, 1};
  const formats::CopyOrSet copy{"memcpy DtoD", 1048576, 2, 1};
  const Worded same = worded(with_copies({set, copy}), with_copies({set, copy}));
  EXPECT_EQ(same.comparison, CodeComparison::kSame);
  EXPECT_TRUE(same.covers_all_gpu_work);

  const Worded added = worded(with_copies({copy}), with_copies({set, copy}));
  EXPECT_EQ(added.comparison, CodeComparison::kChanged);
  EXPECT_EQ(added.changes, Lines{"memset of 4194304 bytes added"});
  EXPECT_EQ(added.warnings, Lines{"memset of 4194304 bytes added"}) << "work the timed region did not do";
  EXPECT_FALSE(added.covers_all_gpu_work);
  EXPECT_EQ(worded(with_copies({set, copy}), with_copies({copy})).changes, Lines{"memset of 4194304 bytes removed"});

  formats::CopyOrSet bigger = copy;
  bigger.bytes = 2097152;
  EXPECT_EQ(worded(with_copies({set, copy}), with_copies({set, bigger})).changes,
            Lines{"memcpy DtoD of 1048576 -> 2097152 bytes"});
  formats::CopyOrSet twice = set;
  twice.count = 2;
  EXPECT_EQ(worded(with_copies({set, copy}), with_copies({twice, copy})).changes,
            Lines{"memset of 4194304 bytes: once -> 2 times"});
  formats::CopyOrSet moved = set;
  moved.after_launches = 0;
  EXPECT_EQ(worded(with_copies({set, copy}), with_copies({moved, copy})).changes,
            Lines{"memset of 4194304 bytes: after kernel launch 1 -> 0"});

  formats::Fingerprint kernel_added = with_copies({set, copy});
  kernel_added.kernels.push_back(reduce_launch());
  const Worded both = worded(with_copies({set, copy}), with_copies({copy}));
  EXPECT_EQ(both.changes.size(), 1u);
  const Worded kernels_first = worded(with_copies({set, copy}), [&] {
    formats::Fingerprint f = kernel_added;
    f.copies = {copy};
    return f;
  }());
  ASSERT_EQ(kernels_first.changes.size(), 2u);
  EXPECT_EQ(kernels_first.changes[1], "memset of 4194304 bytes removed") << "which kernels ran comes first";
}

TEST(CodeWords, ASideWithoutAFingerprintOfTheBenchmarkSaysSo) {
  CodeChange change;
  change.baseline_missing = CodeSideMissing::kNoneForBenchmark;
  EXPECT_EQ(code_unknown_words(change), "the baseline has no fingerprint (none recorded for it)");
  change.current_missing = CodeSideMissing::kNoneForBenchmark;
  EXPECT_EQ(code_unknown_words(change),
            "the baseline has no fingerprint (none recorded for it); not captured now (none captured for it)");
  change.baseline_missing = CodeSideMissing::kCaptured;
  EXPECT_EQ(code_unknown_words(change), "not captured now (none captured for it)");
  EXPECT_EQ(code_unknown_words(CodeChange{}), "") << "both sides captured: no reason";
}

TEST(CodeWords, PlatformPreventingSkippingNamesEachField) {
  EXPECT_EQ(platform_prevents_skipping_words({}), "");
  PlatformChange driver;
  driver.field = "driver";
  driver.label = "driver";
  driver.before = "580.159.04";
  driver.now = "590.44.01";
  PlatformChange sms;
  sms.field = "sm_count";
  sms.label = "SM count";
  sms.kind = PlatformChange::Kind::kUnknown;
  sms.before = "132";
  EXPECT_EQ(platform_prevents_skipping_words({driver, sms}),
            "the platform is not the baseline's (driver 580.159.04 -> 590.44.01, SM count unknown)");
}

}  // namespace
}  // namespace gpuperf::gate
