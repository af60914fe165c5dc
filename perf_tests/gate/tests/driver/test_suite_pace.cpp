// A team's suite fast by default and its progress within a process: the pace the driver adds to a team's
// arguments (suite_pace.h), what a Google Benchmark or nvbench log says of how far a process is, and the
// lines the driver prints while one runs (process_progress.h).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gate/driver/gbench_suite.h"
#include "gate/driver/process_progress.h"
#include "gate/driver/suite_pace.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::driver {
namespace {

using Args = std::vector<std::string>;
using testing::expect_words;
using testing::ScratchFolderTest;

TEST(SuitePace, GbenchGetsTheDriversMinimumTimeUnlessTheTeamSetsOne) {
  const PaceChoice chosen = gbench_pace({"--benchmark_enable_random_interleaving=false"});
  EXPECT_EQ(chosen.added, (Args{"--benchmark_min_time=0.02"}));
  expect_words(chosen.note, {"0.02 s", "--benchmark_min_time=0.02", "driver's choice", "MinTime()",
                             "Iterations()", "ARGS --benchmark_min_time="});
  for (const Args& own : {Args{"--benchmark_min_time=0.2s"}, Args{"--benchmark_min_time=100x"},
                          Args{"--x", "--benchmark_min_time=1"}}) {
    const PaceChoice kept = gbench_pace(own);
    EXPECT_TRUE(kept.added.empty()) << own.back();
    EXPECT_EQ(kept.note, "") << own.back();
  }
  EXPECT_EQ(gbench_pace({}).added, (Args{"--benchmark_min_time=0.02"})) << "no arguments at all";
}

TEST(SuitePace, NvbenchGetsTheDriversMinTimeUnlessTheTeamTunesItsStoppingRule) {
  const PaceChoice chosen = nvbench_pace({"--axis", "T=F32"});
  EXPECT_EQ(chosen.added, (Args{"--min-time", "0.05"}));
  expect_words(chosen.note, {"0.05 s", "--min-time 0.05", "driver's choice", "ARGS --min-time"});
  for (const Args& own : {Args{"--min-time", "1"}, Args{"--max-noise", "1"}, Args{"--stopping-criterion", "entropy"},
                          Args{"--timeout", "5"}, Args{"--max-noise=2"}}) {
    EXPECT_TRUE(nvbench_pace(own).added.empty()) << own.front();
    EXPECT_EQ(nvbench_pace(own).note, "") << own.front();
  }
  EXPECT_EQ(nvbench_pace({"--min-samples-x"}).added.size(), 2U) << "only the options themselves count";
}

// Google Benchmark's console output as a process's log holds it: the context on stderr, the header, each
// benchmark's repetitions and aggregates together; the last row still being written.
constexpr const char* kGbenchLog =
    "2026-01-01T00:00:00+00:00\n"
    "Running ./saxpy_bench\n"
    "Run on (16 X 3000 MHz CPU s)\n"
    "Load Average: 0.10, 0.20, 0.30\n"
    "Using device 0\n"
    "----------------------------------------------------------------------------------\n"
    "Benchmark                                        Time             CPU   Iterations\n"
    "----------------------------------------------------------------------------------\n"
    "BM_saxpy/1024/manual_time                     10.0 us         12.0 us        70000\n"
    "BM_saxpy/1024/manual_time                     10.1 us         12.0 us        70000\n"
    "BM_saxpy/1024/manual_time_mean                10.0 us         12.0 us            2\n"
    "BM_saxpy/1024/manual_time_median              10.0 us         12.0 us            2\n"
    "BM_saxpy/1024/manual_time_stddev             0.070 us        0.000 us            2\n"
    "BM_saxpy/1024/manual_time_cv                  0.70 %          0.00 %             2\n"
    "BM_saxpy/1024/manual_time_p90                 10.1 us         12.0 us            2\n"
    "  a line the suite printed itself\n"
    "BM_copy<float>/4096/manual_time               40.0 us         41.0 us        17000\n"
    "BM_copy<float>/4096/manual_time_mean          40.0 us         41.0 us            2\n"
    "BM_broken/manual_time                     ERROR OCCURRED: 'cudaMalloc failed'\n"
    "BM_last/manual_time                           20.0";

TEST(ProcessProgress, GbenchLogCountsEachBenchmarkOnceWithItsAggregates) {
  const LogProgress progress = gbench_log_progress(kGbenchLog);
  EXPECT_EQ(progress.finished, 3) << "saxpy, copy and the failed one; the row still written does not count";
  EXPECT_EQ(progress.last_finished, "BM_broken/manual_time");
  EXPECT_FALSE(progress.total) << "Google Benchmark does not print its count";
  EXPECT_EQ(progress.running, "");
  EXPECT_EQ(gbench_log_progress("Running ./bench\nRun on (16 X 3000 MHz CPU s)\n").finished, 0)
      << "nothing before the header is a result";
}

TEST(ProcessProgress, GbenchLogWithAggregatesOnlyCountsEachBenchmarkOnce) {
  const LogProgress progress = gbench_log_progress(
      "Benchmark          Time     CPU   Iterations\n"
      "---------------------------------------------\n"
      "\x1b[32mBM_a_mean   \x1b[33m  1.0 us   1.0 us   3\n"
      "BM_a_median     1.0 us   1.0 us   3\n"
      "BM_b_mean       2.0 us   2.0 us   3\n"
      "BM_b_stddev     0.1 us   0.1 us   3\n");
  EXPECT_EQ(progress.finished, 2) << "--benchmark_display_aggregates_only, colour forced";
  EXPECT_EQ(progress.last_finished, "BM_b");
}

TEST(ProcessProgress, NvbenchLogSaysTheStateRunningAndTheCount) {
  const LogProgress progress = nvbench_log_progress(
      "# Devices\n\n## [0] `NVIDIA H200`\n\n# Log\n\n```\n"
      "Run:  [1/3] copy_sweep [Device=0 T=F32 BlockSize=2^6]\n"
      "Pass: Cold: 0.010000ms GPU, 0.020000ms CPU, 0.50s total GPU, 0.70s total wall, 50000x \n"
      "Run:  [2/3] copy_sweep [Device=0 T=F32 BlockSize=2^8]\n"
      "Pass: Cold: 0.012000ms GPU, 0.020000ms CPU, 0.50s total GPU, 0.70s total wall, 41000x \n"
      "Run:  [3/3] scan [Device=0]\n");
  EXPECT_EQ(progress.finished, 2);
  EXPECT_EQ(progress.total, 3);
  EXPECT_EQ(progress.running, "scan [Device=0]");
  EXPECT_EQ(progress.last_finished, "copy_sweep [Device=0 T=F32 BlockSize=2^8]");
  const LogProgress older = nvbench_log_progress("Run:  copy [Device=0]\nPass: Cold: 1ms\nRun:  scan [Device=0]\n");
  EXPECT_EQ(older.finished, 1) << "a version without [i/N] counts its Run: lines";
  EXPECT_FALSE(older.total);
  EXPECT_EQ(older.running, "scan [Device=0]");
}

TEST(ProcessProgress, ExpectedTimeIsThePreviousProcesssElseScaledElseNone) {
  LogProgress two_done;
  two_done.finished = 2;
  EXPECT_EQ(expected_process_s(two_done, 4, 10.0, 30.0), 30.0) << "the previous process of the same selection";
  EXPECT_EQ(expected_process_s(two_done, 4, 10.0, std::nullopt), 20.0) << "scaled by the count";
  EXPECT_FALSE(expected_process_s(two_done, std::nullopt, 10.0, std::nullopt)) << "count unknown";
  EXPECT_FALSE(expected_process_s(LogProgress{}, 4, 10.0, std::nullopt)) << "none finished yet";
}

TEST(ProcessProgress, LineSaysWhatRanWhatIsLeftAndTheTimes) {
  LogProgress gbench;
  gbench.finished = 2;
  gbench.last_finished = "BM_copy<float>/4096/manual_time";
  EXPECT_EQ(progress_line(gbench, 3, 14.2, 21.0),
            "progress: BM_copy<float>/4096/manual_time finished: 2 of 3 benchmarks done, 1 left; 14 s so far, about "
            "21 s expected");
  EXPECT_EQ(progress_line(gbench, std::nullopt, 9.6, std::nullopt),
            "progress: BM_copy<float>/4096/manual_time finished: 2 benchmarks done (how many are left is not known "
            "yet); 10 s so far (first process, no estimate yet)");
  EXPECT_EQ(progress_line(LogProgress{}, std::nullopt, 10.0, std::nullopt),
            "progress: none of the benchmarks finished yet (how many are left is not known yet); 10 s so far (first "
            "process, no estimate yet)");
  const LogProgress nvbench = nvbench_log_progress("Run:  [2/6] scan [Device=0]\n");
  EXPECT_EQ(progress_line(nvbench, 6, 12.0, 36.0),
            "progress: running scan [Device=0]: 1 of 6 states done, 5 left; 12 s so far, about 36 s expected");
  // The names are the suite's output: a control byte is escaped, never passed to the terminal or CI log.
  LogProgress hostile;
  hostile.running = "x\x1b[2J\n::error::y";
  EXPECT_EQ(progress_line(hostile, std::nullopt, 1.0, std::nullopt).rfind("progress: running x\\x1b[2J\\x0a::error::y: ", 0),
            0u);
}

class ProcessProgressRun : public testing::ScratchFolderTest {};

// A stand-in process that prints Google Benchmark's header and a benchmark, then another after 3.5 s (past
// kProgressMinGapS): one line while it runs, and the next process of the same selection expects its time.
TEST_F(ProcessProgressRun, PrintsALineOnABenchmarkFinishedAndExpectsThePreviousTime) {
  const std::string script = write("bench.sh",
                                   "#!/bin/sh\n"
                                   "echo 'Benchmark   Time   CPU   Iterations'\n"
                                   "echo 'BM_a/manual_time   1.0 us   1.0 us   10'\n"
                                   "sleep 3.5\n"
                                   "echo 'BM_b/manual_time   2.0 us   2.0 us   10'\n"
                                   "sleep 1.5\n");
  ::chmod(script.c_str(), 0755);
  std::ostringstream err;
  ProcessProgress progress(gbench_log_progress);
  ASSERT_TRUE(progress.run({{script}, {}, path("run1.log")}, "", std::nullopt, err).succeeded());
  const std::string first = err.str();
  EXPECT_NE(first.find("[perf_gate] progress: BM_b/manual_time finished: 2 benchmarks done (how many are left is "
                       "not known yet); "),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("(first process, no estimate yet)"), std::string::npos) << first;
  EXPECT_EQ(first.find("BM_a/manual_time finished"), std::string::npos) << "BM_a came within kProgressMinGapS";
  err.str("");
  ASSERT_TRUE(progress.run({{script}, {}, path("run2.log")}, "", std::nullopt, err).succeeded());
  EXPECT_NE(err.str().find("2 of 2 benchmarks done, 0 left; "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find(" s expected"), std::string::npos) << "the first process's time: " << err.str();
}

// A team's suite says its pace on the stream of the procedure that times it (a test's, here), once a run,
// never on the process's own stderr behind the procedure's back.
TEST_F(ProcessProgressRun, TheSuitesPaceNoteGoesToTheProceduresStreamOnce) {
  const std::string script = write("bench.sh", "#!/bin/sh\nexit 0\n");
  ::chmod(script.c_str(), 0755);
  GbenchSuite suite(script, "saxpy_suite", {});
  TimingRequest request;
  request.repetitions = 2;
  std::ostringstream err;
  ASSERT_TRUE(suite.time(request, {path("run1.json"), path("run1.log")}, err).succeeded());
  ASSERT_TRUE(suite.time(request, {path("run2.json"), path("run2.log")}, err).succeeded());
  const std::string said = err.str();
  expect_words(said, {"[perf_gate] saxpy_suite: ", "--benchmark_min_time=0.02"});
  EXPECT_EQ(said.find("saxpy_suite: "), said.rfind("saxpy_suite: ")) << "said once: " << said;
}

}  // namespace
}  // namespace gpuperf::gate::driver
