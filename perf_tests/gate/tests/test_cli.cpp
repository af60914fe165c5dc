// The command line end to end, in-process through run_cli: exit codes, report files, record and gpu.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "gate/baseline.h"
#include "gate/cli.h"
#include "gate/exit_codes.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::read_fixture_text;
using testing::testdata;

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

CliRun cli(std::vector<std::string> args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("gate_cli_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string out(const std::string& name) const { return (dir_ / name).string(); }

  static CliRun compare(const std::string& results, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"compare", "--baseline", testdata("baseline_h200.json"), "--results",
                                     testdata(results)};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }

  std::filesystem::path dir_;
};

TEST_F(Cli, CompareExitCodes) {
  EXPECT_EQ(compare("results_run1.json").code, kExitPass);
  EXPECT_EQ(compare("results_slow.json").code, kExitRegression);
  EXPECT_EQ(compare("results_fast.json").code, kExitPass);
  EXPECT_EQ(compare("results_throttled.json").code, kExitNotJudged);
  EXPECT_EQ(compare("results_error.json").code, kExitInvalidInput);
  EXPECT_EQ(compare("results_run1.json", {"--strict"}).code, kExitRegression);
  EXPECT_EQ(compare("results_run1.json", {"--family", "smem_latency", "--strict"}).code, kExitPass);
}

TEST_F(Cli, BadInputIsExitTwoWithTheReason) {
  const CliRun other = compare("results_other_gpu.json");
  EXPECT_EQ(other.code, kExitInvalidInput);
  EXPECT_NE(other.err.find("GPU mismatch"), std::string::npos) << other.err;

  const CliRun corrupt = compare("bad_truncated.json");
  EXPECT_EQ(corrupt.code, kExitInvalidInput);
  EXPECT_NE(corrupt.err.find("perf_gate: error: "), std::string::npos) << corrupt.err;
  EXPECT_NE(corrupt.err.find("truncated"), std::string::npos) << corrupt.err;

  EXPECT_EQ(compare("no_such_file.json").code, kExitInvalidInput);
  EXPECT_EQ(compare("bad_empty_benchmarks.json").code, kExitInvalidInput);
  EXPECT_EQ(compare("bad_nan_time.json").code, kExitInvalidInput);
  const CliRun schema =
      cli({"compare", "--baseline", testdata("bad_baseline_schema2.json"), "--results", testdata("results_run1.json")});
  EXPECT_EQ(schema.code, kExitInvalidInput);
  EXPECT_NE(schema.err.find("schema_version 2 is not supported"), std::string::npos) << schema.err;
}

TEST_F(Cli, ArgumentErrorsAreExitTwoWithUsage) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"judge"},
           {"compare", "--results", testdata("results_run1.json")},
           {"compare", "--baseline", testdata("baseline_h200.json")},
           {"compare", "--baseline"},
           {"compare", "--baseline", "a", "--baseline", "b", "--results", "r"},
           {"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"),
            "--family", "a", "--filter", "b"},
           {"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"),
            "--alpha", "2"},
           {"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"),
            "--verbose"},
           {"ab", "--a", testdata("results_run1.json"), "--b", testdata("results_run1.json"), "--tolerance-pct", "x"},
           {"gpu", "--results", testdata("results_run1.json"), testdata("results_run2.json")},
       }) {
    const CliRun run = cli(args);
    EXPECT_EQ(run.code, kExitInvalidInput) << ::testing::PrintToString(args);
    EXPECT_NE(run.err.find("usage:"), std::string::npos) << ::testing::PrintToString(args) << run.err;
  }
  const CliRun help = cli({"--help"});
  EXPECT_EQ(help.code, kExitPass);
  EXPECT_NE(help.out.find("exit codes:"), std::string::npos);
}

TEST_F(Cli, InvalidFilterIsExitTwo) {
  const CliRun run = compare("results_run1.json", {"--filter", "(["});
  EXPECT_EQ(run.code, kExitInvalidInput);
  EXPECT_NE(run.err.find("not a valid regular expression"), std::string::npos) << run.err;
}

TEST_F(Cli, CompareWritesTheRequestedReports) {
  const CliRun run = compare("results_slow.json", {"--markdown", out("summary.md"), "--json", out("diff.json"),
                                                   "--remeasure-list", out("remeasure.txt")});
  EXPECT_EQ(run.code, kExitRegression);
  EXPECT_NE(run.out.find("SLOW "), std::string::npos);
  EXPECT_NE(slurp(out("summary.md")).find("| SLOW |"), std::string::npos);
  EXPECT_NE(slurp(out("diff.json")).find("\"verdict\": \"SLOW\""), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out("remeasure.txt")));
  EXPECT_EQ(slurp(out("remeasure.txt")), "") << "no AMBIGUOUS benchmark: an empty file";
}

TEST_F(Cli, SecondResultsFileIsPooled) {
  const CliRun run = cli({"compare", "--baseline", testdata("baseline_h200.json"), "--results",
                          testdata("results_run1.json"), testdata("results_run2.json"), "--json", out("d.json")});
  EXPECT_EQ(run.code, kExitPass) << run.out << run.err;
  EXPECT_NE(slurp(out("d.json")).find("\"samples_current\": 60"), std::string::npos);
}

TEST_F(Cli, GpuPrintsTheSlug) {
  const CliRun run = cli({"gpu", "--results", testdata("results_run1.json")});
  EXPECT_EQ(run.code, kExitPass);
  EXPECT_EQ(run.out, "nvidia-h200\n");
  const CliRun none = cli({"gpu", "--results", testdata("results_no_gpu_slug.json")});
  EXPECT_EQ(none.code, kExitInvalidInput);
  EXPECT_NE(none.err.find("no gpu_slug"), std::string::npos) << none.err;
}

TEST_F(Cli, ArgcArgvEntryPoint) {
  std::string gpu = "gpu";
  std::string option = "--results";
  std::string file = testdata("results_run1.json");
  char* argv[] = {nullptr, gpu.data(), option.data(), file.data()};
  ::testing::internal::CaptureStdout();
  const int code = run_cli(4, argv);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "nvidia-h200\n");
  EXPECT_EQ(code, kExitPass);
}

TEST_F(Cli, RecordKeepsHandTolerancesAndPrintsWhatMoved) {
  std::filesystem::copy_file(testdata("baseline_h200.json"), out("nvidia-h200.json"));
  const CliRun run = cli({"record", "--results", testdata("results_slow.json"), "--out", out("nvidia-h200.json"),
                          "--previous", out("nvidia-h200.json"), "--commit", "fedcba"});
  ASSERT_EQ(run.code, kExitPass) << run.err;
  EXPECT_NE(run.out.find("what moved"), std::string::npos) << run.out;
  EXPECT_LT(run.out.find("reduce9_shfl_down_last_warp"), run.out.find("reduce1_interleaved")) << "largest first";
  const Baseline written = load_baseline(out("nvidia-h200.json"));
  EXPECT_EQ(written.recorded.commit, "fedcba");
  EXPECT_EQ(written.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432").tolerance_pct, 2.0);
  EXPECT_FALSE(std::filesystem::exists(out("nvidia-h200.json.tmp")));

  // The new baseline accepts the run it was recorded from.
  EXPECT_EQ(cli({"compare", "--baseline", out("nvidia-h200.json"), "--results", testdata("results_slow.json")}).code,
            kExitPass);
}

TEST_F(Cli, RecordSetsTheSameGpuToleranceWhichCompareAppliesOnThatGpu) {
  const CliRun run = cli({"record", "--results", testdata("results_run1.json"), "--out", out("b.json"),
                          "--default-tolerance-pct", "4", "--same-gpu-tolerance-pct", "2"});
  ASSERT_EQ(run.code, kExitPass) << run.err;
  const Baseline written = load_baseline(out("b.json"));
  EXPECT_EQ(written.same_gpu_tolerance_pct, 2.0);
  EXPECT_EQ(written.recorded.gpu_uuids, std::vector<std::string>{"GPU-1234"});

  // results_run2 comes from the same GPU (GPU-1234): reduce9 has no override there, so it gets 2%.
  const CliRun compared = cli({"compare", "--baseline", out("b.json"), "--results", testdata("results_run2.json"),
                               "--json", out("d.json")});
  EXPECT_NE(compared.out.find("on this GPU (GPU-1234), same-GPU default tolerance 2.0%"), std::string::npos)
      << compared.out;
  const std::string diff = slurp(out("d.json"));
  EXPECT_NE(diff.find("\"same_gpu\": true"), std::string::npos) << diff;
  EXPECT_NE(diff.find("\"tolerance_source\": \"default, same GPU as the baseline\""), std::string::npos) << diff;
}

TEST_F(Cli, RecordRefusesANonPositiveSameGpuTolerance) {
  for (const char* bad : {"0", "-1", "x"}) {
    const CliRun run = cli({"record", "--results", testdata("results_run1.json"), "--out", out("b.json"),
                            "--same-gpu-tolerance-pct", bad});
    EXPECT_EQ(run.code, kExitInvalidInput) << bad;
    EXPECT_NE(run.err.find("--same-gpu-tolerance-pct"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(out("b.json"))) << bad;
  }
}

TEST_F(Cli, RecordRefusesErrorsAndLeavesTheOldFile) {
  std::filesystem::copy_file(testdata("baseline_h200.json"), out("b.json"));
  const CliRun run = cli({"record", "--results", testdata("results_error.json"), "--out", out("b.json")});
  EXPECT_EQ(run.code, kExitInvalidInput);
  EXPECT_NE(run.err.find("refusing to record"), std::string::npos) << run.err;
  EXPECT_EQ(slurp(out("b.json")), read_fixture_text("baseline_h200.json"));
  EXPECT_EQ(cli({"record", "--results", testdata("results_run1.json"), testdata("results_other_gpu.json"), "--out",
                 out("c.json")})
                .code,
            kExitInvalidInput);
  EXPECT_FALSE(std::filesystem::exists(out("c.json")));
}

TEST_F(Cli, AbExitCodes) {
  const std::string run1 = testdata("results_run1.json");
  const std::string run2 = testdata("results_run2.json");
  const std::string slow = testdata("results_slow.json");
  EXPECT_EQ(cli({"ab", "--a", run1, run2, "--b", run2, run1}).code, kExitPass);
  const CliRun regression = cli({"ab", "--a", run1, "--b", slow, "--markdown", out("ab.md")});
  EXPECT_EQ(regression.code, kExitRegression) << regression.out;
  EXPECT_NE(slurp(out("ab.md")).find("Perf gate (ab)"), std::string::npos);
  EXPECT_EQ(cli({"ab", "--a", run1, "--b", slow, "--tolerance-pct", "20"}).code, kExitPass);
  EXPECT_EQ(cli({"ab", "--a", run1, run2, "--b", slow}).code, kExitInvalidInput);
  EXPECT_EQ(cli({"ab", "--a", run1, "--b", testdata("results_error.json")}).code, kExitInvalidInput);
  EXPECT_EQ(cli({"ab", "--a", run1, "--b", testdata("results_throttled.json")}).code, kExitNotJudged);
}

}  // namespace
}  // namespace gpuperf::gate
