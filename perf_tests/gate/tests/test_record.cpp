// Recording a baseline: one median per process, hand tolerances kept, refusals, atomic writing, what moved.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "gate/atomic_file.h"
#include "gate/input_error.h"
#include "gate/record.h"
#include "gate/tolerance.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::testdata;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kChase = "smem_latency/pointer_chase/stride:1";

std::vector<ResultsFile> two_runs() {
  return {load_results(testdata("results_run1.json")), load_results(testdata("results_run2.json"))};
}

std::vector<ResultsFile> slow_runs() {
  return {load_results(testdata("results_slow_1.json")), load_results(testdata("results_slow_2.json")),
          load_results(testdata("results_slow_3.json"))};
}

TEST(Record, KeepsOneMedianPerProcess) {
  RecordOptions options;
  options.date = "2026-12-01T00:00:00Z";
  const std::vector<ResultsFile> runs = two_runs();
  const Baseline b = record_baseline(runs, nullptr, options);
  EXPECT_EQ(b.gpu.slug, "nvidia-h200");
  EXPECT_EQ(b.gpu.sm_count, 132);
  EXPECT_EQ(b.gpu.memory_mib, 143771);
  EXPECT_EQ(b.gpu.driver, "580.159.04");
  EXPECT_EQ(b.recorded.runs, 2);
  EXPECT_EQ(b.recorded.samples_per_run, 30);
  EXPECT_EQ(b.recorded.date, "2026-12-01T00:00:00Z");
  EXPECT_EQ(b.recorded.commit, "abc123") << "from the results when --commit is not given";
  EXPECT_DOUBLE_EQ(b.default_tolerance_pct, kDefaultTolerancePct);
  const BaselineEntry& e = b.benchmarks.at(kReduce9);
  ASSERT_EQ(e.process_medians.size(), 2u);
  EXPECT_DOUBLE_EQ(e.process_medians[0], median(runs[0].benchmarks.at(kReduce9).samples)) << "in file order";
  EXPECT_DOUBLE_EQ(e.process_medians[1], median(runs[1].benchmarks.at(kReduce9).samples));
  EXPECT_DOUBLE_EQ(e.median, geometric_mean(e.process_medians));
  EXPECT_NE(e.process_medians[0], e.process_medians[1]) << "each process at its own offset";
  EXPECT_EQ(e.bytes, 134217728.0);
  EXPECT_EQ(b.benchmarks.at(kChase).unit, "cycles");
}

TEST(Record, OneRunGivesOneProcessMedian) {
  const Baseline b = record_baseline({load_results(testdata("results_run1.json"))}, nullptr, {});
  EXPECT_EQ(b.benchmarks.at(kReduce9).process_medians.size(), 1u);
  EXPECT_DOUBLE_EQ(b.benchmarks.at(kReduce9).median, b.benchmarks.at(kReduce9).process_medians.front());
}

TEST(Record, AThrottledRunIsLeftOutOfTheBenchmarksItThrottled) {
  std::vector<ResultsFile> runs = two_runs();
  runs.insert(runs.begin() + 1, load_results(testdata("results_throttled.json")));
  const Baseline b = record_baseline(runs, nullptr, {});
  EXPECT_EQ(b.recorded.runs, 3);
  for (const auto& [name, entry] : b.benchmarks) EXPECT_EQ(entry.process_medians.size(), 2u) << name;
  EXPECT_DOUBLE_EQ(b.benchmarks.at(kReduce9).process_medians[1], median(runs[2].benchmarks.at(kReduce9).samples));
}

TEST(Record, KeepsHandWrittenTolerancesDefaultsAndFamilies) {
  Baseline previous = load_baseline(testdata("baseline_h200.json"));
  previous.default_tolerance_pct = 4.0;
  RecordOptions options;
  options.commit = "def456";
  const Baseline b = record_baseline(two_runs(), &previous, options);
  EXPECT_EQ(b.benchmarks.at(kReduce9).tolerance_pct, 2.0);
  EXPECT_FALSE(b.benchmarks.at(kChase).tolerance_pct.has_value()) << "none invented";
  EXPECT_DOUBLE_EQ(b.family_tolerance_pct.at("smem_latency"), 1.0);
  EXPECT_DOUBLE_EQ(b.default_tolerance_pct, 4.0);
  EXPECT_EQ(b.recorded.commit, "def456");
  EXPECT_EQ(b.benchmarks.count("reduction/reduce0_removed_variant/n:1024"), 0u) << "removed benchmarks go";

  options.default_tolerance_pct = 2.5;
  EXPECT_DOUBLE_EQ(record_baseline(two_runs(), &previous, options).default_tolerance_pct, 2.5)
      << "an explicit --default-tolerance-pct wins";
}

TEST(Record, HandTolerancesSurviveTheWrittenFile) {
  const Baseline previous = load_baseline(testdata("baseline_h200.json"));
  const Baseline b = record_baseline(two_runs(), &previous, {});
  const Baseline again = parse_baseline(baseline_to_text(b), "written");
  EXPECT_EQ(again.benchmarks.at(kReduce9).tolerance_pct, 2.0);
  EXPECT_DOUBLE_EQ(again.family_tolerance_pct.at("smem_latency"), 1.0);
  // The chase is a cycle count: its family's 1% is below 2 cycles of its median, so the floor applies.
  const BaselineEntry& chase = again.benchmarks.at(kChase);
  const Tolerance resolved = resolve_tolerance(again, kChase, chase, /*same_gpu=*/false);
  EXPECT_DOUBLE_EQ(resolved.pct, std::max(1.0, 100.0 * kCycleResolution / chase.median));
}

TEST(Record, ListsTheGpuUuidsOfItsRunsUniqueAndSorted) {
  std::vector<ResultsFile> runs = two_runs();  // both fixtures were measured on GPU-1234
  EXPECT_EQ(record_baseline(runs, nullptr, {}).recorded.gpu_uuids, std::vector<std::string>{"GPU-1234"});

  runs.push_back(load_results(testdata("results_run1.json")));
  runs.back().gpu.uuid = "GPU-0abc";
  ResultsFile without_uuid = load_results(testdata("results_run2.json"));
  without_uuid.gpu.uuid.clear();
  runs.push_back(without_uuid);
  EXPECT_EQ(record_baseline(runs, nullptr, {}).recorded.gpu_uuids,
            (std::vector<std::string>{"GPU-0abc", "GPU-1234"}))
      << "sorted, no duplicate, nothing from the run without a uuid";

  Baseline previous = load_baseline(testdata("baseline_h200.json"));
  previous.recorded.gpu_uuids = {"GPU-old"};
  EXPECT_TRUE(record_baseline({without_uuid}, &previous, {}).recorded.gpu_uuids.empty())
      << "the previous baseline's GPUs are not this one's";
}

TEST(Record, KeepsTheSameGpuToleranceOfThePreviousBaseline) {
  Baseline previous = load_baseline(testdata("baseline_h200.json"));
  EXPECT_FALSE(record_baseline(two_runs(), &previous, {}).same_gpu_tolerance_pct.has_value()) << "none invented";
  previous.same_gpu_tolerance_pct = 1.5;
  const Baseline b = record_baseline(two_runs(), &previous, {});
  EXPECT_EQ(b.same_gpu_tolerance_pct, 1.5);
  EXPECT_EQ(parse_baseline(baseline_to_text(b), "written").same_gpu_tolerance_pct, 1.5) << "and writes it";

  RecordOptions options;
  options.same_gpu_tolerance_pct = 2.5;
  EXPECT_EQ(record_baseline(two_runs(), &previous, options).same_gpu_tolerance_pct, 2.5)
      << "an explicit --same-gpu-tolerance-pct wins";
  EXPECT_EQ(record_baseline(two_runs(), nullptr, options).same_gpu_tolerance_pct, 2.5) << "also for a first baseline";
  EXPECT_EQ(record_baseline(two_runs(), nullptr, {}).same_gpu_tolerance_pct, kDefaultSameGpuTolerancePct)
      << "a first baseline starts from the project's same-GPU default";
}

TEST(Record, RefusesErrorsThrottledRunsMixedGpusAndAnotherGpusPrevious) {
  const auto refusal = [](const std::vector<ResultsFile>& runs, const Baseline* previous) {
    try {
      record_baseline(runs, previous, {});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refusal({load_results(testdata("results_error.json"))}, nullptr).find("reported an error"),
            std::string::npos);
  EXPECT_NE(refusal({load_results(testdata("results_throttled.json"))}, nullptr)
                .find("have fewer than 5 valid samples in every process"),
            std::string::npos);
  EXPECT_NE(
      refusal({load_results(testdata("results_run1.json")), load_results(testdata("results_other_gpu.json"))}, nullptr)
          .find("different GPUs"),
      std::string::npos);
  const Baseline previous = load_baseline(testdata("baseline_h200.json"));
  EXPECT_NE(refusal({load_results(testdata("results_other_gpu.json"))}, &previous).find("--previous"),
            std::string::npos);
}

TEST(Record, MovesAreSortedByTheSizeOfTheChange) {
  const Baseline previous = load_baseline(testdata("baseline_h200.json"));
  const Baseline next = record_baseline(slow_runs(), &previous, {});
  const std::vector<BaselineMove> moves = baseline_moves(previous, next);
  ASSERT_EQ(moves.size(), 4u);
  EXPECT_EQ(moves.front().name, kReduce9);
  EXPECT_NEAR(moves.front().change_pct, 10.0, 1.0);
  EXPECT_EQ(moves.back().kind, BaselineMove::Kind::kRemoved);
  char largest[64];
  std::snprintf(largest, sizeof largest, "%+7.1f%%  %.2f us -> %.2f us  ", moves.front().change_pct,
                moves.front().old_median, moves.front().new_median);
  std::ostringstream text;
  write_moves(moves, text);
  EXPECT_EQ(text.str().rfind(std::string(largest) + kReduce9 + "\n", 0), 0u) << "largest change first: " << text.str();
  EXPECT_NE(text.str().find("removed   was 5.00 us  reduction/reduce0_removed_variant/n:1024"), std::string::npos)
      << text.str();
  // The last line counts the moves beyond the old file's tolerance and names the largest.
  std::snprintf(largest, sizeof largest, "largest %+.1f%% (tolerance 2.0%%) ", moves.front().change_pct);
  EXPECT_NE(text.str().find("WARNING: 1 of 3 benchmarks moved beyond"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find(largest), std::string::npos) << text.str();

  std::ostringstream quiet;
  write_moves(baseline_moves(previous, previous), quiet);
  EXPECT_NE(quiet.str().find("no benchmark moved beyond"), std::string::npos) << quiet.str();
}

class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gate_atomic_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(AtomicWrite, ReplacesTheFileAndLeavesNoTemporary) {
  const std::string path = (dir_ / "b.json").string();
  write_file_atomically(path, "old\n");
  write_file_atomically(path, "new\n");
  std::ifstream in(path);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "new");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST_F(AtomicWrite, FailureLeavesTheOldFileIntact) {
  // The rename target is a non-empty directory: the rename fails after the temporary was written.
  const std::filesystem::path target = dir_ / "busy";
  std::filesystem::create_directories(target / "inside");
  try {
    write_file_atomically(target.string(), "content");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("left unchanged"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::is_directory(target / "inside"));
  EXPECT_FALSE(std::filesystem::exists(target.string() + ".tmp"));
  EXPECT_THROW(write_file_atomically((dir_ / "no_such_dir" / "x.json").string(), "x"), InputError);
}

}  // namespace
}  // namespace gpuperf::gate
