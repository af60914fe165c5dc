// A recorded baseline written over its file (recording/write_baseline.h), as perf_gate record and perf_gate
// run --record write it: a first baseline where the previous file may be missing, a required previous
// file that is missing (nothing written), the lines it prints, with the results' names escaped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/inputs/baseline.h"
#include "gate/recording/write_baseline.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::ScratchFolderTest;
using testing::testdata;

class WriteBaselineTest : public ScratchFolderTest {
 protected:
  static std::vector<ResultsFile> two_runs() {
    return {load_results(testdata("results_run1.json")), load_results(testdata("results_run2.json"))};
  }
  static RecordOptions commit(const std::string& commit) {
    RecordOptions options;
    options.commit = commit;
    return options;
  }
};

TEST_F(WriteBaselineTest, AMissingPreviousFileIsAFirstBaselineWhereAllowed) {
  const std::string target = path("nvidia-h200.json");
  std::ostringstream out;
  write_recorded_baseline(two_runs(), {target, target, true}, commit("abc"), out);
  EXPECT_EQ(out.str(), "wrote " + target + ": 3 benchmarks of NVIDIA H200 (nvidia-h200), 2 runs, commit abc\n");
  EXPECT_EQ(load_baseline(target).recorded.runs, 2);

  std::ostringstream again;
  write_recorded_baseline(two_runs(), {target, target, true}, commit("def"), again);
  EXPECT_NE(again.str().find("what moved versus " + target + " (largest change first):\n"), std::string::npos)
      << again.str();
  EXPECT_EQ(load_baseline(target).recorded.commit, "def");
}

TEST_F(WriteBaselineTest, AMissingRequiredPreviousFileWritesNothing) {
  std::ostringstream out;
  EXPECT_THROW(write_recorded_baseline(two_runs(), {path("b.json"), path("nothere.json"), false}, commit("a"), out),
               formats::InputError);
  EXPECT_FALSE(std::filesystem::exists(path("b.json")));
  EXPECT_EQ(out.str(), "");
}

TEST_F(WriteBaselineTest, TheGpuNameAndCommitAreEscapedOnTheConsole) {
  std::vector<ResultsFile> runs = two_runs();
  for (ResultsFile& run : runs) run.gpu.name = "NVIDIA\x1b[2J H200";
  std::ostringstream out;
  write_recorded_baseline(runs, {path("b.json"), "", false}, commit("c0\nffee"), out);
  EXPECT_NE(out.str().find("benchmarks of NVIDIA\\x1b[2J H200 (nvidia-h200), 2 runs, commit c0\\x0affee\n"),
            std::string::npos)
      << out.str();
}

TEST_F(WriteBaselineTest, ThePlatformLineNamesWhatChangedSinceThePreviousFile) {
  std::ostringstream out;
  write_recorded_baseline(
      {load_results(testdata("results_driver_590_1.json")), load_results(testdata("results_driver_590_2.json"))},
      {path("b.json"), testdata("baseline_h200.json"), false}, commit("a"), out);
  EXPECT_NE(out.str().find("platform versus " + testdata("baseline_h200.json") + ": driver 580.159.04 -> 590.44.01\n"),
            std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace gpuperf::gate
