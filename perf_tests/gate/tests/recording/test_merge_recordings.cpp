// Recording on several GPUs and merging recordings: each GPU's level kept (machine_medians), processes
// centred per machine, and the refusals of recordings that do not belong together.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/inputs/baseline.h"
#include "gate/recording/machine_levels.h"
#include "gate/recording/merge_recordings.h"
#include "gate/recording/record.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::expect_words;
using testing::testdata;

constexpr const char* kMergedReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";

// `run` measured on `uuid`, every sample `factor` times as long.
ResultsFile on_gpu(ResultsFile run, const std::string& uuid, double factor) {
  run.gpu.uuid = uuid;
  for (auto& [name, samples] : run.benchmarks) {
    for (double& s : samples.samples) s *= factor;
  }
  return run;
}

TEST(RecordOnSeveralGpus, KeepsEachGpusLevelAndCentresItsProcessesOnTheMachinesCentre) {
  const ResultsFile one = load_results(testdata("results_run1.json"));
  const ResultsFile two = load_results(testdata("results_run2.json"));
  // GPU-a: two processes at their own level; GPU-b: the same processes 4% slower.
  const std::vector<ResultsFile> runs = {on_gpu(one, "GPU-a", 1.0), on_gpu(two, "GPU-a", 1.0), on_gpu(one, "GPU-b", 1.04),
                                         on_gpu(two, "GPU-b", 1.04)};
  const Baseline b = record_baseline(runs, nullptr, {});
  const BaselineEntry& e = b.benchmarks.at(kMergedReduce9);
  ASSERT_EQ(e.machine_medians.size(), 2u);
  const std::vector<double> own_a = process_medians({runs[0], runs[1]}, kMergedReduce9, kMinSamples);
  const double level_a = geometric_mean(own_a);
  EXPECT_NEAR(e.machine_medians.at("GPU-a"), level_a, 1e-9 * level_a);
  EXPECT_NEAR(e.machine_medians.at("GPU-b") / e.machine_medians.at("GPU-a"), 1.04, 1e-9);
  EXPECT_NEAR(e.median, level_a * std::sqrt(1.04), 1e-9 * level_a) << "each machine weighs the same";
  ASSERT_EQ(e.process_medians.size(), 4u);
  // Centred per machine: the two machines' processes coincide, the 4% between them is not process noise.
  EXPECT_NEAR(e.process_medians[0], e.process_medians[2], 1e-9 * level_a);
  EXPECT_NEAR(e.process_medians[1], e.process_medians[3], 1e-9 * level_a);
  EXPECT_NEAR(geometric_mean(e.process_medians), e.median, 1e-9 * level_a);
  const Baseline read_back = parse_baseline(baseline_to_text(b), "b.json");
  EXPECT_EQ(read_back.benchmarks.at(kMergedReduce9).machine_medians.size(), 2u) << "written and read back";

  const Baseline single = record_baseline({runs[0], runs[1]}, nullptr, {});
  EXPECT_TRUE(single.benchmarks.at(kMergedReduce9).machine_medians.empty()) << "one GPU: no levels";
  // One recording is one session: its GPUs share a host.
  EXPECT_EQ(b.recorded.machine_groups, (std::vector<std::vector<std::string>>{{"GPU-a", "GPU-b"}}));
  EXPECT_EQ(read_back.recorded.machine_groups, b.recorded.machine_groups);
}

// A recording of `uuid` with one benchmark, its process medians `processes`, and a fingerprint `code`.
Recording one_gpu_recording(const std::string& source, const std::string& uuid, std::vector<double> processes,
                            const std::string& code = "0123456789abcdef") {
  Recording r;
  r.source = source;
  r.baseline.gpu.slug = "nvidia-h200";
  r.baseline.gpu.name = "NVIDIA H200";
  r.baseline.recorded.gpu_uuids = {uuid};
  r.baseline.recorded.runs = static_cast<int>(processes.size());
  r.baseline.recorded.samples_per_run = 30;
  r.baseline.recorded.measuring_method = 2;
  r.baseline.default_tolerance_pct = 4.0;
  r.baseline.same_gpu_tolerance_pct = 2.0;
  BaselineEntry e;
  e.unit = "us";
  e.median = geometric_mean(processes);
  e.process_medians = std::move(processes);
  e.fingerprint = formats::Fingerprint{};
  e.fingerprint->capture_status = formats::kCapturedByCupti;
  formats::KernelLaunch kernel;
  kernel.name = "void k()";
  kernel.mangled_name = "_Z1kv";
  kernel.sass_hash = code;
  e.fingerprint->kernels = {kernel};
  r.baseline.benchmarks["fam/a/n:1"] = e;
  return r;
}

TEST(MergeRecordings, EachGpuIsOneMachineAndAMergedFileKeepsEveryLevelInALaterMerge) {
  const Recording a = one_gpu_recording("a.json", "GPU-a", {10.0, 10.1});
  const Recording b = one_gpu_recording("b.json", "GPU-b", {10.4, 10.5});
  const Baseline ab = merge_recordings({a, b}, nullptr);
  const BaselineEntry& e = ab.benchmarks.at("fam/a/n:1");
  EXPECT_EQ(ab.recorded.gpu_uuids, (std::vector<std::string>{"GPU-a", "GPU-b"}));
  EXPECT_EQ(ab.recorded.runs, 4);
  EXPECT_NEAR(e.machine_medians.at("GPU-a"), geometric_mean({10.0, 10.1}), 1e-12);
  EXPECT_NEAR(e.machine_medians.at("GPU-b"), geometric_mean({10.4, 10.5}), 1e-12);
  EXPECT_NEAR(e.median, geometric_mean({e.machine_medians.at("GPU-a"), e.machine_medians.at("GPU-b")}), 1e-12);
  EXPECT_EQ(e.process_medians.size(), 4u);

  // Another host's GPU merged with the merged file (read back from its text): all three levels.
  const Recording merged{"x.json", parse_baseline(baseline_to_text(ab), "x.json")};
  const Recording c = one_gpu_recording("c.json", "GPU-c", {9.9, 10.0});
  const Baseline abc = merge_recordings({merged, c}, &merged.baseline);
  const BaselineEntry& all = abc.benchmarks.at("fam/a/n:1");
  ASSERT_EQ(all.machine_medians.size(), 3u);
  EXPECT_NEAR(all.machine_medians.at("GPU-a"), e.machine_medians.at("GPU-a"), 1e-5);
  EXPECT_NEAR(all.machine_medians.at("GPU-c"), geometric_mean({9.9, 10.0}), 1e-12);
  EXPECT_NEAR(all.median, geometric_mean({all.machine_medians.at("GPU-a"), all.machine_medians.at("GPU-b"),
                                          all.machine_medians.at("GPU-c")}), 1e-9);
  EXPECT_EQ(all.process_medians.size(), 6u);
  EXPECT_NEAR(geometric_mean(all.process_medians), all.median, 1e-6 * all.median) << "processes centred on the new centre";
  EXPECT_NO_THROW(parse_baseline(baseline_to_text(abc), "abc.json")) << "a valid file";
  // Each input's sessions, one after another: a one-GPU recording is a session of its own.
  EXPECT_EQ(ab.recorded.machine_groups, (std::vector<std::vector<std::string>>{{"GPU-a"}, {"GPU-b"}}));
  EXPECT_EQ(abc.recorded.machine_groups, (std::vector<std::vector<std::string>>{{"GPU-a"}, {"GPU-b"}, {"GPU-c"}}));
}

TEST(MergeRecordings, AHostsRecordingStaysOneSession) {
  Recording host = one_gpu_recording("host.json", "GPU-a", {10.0, 10.1});
  host.baseline.recorded.gpu_uuids = {"GPU-a", "GPU-b"};
  host.baseline.recorded.machine_groups = {{"GPU-a", "GPU-b"}};
  BaselineEntry& e = host.baseline.benchmarks.at("fam/a/n:1");
  e.machine_medians = {{"GPU-a", 10.0}, {"GPU-b", 10.1}};
  const Baseline merged = merge_recordings({host, one_gpu_recording("c.json", "GPU-c", {9.9, 10.0})}, nullptr);
  EXPECT_EQ(merged.recorded.machine_groups, (std::vector<std::vector<std::string>>{{"GPU-a", "GPU-b"}, {"GPU-c"}}));
}

TEST(MergeRecordings, KeepsThePreviousHandTolerancesAndOtherSuitesEntries) {
  Recording a = one_gpu_recording("a.json", "GPU-a", {10.0, 10.1});
  Recording b = one_gpu_recording("b.json", "GPU-b", {10.4, 10.5});
  Baseline previous = a.baseline;
  previous.default_tolerance_pct = 5.0;
  previous.family_tolerance_pct["fam"] = 3.0;
  previous.benchmarks["fam/a/n:1"].tolerance_pct = 2.5;
  previous.benchmarks["fam/gone/n:1"] = previous.benchmarks["fam/a/n:1"];
  previous.benchmarks["saxpy_suite/BM_saxpy/1024"] = previous.benchmarks["fam/a/n:1"];
  const Baseline merged = merge_recordings({a, b}, &previous);
  EXPECT_DOUBLE_EQ(merged.default_tolerance_pct, 5.0);
  EXPECT_DOUBLE_EQ(merged.family_tolerance_pct.at("fam"), 3.0);
  EXPECT_EQ(merged.benchmarks.at("fam/a/n:1").tolerance_pct, 2.5);
  EXPECT_EQ(merged.benchmarks.count("saxpy_suite/BM_saxpy/1024"), 1u) << "another suite's entry kept";
  EXPECT_EQ(merged.benchmarks.count("fam/gone/n:1"), 0u) << "a merged family's removed benchmark goes";
}

TEST(MergeRecordings, RefusesRecordingsThatDoNotBelongTogether) {
  const Recording a = one_gpu_recording("a.json", "GPU-a", {10.0, 10.1});
  const auto refusal = [](const std::vector<Recording>& recordings) {
    return testing::input_error_of([&] { merge_recordings(recordings, nullptr); });
  };
  expect_words(refusal({a, one_gpu_recording("b.json", "GPU-b", {10.4}, "fedcba9876543210")}),
               {"recordings of different code: fam/a/n:1 differs between a.json and b.json"});
  expect_words(refusal({a, one_gpu_recording("b.json", "GPU-a", {10.4})}),
               {"GPU-a is in both a.json and b.json", "count twice"});
  Recording other_model = one_gpu_recording("h100.json", "GPU-b", {10.4});
  other_model.baseline.gpu.slug = "nvidia-h100";
  expect_words(refusal({a, other_model}), {"h100.json is of 'nvidia-h100'", "a.json of 'nvidia-h200'"});
  Recording old_method = one_gpu_recording("old.json", "GPU-b", {10.4});
  old_method.baseline.recorded.measuring_method = 1;
  expect_words(refusal({a, old_method}), {"old.json was measured with method 1", "re-record"});
  Recording more = one_gpu_recording("b.json", "GPU-b", {10.4});
  more.baseline.benchmarks["fam/b/n:1"] = more.baseline.benchmarks["fam/a/n:1"];
  expect_words(refusal({a, more}), {"fam/b/n:1 is in b.json but not in a.json", "same suite on every GPU"});
  Recording cycles = one_gpu_recording("b.json", "GPU-b", {10.4});
  cycles.baseline.benchmarks["fam/a/n:1"].unit = "cycles";
  expect_words(refusal({a, cycles}), {"fam/a/n:1 is in us in a.json, in cycles in b.json"});
  Recording pooled = one_gpu_recording("pooled.json", "GPU-b", {10.4});
  pooled.baseline.recorded.gpu_uuids = {"GPU-b", "GPU-c"};
  expect_words(refusal({a, pooled}), {"pooled.json pools 2 GPUs without their levels", "--all-gpus"});
  Recording nameless = one_gpu_recording("n.json", "GPU-b", {10.4});
  nameless.baseline.recorded.gpu_uuids.clear();
  expect_words(refusal({a, nameless}), {"n.json names no GPU"});
}

}  // namespace
}  // namespace gpuperf::gate
