// Recording a baseline: one median per process, hand tolerances kept, refusals, atomic writing, what moved.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/atomic_file.h"
#include "formats/fnv1a.h"
#include "formats/input_error.h"
#include "formats/measuring_method.h"
#include "formats/runtime_folder.h"
#include "formats/version.h"
#include "gate/inputs/gbench_results.h"
#include "gate/inputs/nvbench_results.h"
#include "gate/judging/tolerance.h"
#include "gate/recording/record.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::ScratchFolderTest;
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

// The process that checks and captures fingerprints times nothing (gpuperf_bench --fingerprint-only):
// its file gives the baseline its fingerprints and is no run.
TEST(Record, AFingerprintOnlyFileGivesFingerprintsAndIsNoRun) {
  std::vector<ResultsFile> runs = two_runs();
  runs.push_back(load_results(testdata("results_fingerprint_only.json")));
  const Baseline b = record_baseline(runs, nullptr, RecordOptions{});
  EXPECT_EQ(b.recorded.runs, 2);
  const BaselineEntry& e = b.benchmarks.at(kReduce9);
  EXPECT_EQ(e.process_medians.size(), 2u);
  ASSERT_TRUE(e.fingerprint.has_value());
  EXPECT_EQ(e.fingerprint->capture_status, formats::kCapturedByCupti);
  EXPECT_EQ(*e.fingerprint, runs[2].fingerprints.at(kReduce9));
}

TEST(Record, NamesTheHarnessVersionThatRecordedItNotThePreviousFiles) {
  Baseline previous = load_baseline(testdata("baseline_h200.json"));
  EXPECT_EQ(previous.recorded.harness_version, "") << "a file from before versions reads without one";
  EXPECT_EQ(record_baseline(two_runs(), &previous, {}).recorded.harness_version, formats::kHarnessVersion);
  previous.recorded.harness_version = "0.0.1";
  const Baseline b = record_baseline(two_runs(), &previous, {});
  EXPECT_EQ(b.recorded.harness_version, formats::kHarnessVersion);
  EXPECT_EQ(parse_baseline(baseline_to_text(b), "written").recorded.harness_version, formats::kHarnessVersion)
      << "written and read back";
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

// A team's suite's benchmark, as a recording of its own wrote it into the shared file.
BaselineEntry team_suite_entry() {
  BaselineEntry entry;
  entry.unit = "us";
  entry.process_medians = {1.25, 1.5, 1.75};
  entry.median = geometric_mean(entry.process_medians);
  entry.tolerance_pct = 6.5;
  return entry;
}

TEST(RecordedFamilies, ARecordingReplacesTheFamiliesItsResultsHold) {
  const RecordedFamilies ours = recorded_families(two_runs());
  EXPECT_EQ(ours.families, (std::set<std::string>{"reduction", "smem_latency"}));
  EXPECT_TRUE(ours.replaces("reduction/reduce0_removed_variant/n:1024")) << "a gone benchmark of a recorded family";
  EXPECT_FALSE(ours.replaces("saxpy_suite/BM_saxpy/1024"));
  EXPECT_FALSE(ours.replaces("reductions/x/n:1")) << "the whole first part names the family";
  const RecordedFamilies team =
      recorded_families({load_gbench_results(testdata("gbench/single.json"), "saxpy_suite", std::nullopt)});
  EXPECT_EQ(team.families, std::set<std::string>{"saxpy_suite"});
}

TEST(Record, KeepsTheEntriesOfFamiliesTheRunsDoNotHoldAsTheyWere) {
  Baseline previous = load_baseline(testdata("baseline_h200_fingerprints.json"));
  previous.benchmarks.emplace("saxpy_suite/BM_saxpy/1024", team_suite_entry());
  const Baseline b = record_baseline(two_runs(), &previous, {});
  ASSERT_EQ(b.benchmarks.count("saxpy_suite/BM_saxpy/1024"), 1u) << "another suite's entry is kept";
  const BaselineEntry& kept = b.benchmarks.at("saxpy_suite/BM_saxpy/1024");
  EXPECT_EQ(kept.process_medians, team_suite_entry().process_medians);
  EXPECT_EQ(kept.tolerance_pct, 6.5);
  EXPECT_EQ(b.benchmarks.count("reduction/reduce0_removed_variant/n:1024"), 0u) << "a recorded family's gone one goes";

  const std::vector<BaselineMove> moves = baseline_moves(previous, b, recorded_families(two_runs()));
  for (const BaselineMove& move : moves) EXPECT_NE(move.name, "saxpy_suite/BM_saxpy/1024") << "kept, not moved";
  EXPECT_EQ(moves.size(), 4u) << "three recorded, one removed";
}

// Google Benchmark >= 1.8 SkipWithMessage, an nvbench state it skipped: not the GPU's doing.
TEST(Record, ABenchmarkTheSuiteSkippedIsLeftOutNotRefusedAndItsPreviousEntryKept) {
  std::vector<ResultsFile> runs = two_runs();
  for (ResultsFile& run : runs) {
    BenchmarkSamples& skipped = run.benchmarks.at(kChase);
    skipped = BenchmarkSamples{};
    skipped.skipped = true;
    skipped.skip_message = "needs sm_100";
    skipped.repetitions = 1;
  }
  ASSERT_EQ(skipped_benchmarks(runs).size(), 1u);
  EXPECT_EQ(skipped_benchmarks(runs).front().name, kChase);
  EXPECT_EQ(skipped_benchmarks(runs).front().message, "needs sm_100");
  EXPECT_EQ(record_baseline(runs, nullptr, {}).benchmarks.count(kChase), 0u) << "nothing to record";
  const Baseline previous = load_baseline(testdata("baseline_h200.json"));
  const Baseline b = record_baseline(runs, &previous, {});
  ASSERT_EQ(b.benchmarks.count(kChase), 1u);
  EXPECT_EQ(b.benchmarks.at(kChase).process_medians, previous.benchmarks.at(kChase).process_medians);
  EXPECT_NE(b.benchmarks.at(kReduce9).median, previous.benchmarks.at(kReduce9).median) << "the others recorded";
}

// An nvbench suite's skipped state (is_skipped, here its skip_time limit) is left out, the others recorded.
TEST(Record, AnNvbenchSuitesSkippedStateIsLeftOutAndTheOthersRecorded) {
  const NvbenchResults nv = load_nvbench_results(testdata("nvbench/suite.json"), "suite", std::nullopt);
  const Baseline b = record_baseline({nv.results}, nullptr, {});
  EXPECT_EQ(b.benchmarks.count("suite/copy_sweep/T:F64,BlockSize:256,Elements:1048576"), 0u);
  EXPECT_EQ(b.benchmarks.count("suite/copy_sweep/T:F64,BlockSize:64,Elements:1048576"), 1u);
  const std::vector<SkippedBenchmark> skipped = skipped_benchmarks({nv.results});
  ASSERT_FALSE(skipped.empty());
  EXPECT_EQ(skipped.front().name, "suite/copy_sweep/T:F64,BlockSize:256,Elements:1048576");
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
    } catch (const formats::InputError& e) {
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

// The method the runs were measured with is the baseline's; a team suite's recording keeps the file's.
TEST(Record, WritesTheRunsMeasuringMethodAndRefusesRunsOfTwoMethods) {
  std::vector<ResultsFile> runs = two_runs();
  for (ResultsFile& run : runs) run.measuring_method = 2;
  const Baseline b = record_baseline(runs, nullptr, {});
  EXPECT_EQ(b.recorded.measuring_method, 2);
  EXPECT_EQ(record_baseline(two_runs(), nullptr, {}).recorded.measuring_method, formats::kMeasuringMethodUnrecorded)
      << "results that name no method";

  runs.back().measuring_method = 1;
  EXPECT_THROW(record_baseline(runs, nullptr, {}), formats::InputError);
  try {
    record_baseline(runs, nullptr, {});
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("results measured with methods 2 and 1"), std::string::npos) << e.what();
  }

  formats::GpuIdentity gpu;
  gpu.name = runs.front().gpu.name;  // the team suite ran on the same model
  ResultsFile team = load_gbench_results(testdata("gbench/single.json"), "saxpy_suite", gpu);
  team.benchmarks.erase("saxpy_suite/BM_fails");  // its error would refuse the recording
  EXPECT_EQ(record_baseline({team}, nullptr, {}).recorded.measuring_method, 0) << "a team suite's own method";
  EXPECT_EQ(baseline_to_text(record_baseline({team}, nullptr, {})).find("measuring_method"), std::string::npos);
  const Baseline with_team = record_baseline({team}, &b, {});
  EXPECT_EQ(with_team.recorded.measuring_method, 2) << "our families' entries are kept, and so is their method";
}

TEST(Record, MovesAreSortedByTheSizeOfTheChange) {
  const Baseline previous = load_baseline(testdata("baseline_h200.json"));
  const Baseline next = record_baseline(slow_runs(), &previous, {});
  const std::vector<BaselineMove> moves = baseline_moves(previous, next, recorded_families(slow_runs()));
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
  write_moves(baseline_moves(previous, previous, recorded_families(slow_runs())), quiet);
  EXPECT_NE(quiet.str().find("no benchmark moved beyond"), std::string::npos) << quiet.str();
}

// The names in `dir`, sorted.
std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class AtomicWrite : public ScratchFolderTest {};

TEST_F(AtomicWrite, ReplacesTheFileAndLeavesNoTemporary) {
  const std::string path = (dir_ / "b.json").string();
  formats::write_file_atomically(path, "old\n");
  formats::write_file_atomically(path, "new\n");
  std::ifstream in(path);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "new");
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"b.json"});
  // mkstemp creates 0600: the file gets what a plain create would give, readable by others as before.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(std::filesystem::status(path).permissions(), static_cast<std::filesystem::perms>(0666 & ~mask));
}

// A writer used to stage every file in "<path>.tmp": two writers at once truncated and renamed each other's
// temporary file. Each now stages in its own (mkstemp) beside the target.
TEST_F(AtomicWrite, ParallelWritersEachStageTheirOwnTemporary) {
  const std::string path = (dir_ / "b.json").string();
  std::vector<std::thread> writers;
  std::atomic<int> failed{0};
  for (int i = 0; i < 8; ++i) {
    writers.emplace_back([&, i] {
      for (int round = 0; round < 20; ++round) {
        try {
          formats::write_file_atomically(path, std::string(4096 + i, static_cast<char>('a' + i)));
        } catch (const formats::InputError&) {
          ++failed;
        }
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(failed, 0);
  std::ifstream in(path);
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(content.size(), 4096u);
  EXPECT_EQ(content, std::string(content.size(), content.front())) << "one writer's whole content";
  EXPECT_EQ(names_in(dir_), std::vector<std::string>{"b.json"});
}

// Outputs that are not regular files: an atomic write would have replaced a symbolic link, a named pipe or
// (as root) a device with a regular file. Refused before anything is written, the path left as it was.
TEST_F(AtomicWrite, RefusesAnOutputThatIsNotARegularFile) {
  const std::filesystem::path target = dir_ / "real.md";
  formats::write_file_atomically(target.string(), "kept\n");
  std::filesystem::create_symlink(target, dir_ / "link.md");
  ASSERT_EQ(::mkfifo((dir_ / "fifo.json").c_str(), 0644), 0);
  for (const char* name : {"link.md", "fifo.json"}) {
    try {
      formats::write_file_atomically((dir_ / name).string(), "x");
      FAIL() << name << ": expected an InputError";
    } catch (const formats::InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(name), std::string::npos) << message;
      EXPECT_NE(message.find(std::string(name) == "link.md" ? "a symbolic link" : "a named pipe"), std::string::npos)
          << message;
    }
  }
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "link.md"));
  EXPECT_TRUE(std::filesystem::is_fifo(dir_ / "fifo.json"));
  std::ifstream in(target);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "kept");
  EXPECT_THROW(formats::check_output_path("/dev/null"), formats::InputError) << "a device";
  EXPECT_THROW(formats::check_output_path(dir_.string()), formats::InputError) << "a folder";
}

// One call's outputs: with the second one's folder missing, the first used to be written already (and
// the run exited 2 with half its reports). Now nothing is written, and no temporary file is left.
TEST_F(AtomicWrite, SeveralOutputsAreWrittenAllOrNothing) {
  const std::string markdown = (dir_ / "summary.md").string();
  formats::OutputFiles files;
  files.add(markdown, "# report\n");
  EXPECT_THROW(files.add((dir_ / "no_such_dir" / "r.json").string(), "{}"), formats::InputError);
  try {
    files.add((dir_ / "." / "summary.md").string(), "again");
    FAIL() << "expected an InputError: one file named twice";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("two outputs"), std::string::npos) << e.what();
  }
  // The folder goes away after the check: the staging fails, before any rename.
  formats::OutputFiles late;
  late.add(markdown, "# report\n");
  std::filesystem::create_directories(dir_ / "gone");
  late.add((dir_ / "gone" / "r.json").string(), "{}");
  std::filesystem::remove_all(dir_ / "gone");
  EXPECT_THROW(late.write(), formats::InputError);
  EXPECT_TRUE(names_in(dir_).empty()) << "nothing written, no temporary file";
  formats::OutputFiles both;
  both.add(markdown, "# report\n");
  both.add((dir_ / "r.json").string(), "{}");
  both.write();
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"r.json", "summary.md"}));
}

// An output too large to hold in memory is streamed to its temporary file and renamed with the others;
// one never written leaves nothing behind.
TEST_F(AtomicWrite, AStreamedOutputIsWrittenWithTheOthersOrNotAtAll) {
  const std::string json = (dir_ / "export.json").string();
  {
    formats::OutputFiles abandoned;
    abandoned.add_streamed(json) << "{\"half\":";
    ASSERT_EQ(names_in(dir_).size(), 1u) << "its temporary file";
    EXPECT_NE(names_in(dir_)[0].find("export.json.tmp."), std::string::npos);
  }
  EXPECT_TRUE(names_in(dir_).empty()) << "an output never written leaves no file";
  formats::OutputFiles files;
  std::ostream& out = files.add_streamed(json);
  for (int i = 0; i < 1000; ++i) out << "line " << i << "\n";
  files.add((dir_ / "summary.md").string(), "# report\n");
  EXPECT_THROW(files.add_streamed((dir_ / "." / "export.json").string()), formats::InputError) << "named twice";
  files.write();
  EXPECT_EQ(names_in(dir_), (std::vector<std::string>{"export.json", "summary.md"}));
  std::ifstream in(json);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  EXPECT_EQ(lines, 1000);
}

// The locks of files read and rewritten live in this user's lock folder, never beside the file: a lock
// left in a team's baselines/ was committed by `git add baselines/`.
class FileLockTest : public ScratchFolderTest {
 protected:
  void SetUp() override {
    ScratchFolderTest::SetUp();
    std::filesystem::create_directories(dir_ / "team" / "baselines");
    std::filesystem::create_directories(dir_ / "runtime");
    tmpdir_.emplace("TMPDIR", path("runtime"));
  }
  void TearDown() override {
    tmpdir_.reset();
    ScratchFolderTest::TearDown();
  }
  std::filesystem::path baselines() const { return dir_ / "team" / "baselines"; }
  std::filesystem::path lock_folder() const {
    return dir_ / "runtime" / ("gpuperf-locks-" + std::to_string(::getuid()));
  }

  std::optional<testing::ScopedEnvironment> tmpdir_;
};

// Whether another open file description could take `lock_file`'s lock now (flock, as another process would).
bool lock_is_free(const std::string& lock_file) {
  const int fd = ::open(lock_file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;
  const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return free;
}

TEST_F(FileLockTest, TheLockIsInTheLockFolderAndTheFileAloneInItsOwn) {
  const std::string target = (baselines() / "nvidia-h100-80gb-hbm3.json").string();
  std::string held;
  {
    const formats::FileLock lock(target);
    held = lock.file();
    formats::write_file_atomically(target, "{}\n");
    EXPECT_EQ(std::filesystem::path(held).parent_path(), lock_folder());
    const std::string name = std::filesystem::path(held).filename().string();
    EXPECT_EQ(name.rfind("file-nvidia-h100-80gb-hbm3.json-", 0), 0u) << name << ": readable, named after the file";
    EXPECT_EQ(name.size(), std::string("file-nvidia-h100-80gb-hbm3.json-").size() + 16 + 5) << name;
    EXPECT_FALSE(lock_is_free(held)) << "another process waits while it is held";
  }
  EXPECT_TRUE(lock_is_free(held)) << "released when the lock ends";
  EXPECT_EQ(names_in(baselines()), std::vector<std::string>{"nvidia-h100-80gb-hbm3.json"})
      << "nothing of ours beside it";
}

TEST_F(FileLockTest, OneFileUnderTwoNamesHasOneLockAndTwoFilesTwo) {
  const std::string a = (baselines() / "a.json").string();
  std::filesystem::create_directory_symlink(baselines(), dir_ / "link");
  const std::string via_link = (dir_ / "link" / "a.json").string();
  const std::string via_dots = (baselines() / ".." / "baselines" / "." / "a.json").string();
  EXPECT_EQ(formats::file_lock_path(a), formats::file_lock_path(via_link));
  EXPECT_EQ(formats::file_lock_path(a), formats::file_lock_path(via_dots));
  std::filesystem::create_directories(dir_ / "other");
  EXPECT_NE(formats::file_lock_path(a), formats::file_lock_path((dir_ / "other" / "a.json").string()))
      << "one name in two folders: two files, two locks";
  // The same file twice: a second flock of it would wait on the first forever.
  const formats::FileLocks locks({a, via_link, (baselines() / "b.json").string()});
  EXPECT_EQ(names_in(lock_folder()).size(), 2u);
  EXPECT_FALSE(lock_is_free(formats::file_lock_path(via_dots)));
  EXPECT_TRUE(names_in(baselines()).empty());
}

TEST(FileLockName, KeepsTheNameReadableAndHashesTheWholePath) {
  EXPECT_EQ(formats::file_lock_name("/b/a.json"),
            "file-a.json-" + formats::hex16(formats::fnv1a64("/b/a.json")) + ".lock");
  EXPECT_NE(formats::file_lock_name("/b/a.json"), formats::file_lock_name("/c/a.json"));
  const std::string odd = formats::file_lock_name("/b/r\xc3\xa9sum\xc3\xa9 $(x).json");
  EXPECT_EQ(odd.substr(0, odd.size() - 22), "file-r__sum_____x_.json") << "no byte a shell or a file system minds";
  EXPECT_EQ(formats::file_lock_name("/b/" + std::string(300, 'x')).size(), 5 + 64 + 1 + 16 + 5) << "within NAME_MAX";
  EXPECT_EQ(formats::canonical_path("/b/./c/../a.json/"), "/b/a.json");
}

TEST_F(FileLockTest, ALockFolderOthersCanWriteIsRefused) {
  std::filesystem::create_directories(lock_folder());
  ::chmod(lock_folder().c_str(), 0777);
  const std::string message =
      testing::input_error_of([&] { formats::FileLock lock((baselines() / "a.json").string()); });
  testing::expect_words(message, {"the lock folder is not private", "writable by group or others", "set TMPDIR"});
}

TEST_F(AtomicWrite, FailureLeavesTheOldFileIntact) {
  // The rename target is a non-empty directory: the rename fails after the temporary was written.
  const std::filesystem::path target = dir_ / "busy";
  std::filesystem::create_directories(target / "inside");
  try {
    formats::write_file_atomically(target.string(), "content");
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("left unchanged"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::is_directory(target / "inside"));
  EXPECT_FALSE(std::filesystem::exists(target.string() + ".tmp"));
  EXPECT_THROW(formats::write_file_atomically((dir_ / "no_such_dir" / "x.json").string(), "x"), formats::InputError);
}

}  // namespace
}  // namespace gpuperf::gate
