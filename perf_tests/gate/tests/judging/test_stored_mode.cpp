// compare_with_baseline on the fixtures and on constructed results: NEW, MISSING, --strict, throttling,
// errors, GPU mismatch, selection, each file as one process, and the budget split over the baseline.
#include <gtest/gtest.h>

#include <optional>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/judging/tolerance.h"
#include "gate/reports/wording.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::notes_of;
using testing::reason_words_of;
using testing::baseline_entry;
using testing::baseline_for;
using testing::kH200;
using testing::noisy_samples;
using testing::processes;
using testing::results_for;
using testing::testdata;
using testing::time_samples;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kReduce1 = "reduction/reduce1_interleaved_divergent/n:1048576";
constexpr const char* kChase = "smem_latency/pointer_chase/stride:1";
constexpr const char* kRemoved = "reduction/reduce0_removed_variant/n:1024";

const BenchmarkComparison& row_of(const Comparison& c, const std::string& name) {
  for (const BenchmarkComparison& row : c.benchmarks) {
    if (row.name == name) return row;
  }
  throw std::runtime_error("no row " + name);
}

std::vector<ResultsFile> load_fixtures(const std::vector<std::string>& files) {
  std::vector<ResultsFile> results;
  for (const std::string& file : files) results.push_back(load_results(testdata(file)));
  return results;
}

const std::vector<std::string> kUnchanged = {"results_run1.json", "results_run2.json", "results_run3.json"};
const std::vector<std::string> kSlow = {"results_slow_1.json", "results_slow_2.json", "results_slow_3.json"};
const std::vector<std::string> kFast = {"results_fast_1.json", "results_fast_2.json", "results_fast_3.json"};

std::vector<std::string> remeasure_list_names(const Comparison& c) {
  std::vector<std::string> names;
  for (const BenchmarkComparison& row : c.benchmarks) {
    if (row.verdict == Verdict::kAmbiguous) names.push_back(row.name);
  }
  return names;
}

Comparison compare_fixture(const std::vector<std::string>& results_files, const CompareOptions& options = {},
                           const std::string& baseline = "baseline_h200.json") {
  return compare_with_baseline(load_baseline(testdata(baseline)), load_fixtures(results_files), options);
}

TEST(CompareFixtures, UnchangedRunsAreSameExceptTheRemovedBenchmark) {
  const Comparison c = compare_fixture(kUnchanged);
  EXPECT_EQ(row_of(c, kReduce9).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kReduce1).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kChase).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kChase).unit, "cycles");
  EXPECT_EQ(row_of(c, kRemoved).verdict, Verdict::kMissing);
  EXPECT_EQ(row_of(c, kRemoved).baseline_processes, 10);
  EXPECT_EQ(exit_code(c), formats::kExitPass) << "MISSING fails only with --strict";
  EXPECT_EQ(c.gpu_slug, "nvidia-h200");
  EXPECT_EQ(c.benchmarks.front().verdict, Verdict::kMissing) << "most severe first";
}

TEST(CompareFixtures, StrictMakesMissingARegression) {
  CompareOptions strict;
  strict.strict = true;
  EXPECT_EQ(exit_code(compare_fixture(kUnchanged, strict)), formats::kExitRegression);
}

TEST(CompareFixtures, SlowProcessesAreARegressionWithTheHandTolerance) {
  const Comparison c = compare_fixture(kSlow);
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.verdict, Verdict::kSlow);
  EXPECT_NEAR(row.ratio, 1.10, 0.01);
  EXPECT_DOUBLE_EQ(row.tolerance_pct, 2.0);
  EXPECT_EQ(tolerance_source_words(row.tolerance_source), "benchmark");
  EXPECT_EQ(row.bytes, 134217728.0);
  EXPECT_EQ(row.baseline_processes, 10);
  EXPECT_EQ(row.current_processes, 3);
  EXPECT_DOUBLE_EQ(row.df, 11.0);
  EXPECT_EQ(notes_of(row), "");
  EXPECT_EQ(row_of(c, kReduce1).verdict, Verdict::kSame) << "only reduce9 changed";
  EXPECT_EQ(exit_code(c), formats::kExitRegression);
  EXPECT_EQ(c.benchmarks.front().name, kReduce9);
}

TEST(CompareFixtures, OneSlowProcessIsAmbiguousNotARegression) {
  const Comparison c = compare_fixture({kSlow.front()});
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.verdict, Verdict::kAmbiguous);
  EXPECT_GT(row.ci_low, 1.02);
  EXPECT_EQ(row.current_processes, 1);
  EXPECT_NE(notes_of(row).find("2 are needed to call it"), std::string::npos) << notes_of(row);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
  EXPECT_EQ(remeasure_list_names(c), std::vector<std::string>{kReduce9});
}

TEST(CompareFixtures, FastProcessesPass) {
  const Comparison c = compare_fixture(kFast);
  EXPECT_EQ(row_of(c, kReduce9).verdict, Verdict::kFast);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
}

TEST(CompareFixtures, SchemaOneBaselineIsJudgedOnItsTwoProcesses) {
  const Comparison c = compare_fixture(kSlow, {}, "baseline_h200_schema1.json");
  EXPECT_EQ(row_of(c, kReduce9).baseline_processes, 2);
  EXPECT_DOUBLE_EQ(row_of(c, kReduce9).df, 3.0) << "(2 - 1) + (3 - 1)";
  EXPECT_NE(notes_of(row_of(c, kReduce9)).find("baseline from 2 processes"), std::string::npos);
  EXPECT_EQ(row_of(c, kReduce1).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kRemoved).baseline_processes, 1) << "5 samples are no 2 x 30: one process";
}

// A benchmark the suite skipped itself (SkipWithMessage; an nvbench state it skipped) is not judged, and
// neither its reason nor its action blames the GPU.
TEST(CompareFixtures, ABenchmarkTheSuiteSkippedIsNotJudgedAndNotBlamedOnTheGpu) {
  std::vector<ResultsFile> results = load_fixtures(kUnchanged);
  for (ResultsFile& file : results) {
    BenchmarkSamples skipped;
    skipped.skipped = true;
    skipped.skip_message = "needs two GPUs";
    skipped.repetitions = 1;
    file.benchmarks.at(kReduce1) = skipped;
  }
  const Comparison c = compare_with_baseline(load_baseline(testdata("baseline_h200.json")), results, {});
  const BenchmarkComparison& row = row_of(c, kReduce1);
  EXPECT_EQ(row.verdict, Verdict::kNotJudged);
  EXPECT_EQ(reason_words_of(row), "skipped by the suite itself: needs two GPUs");
  const std::string action = action_hint(row, "compare");
  EXPECT_EQ(action.find("idle GPU"), std::string::npos) << action;
  EXPECT_NE(action.find("nothing the GPU did"), std::string::npos) << action;
  EXPECT_EQ(row_of(c, kReduce9).verdict, Verdict::kSame) << "the others judged";
}

TEST(CompareFixtures, ThrottledSamplesAreDiscardedAndTheBenchmarkIsNotJudged) {
  const Comparison c = compare_fixture({"results_throttled.json"});
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.verdict, Verdict::kNotJudged);
  EXPECT_EQ(reason_words_of(row),
            "27 of 30 samples throttled (25 power capped, 2 with another process on the GPU), 3 left (a process needs 5 "
            "valid samples of its own)");
  EXPECT_EQ(row.current_samples, 3);
  EXPECT_EQ(row.current_processes, 0);
  EXPECT_EQ(exit_code(c), formats::kExitNotJudged);
}

TEST(CompareFixtures, ErrorBenchmarkIsInvalidInputNeverAPass) {
  const Comparison c = compare_fixture({"results_error.json"});
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.verdict, Verdict::kError);
  EXPECT_NE(reason_words_of(row).find("mismatch at index 17"), std::string::npos);
  EXPECT_EQ(exit_code(c), formats::kExitInvalidInput);
  EXPECT_EQ(c.benchmarks.front().verdict, Verdict::kError);
}

TEST(CompareFixtures, ResultsOfAnotherGpuAreRefused) {
  try {
    compare_fixture({"results_other_gpu.json"});
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("GPU mismatch"), std::string::npos) << message;
    EXPECT_NE(message.find("nvidia-h100-80gb-hbm3"), std::string::npos) << message;
    EXPECT_NE(message.find("nvidia-h200"), std::string::npos) << message;
  }
}

TEST(CompareFixtures, ResultsWithoutGpuSlugAreRefused) {
  try {
    compare_fixture({"results_no_gpu_slug.json"});
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu_slug"), std::string::npos) << e.what();
  }
}

TEST(CompareFixtures, SelectionAppliesToBothSides) {
  CompareOptions family;
  family.selection = Selection::family("smem_latency");
  const Comparison c = compare_fixture(kUnchanged, family);
  ASSERT_EQ(c.benchmarks.size(), 1u) << "the removed reduction benchmark is not MISSING for smem_latency";
  EXPECT_EQ(c.benchmarks.front().name, kChase);

  CompareOptions filter;
  filter.selection = Selection::filter("reduce[19]_");
  EXPECT_EQ(compare_fixture(kUnchanged, filter).benchmarks.size(), 2u);

  CompareOptions nothing;
  nothing.selection = Selection::family("no_such_family");
  const Comparison empty = compare_fixture(kUnchanged, nothing);
  EXPECT_TRUE(empty.benchmarks.empty());
  EXPECT_EQ(exit_code(empty), formats::kExitNotJudged) << "nothing judged is never a pass";
}

TEST(CompareFixtures, InvalidFilterIsAnInputError) { EXPECT_THROW(Selection::filter("reduce(["), formats::InputError); }

TEST(CompareFixtures, TheBudgetIsSplitOverTheWholeBaselineEvenForOneFamily) {
  CompareOptions family;
  family.selection = Selection::family("smem_latency");
  const Comparison c = compare_fixture(kUnchanged, family);
  ASSERT_EQ(c.benchmarks.size(), 1u);
  EXPECT_EQ(c.budget.benchmarks, 4) << "every benchmark of the baseline, selected or not";
  EXPECT_DOUBLE_EQ(c.budget.test_alpha(), kDefaultRunAlpha / 4);
  family.looks = 3;
  family.run_alpha = 0.05;
  const Comparison looked = compare_fixture(kUnchanged, family);
  EXPECT_EQ(looked.budget.looks, 3);
  EXPECT_DOUBLE_EQ(looked.budget.test_alpha(), 0.05 / 12);
  EXPECT_DOUBLE_EQ(looked.budget.interval_confidence(), 1.0 - 0.01 / 3);
}

TEST(CompareFixtures, EachFileIsOneProcess) {
  const std::vector<ResultsFile> results = load_fixtures({"results_run1.json", "results_run2.json"});
  const Comparison c = compare_with_baseline(load_baseline(testdata("baseline_h200.json")), results, {});
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.current_samples, 60) << "samples of both files";
  EXPECT_EQ(row.current_processes, 2);
  EXPECT_DOUBLE_EQ(row.current_median, geometric_mean(process_medians(results, kReduce9, kMinSamples)))
      << "the typical process, not the median of pooled samples";
}

TEST(CompareFixtures, AProcessWithTooFewValidSamplesIsLeftOut) {
  const Comparison c = compare_fixture({"results_run1.json", "results_throttled.json", "results_run2.json"});
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.current_processes, 2) << "the throttled file has 3 valid samples";
  EXPECT_EQ(row.current_samples, 63);
  EXPECT_EQ(row.throttled, 27);
  EXPECT_EQ(row.verdict, Verdict::kSame);
}

TEST(Compare, NewBenchmarkPassesButNothingJudgedIsNotAPass) {
  Baseline baseline = baseline_for(kH200, 3.0);
  ResultsFile results = results_for(kH200);
  results.benchmarks["fusion/new_variant/n:1"] = time_samples(noisy_samples(10.0, 0.01, 30, 1));
  const Comparison only_new = compare_with_baseline(baseline, {results}, {});
  EXPECT_EQ(only_new.benchmarks.front().verdict, Verdict::kNew);
  EXPECT_EQ(exit_code(only_new), formats::kExitNotJudged);

  baseline.benchmarks["fusion/old/n:1"] = baseline_entry(noisy_samples(10.0, 0.002, 10, 2));
  results.benchmarks["fusion/old/n:1"] = time_samples(noisy_samples(10.0, 0.002, 30, 3));
  const Comparison c = compare_with_baseline(baseline, {results}, {});
  EXPECT_EQ(row_of(c, "fusion/new_variant/n:1").verdict, Verdict::kNew);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
}

TEST(Compare, UnitMismatchIsNotJudged) {
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.benchmarks["smem_latency/a/s:1"] = baseline_entry(noisy_samples(10.0, 0.01, 10, 1));
  ResultsFile results = results_for(kH200);
  BenchmarkSamples cycles = time_samples(noisy_samples(30.0, 0.01, 30, 2));
  cycles.unit = formats::kUnitCycles;
  results.benchmarks["smem_latency/a/s:1"] = cycles;
  const Comparison c = compare_with_baseline(baseline, {results}, {});
  EXPECT_EQ(c.benchmarks.front().verdict, Verdict::kNotJudged);
  EXPECT_NE(reason_words_of(c.benchmarks.front()).find("unit mismatch"), std::string::npos);
  EXPECT_EQ(exit_code(c), formats::kExitNotJudged);
}

TEST(Compare, ErrorOutranksRegressionAndRegressionOutranksNotJudged) {
  Baseline baseline = baseline_for(kH200, 3.0);
  std::vector<ResultsFile> results = processes("r/slow/n:1", 12.0, 0.002, 2, 2);
  baseline.benchmarks["r/slow/n:1"] = baseline_entry(noisy_samples(10.0, 0.002, 10, 1));
  baseline.benchmarks["r/throttled/n:1"] = baseline_entry(noisy_samples(10.0, 0.002, 10, 3));
  BenchmarkSamples throttled = time_samples(noisy_samples(10.0, 0.002, 2, 4));
  throttled.throttled = 28;
  throttled.repetitions = 30;
  for (ResultsFile& file : results) file.benchmarks["r/throttled/n:1"] = throttled;
  EXPECT_EQ(exit_code(compare_with_baseline(baseline, results, {})), formats::kExitRegression);

  BenchmarkSamples failed;
  failed.error = true;
  failed.error_message = "CUDA error: an illegal memory access was encountered";
  results.front().benchmarks["r/failed/n:1"] = failed;
  const Comparison c = compare_with_baseline(baseline, results, {});
  EXPECT_EQ(row_of(c, "r/failed/n:1").verdict, Verdict::kError) << "an error is reported even when not in the baseline";
  EXPECT_EQ(exit_code(c), formats::kExitInvalidInput);
}

// A baseline recorded on kThisGpu with the default tolerances (docs/statistics.md, "Tolerances": 4%, 2% on
// the same GPU), and results 3% slower: SAME against 4%, SLOW against 2%.
constexpr const char* kThisGpu = "GPU-8f2c0a11";
constexpr const char* kAnotherGpu = "GPU-77d1b3e0";
constexpr const char* kName = "reduction/reduce9/n:1";

Baseline recorded_on_this_gpu() {
  Baseline baseline = baseline_for(kH200, 4.0);
  baseline.same_gpu_tolerance_pct = 2.0;
  baseline.recorded.gpu_uuids = {kAnotherGpu, kThisGpu};
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, 0.002, 10, 1));
  return baseline;
}

// One process (results file) per entry of `uuids`, measured on that GPU.
std::vector<ResultsFile> three_percent_slower_on(const std::vector<std::string>& uuids, std::uint64_t seed = 2) {
  std::vector<ResultsFile> results = processes(kName, 103.0, 0.002, static_cast<int>(uuids.size()), seed);
  for (std::size_t i = 0; i < uuids.size(); ++i) {
    results[i].gpu.uuid = uuids[i];
    results[i].source = "results_" + uuids[i] + "_" + std::to_string(i) + ".json";
  }
  return results;
}

TEST(CompareSameGpu, ResultsFromARecordingGpuGetTheSameGpuDefault) {
  const Comparison c = compare_with_baseline(recorded_on_this_gpu(), three_percent_slower_on({kThisGpu, kThisGpu, kThisGpu}), {});
  const BenchmarkComparison& row = row_of(c, kName);
  EXPECT_DOUBLE_EQ(row.tolerance_pct, 2.0);
  EXPECT_EQ(tolerance_source_words(row.tolerance_source), "default, same GPU as the baseline");
  EXPECT_EQ(row.verdict, Verdict::kSlow);
  EXPECT_TRUE(same_gpu_tolerance_applied(c));
  EXPECT_NE(against_text(c).find(" on this GPU (GPU-8f2c0a11), same-GPU default tolerance 2.0%"), std::string::npos)
      << against_text(c);
}

TEST(CompareSameGpu, AnotherGpuOfTheModelKeepsTheDefault) {
  Baseline baseline = recorded_on_this_gpu();
  baseline.recorded.gpu_uuids = {kAnotherGpu};
  const Comparison c = compare_with_baseline(baseline, three_percent_slower_on({kThisGpu, kThisGpu, kThisGpu}), {});
  EXPECT_DOUBLE_EQ(row_of(c, kName).tolerance_pct, 4.0);
  EXPECT_EQ(tolerance_source_words(row_of(c, kName).tolerance_source), "default: one GPU recorded");
  EXPECT_EQ(row_of(c, kName).verdict, Verdict::kSame);
  EXPECT_FALSE(same_gpu_tolerance_applied(c));
  EXPECT_EQ(against_text(c).find("same-GPU"), std::string::npos) << against_text(c);

  baseline.recorded.gpu_uuids.clear();  // a baseline that does not know its GPUs
  EXPECT_EQ(tolerance_source_words(
                row_of(compare_with_baseline(baseline, three_percent_slower_on({kThisGpu, kThisGpu, kThisGpu}), {}), kName)
                    .tolerance_source),
            "default");
}

TEST(CompareSameGpu, ResultsWithoutOrWithMixedUuidsAreNotTheSameGpu) {
  const Baseline baseline = recorded_on_this_gpu();
  const std::vector<std::vector<ResultsFile>> not_one_gpu = {
      three_percent_slower_on({"", ""}),
      three_percent_slower_on({kThisGpu, kAnotherGpu}),  // both recorded it
      three_percent_slower_on({kThisGpu, ""}),
  };
  for (const std::vector<ResultsFile>& results : not_one_gpu) {
    const Comparison c = compare_with_baseline(baseline, results, {});
    EXPECT_DOUBLE_EQ(row_of(c, kName).tolerance_pct, 4.0) << results.size() << " file(s), first " << results[0].source;
    EXPECT_EQ(row_of(c, kName).verdict, Verdict::kSame);
    EXPECT_FALSE(same_gpu_tolerance_applied(c));
  }
  Baseline listing_nothing = baseline;
  listing_nothing.recorded.gpu_uuids = {""};  // only a baseline built in code can: the reader refuses it
  EXPECT_DOUBLE_EQ(
      row_of(compare_with_baseline(listing_nothing, three_percent_slower_on({"", ""}), {}), kName).tolerance_pct, 4.0)
      << "no uuid is no GPU, even where an empty one is listed";
  const Comparison pooled = compare_with_baseline(baseline, three_percent_slower_on({kThisGpu, kThisGpu}), {});
  EXPECT_DOUBLE_EQ(row_of(pooled, kName).tolerance_pct, 2.0) << "two files of the one GPU are the same GPU";
  EXPECT_EQ(row_of(pooled, kName).verdict, Verdict::kSlow);
}

TEST(CompareSameGpu, NotAnnouncedWhereNoBenchmarkUsedIt) {
  Baseline baseline = recorded_on_this_gpu();
  baseline.family_tolerance_pct["reduction"] = 5.0;
  const Comparison c = compare_with_baseline(baseline, three_percent_slower_on({kThisGpu, kThisGpu, kThisGpu}), {});
  EXPECT_EQ(tolerance_source_words(row_of(c, kName).tolerance_source), "family reduction");
  EXPECT_FALSE(same_gpu_tolerance_applied(c));
  EXPECT_EQ(against_text(c).find("same-GPU"), std::string::npos) << against_text(c);
}

// A baseline of kName recorded on four GPUs at `levels` (relative to 100 us), processes centred as a
// recording centres them; the same-GPU tolerance 2%, the default 4%. `sessions`: how many GPUs each
// recording session (host) held, in order; one host's --all-gpus recording by default.
Baseline recorded_on_four_gpus(const std::vector<double>& levels, const std::vector<int>& sessions = {4}) {
  Baseline baseline = recorded_on_this_gpu();
  const std::vector<std::string> uuids = {"GPU-00000001", "GPU-00000002", "GPU-00000003", kThisGpu};
  baseline.recorded.gpu_uuids = uuids;
  baseline.recorded.machine_groups.clear();
  std::size_t next = 0;
  for (int size : sessions) {
    baseline.recorded.machine_groups.emplace_back(uuids.begin() + next, uuids.begin() + next + size);
    next += size;
  }
  BaselineEntry& entry = baseline.benchmarks[kName];
  std::vector<double> scaled;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    entry.machine_medians[uuids[i]] = 100.0 * levels[i];
    scaled.push_back(100.0 * levels[i]);
  }
  entry.median = geometric_mean(scaled);
  for (double& m : entry.process_medians) m *= entry.median / 100.0;
  return baseline;
}

std::vector<ResultsFile> processes_on(const std::string& uuid, double centre, std::uint64_t seed = 2) {
  std::vector<ResultsFile> results = processes(kName, centre, 0.002, 3, seed);
  for (ResultsFile& r : results) r.gpu.uuid = uuid;
  return results;
}

TEST(CompareAcrossMachines, APlantedThreePercentOnAHostThatDidNotRecordIsSlowWhereMachinesAgreeWithinOnePercent) {
  // Four GPUs of three hosts within 0.6% of each other; results from a GPU none of them is, at their
  // centre + 3%.
  const Baseline baseline = recorded_on_four_gpus({0.998, 1.0, 1.001, 1.004}, {2, 1, 1});
  const double centre = baseline.benchmarks.at(kName).median;
  const Comparison c = compare_with_baseline(baseline, processes_on("GPU-0000000a", centre * 1.03), {});
  const BenchmarkComparison& row = row_of(c, kName);
  EXPECT_EQ(row.verdict, Verdict::kSlow) << row.tolerance_pct << " " << tolerance_source_words(row.tolerance_source);
  EXPECT_EQ(tolerance_source_words(row.tolerance_source).rfind("machine spread ", 0), 0u) << tolerance_source_words(row.tolerance_source);
  EXPECT_NE(tolerance_source_words(row.tolerance_source).find("% over 4 GPUs of 3 hosts"), std::string::npos) << tolerance_source_words(row.tolerance_source);
  EXPECT_DOUBLE_EQ(row.tolerance_pct, 2.0) << "k x a small spread is below the same-GPU floor";
  EXPECT_EQ(row_of(compare_with_baseline(baseline, processes_on("GPU-0000000a", centre * 1.01), {}), kName).verdict,
            Verdict::kSame);
}

TEST(CompareAcrossMachines, OneHostsGpusNeverTightenTheDefault) {
  // The same four levels, recorded on one host: they share its level, so how far another host sits is
  // unknown and the default holds, saying why; the planted 3% is within it.
  const Baseline baseline = recorded_on_four_gpus({0.998, 1.0, 1.001, 1.004});
  const double centre = baseline.benchmarks.at(kName).median;
  const Comparison c = compare_with_baseline(baseline, processes_on("GPU-0000000a", centre * 1.03), {});
  const BenchmarkComparison& row = row_of(c, kName);
  EXPECT_DOUBLE_EQ(row.tolerance_pct, 4.0);
  EXPECT_EQ(tolerance_source_words(row.tolerance_source), "default 4.0%: recordings of 1 host (3 needed to tighten by the machines' spread)");
  EXPECT_EQ(row.verdict, Verdict::kSame);
  // Two hosts are not enough either.
  const Baseline two_hosts = recorded_on_four_gpus({0.998, 1.0, 1.001, 1.004}, {3, 1});
  EXPECT_DOUBLE_EQ(
      row_of(compare_with_baseline(two_hosts, processes_on("GPU-0000000a", centre * 1.03), {}), kName).tolerance_pct, 4.0);
}

TEST(CompareAcrossMachines, WideMachineSpreadOfOneHostWidensTheToleranceBeyondTheDefault) {
  const Baseline baseline = recorded_on_four_gpus({0.97, 1.0, 1.01, 1.04});  // cuBLAS-like: sd about 2.9%
  const std::optional<MachineSpread> spread = machine_spread(baseline, baseline.benchmarks.at(kName));
  ASSERT_TRUE(spread.has_value());
  EXPECT_EQ(spread->machines, 4);
  EXPECT_EQ(spread->sessions, 1);
  EXPECT_FALSE(spread->tightens());
  EXPECT_NEAR(spread->within_sd_pct, spread->raw_sd_pct, 1e-9) << "the file's only benchmark is its own prior";
  const double centre = baseline.benchmarks.at(kName).median;
  const Comparison c = compare_with_baseline(baseline, processes_on("GPU-0000000a", centre * 1.05), {});
  const BenchmarkComparison& row = row_of(c, kName);
  EXPECT_NEAR(row.tolerance_pct, kMachineWideningK * spread->within_sd_pct, 1e-9);
  EXPECT_GT(row.tolerance_pct, 4.0);
  EXPECT_NE(tolerance_source_words(row.tolerance_source).find("over 4 GPUs of 1 host (widens the default)"), std::string::npos)
      << tolerance_source_words(row.tolerance_source);
  EXPECT_EQ(row.verdict, Verdict::kSame) << "a machine 5% off is within what machines of the model differ by";
}

TEST(CompareAcrossMachines, ThreeHostsSpreadIncludesTheSpreadBetweenHosts) {
  // Each host's GPUs agree, the hosts do not: the spread between their means is what another host sees.
  const Baseline baseline = recorded_on_four_gpus({0.99, 0.99, 1.0, 1.01}, {2, 1, 1});
  const MachineSpread spread = *machine_spread(baseline, baseline.benchmarks.at(kName));
  EXPECT_EQ(spread.sessions, 3);
  EXPECT_TRUE(spread.tightens());
  EXPECT_NEAR(spread.between_sd_pct, 1.0, 0.01);
  EXPECT_NEAR(spread.raw_sd_pct, 1.0, 0.01) << "no spread within the hosts";
}

TEST(CompareAcrossMachines, TheSpreadIsShrunkTowardTheFilesTypicalOne) {
  Baseline baseline = recorded_on_four_gpus({0.999, 1.0, 1.0, 1.001}, {2, 1, 1});
  for (int i = 0; i < 4; ++i) {  // four more benchmarks whose machines differ by about 1%
    BaselineEntry other = baseline.benchmarks.at(kName);
    other.machine_medians = {{"GPU-00000001", 99.0}, {"GPU-00000002", 100.0}, {"GPU-00000003", 101.0}, {kThisGpu, 100.0}};
    other.median = geometric_mean({99.0, 100.0, 101.0, 100.0});
    baseline.benchmarks["reduction/other/n:" + std::to_string(i)] = other;
  }
  const MachineSpread spread = *machine_spread(baseline, baseline.benchmarks.at(kName));
  EXPECT_LT(spread.raw_sd_pct, 0.15);
  EXPECT_GT(spread.sd_pct, 0.5) << "four levels that agree by chance claim less than the file's machines show";
}

TEST(CompareAcrossMachines, ARecordingGpuIsJudgedAgainstItsOwnLevel) {
  // kThisGpu recorded the baseline 2% above the others: its unchanged code is SAME against its own level,
  // and 3% slower than that is SLOW at the same-GPU tolerance.
  const Baseline baseline = recorded_on_four_gpus({0.993, 0.995, 0.997, 1.02});
  const double own = baseline.benchmarks.at(kName).machine_medians.at(kThisGpu);
  const BenchmarkComparison same = row_of(compare_with_baseline(baseline, processes_on(kThisGpu, own), {}), kName);
  EXPECT_EQ(same.verdict, Verdict::kSame);
  EXPECT_DOUBLE_EQ(same.baseline_median, own);
  EXPECT_EQ(tolerance_source_words(same.tolerance_source), "default, same GPU as the baseline");
  EXPECT_NE(notes_of(same).find("against this GPU's own level in the baseline (+1."), std::string::npos) << notes_of(same);
  const BenchmarkComparison slow = row_of(compare_with_baseline(baseline, processes_on(kThisGpu, own * 1.03), {}), kName);
  EXPECT_EQ(slow.verdict, Verdict::kSlow);
  EXPECT_NEAR(slow.ratio, 1.03, 0.005) << "against its own level, not the machines' centre (+5%)";
}

}  // namespace
}  // namespace gpuperf::gate
