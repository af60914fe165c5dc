// The command line end to end, in-process through run_cli: exit codes, report files, the error budget,
// record, migrate and gpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "formats/exit_codes.h"
#include "formats/version.h"
#include "gate/cli/cli.h"
#include "gate/inputs/baseline.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::file_text;
using testing::cli;
using testing::CliRun;
using testing::read_fixture_text;
using testing::ScratchFolderTest;
using testing::testdata;

const std::vector<std::string> kUnchanged = {"results_run1.json", "results_run2.json", "results_run3.json"};
const std::vector<std::string> kSlow = {"results_slow_1.json", "results_slow_2.json", "results_slow_3.json"};
const std::vector<std::string> kFast = {"results_fast_1.json", "results_fast_2.json", "results_fast_3.json"};

std::vector<std::string> paths(const std::vector<std::string>& fixtures) {
  std::vector<std::string> out;
  for (const std::string& name : fixtures) out.push_back(testdata(name));
  return out;
}

class Cli : public ScratchFolderTest {
 protected:
  std::string out(const std::string& name) const { return path(name); }

  // compare against the fixture baseline; `results` are fixture names, one process each.
  static CliRun compare(const std::vector<std::string>& results, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"compare", "--baseline", testdata("baseline_h200.json"), "--results"};
    for (const std::string& file : results) args.push_back(testdata(file));
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }
  static CliRun compare(const std::string& results, std::vector<std::string> extra = {}) {
    return compare(std::vector<std::string>{results}, std::move(extra));
  }
};

TEST_F(Cli, CompareExitCodes) {
  EXPECT_EQ(compare(kUnchanged).code, formats::kExitPass);
  EXPECT_EQ(compare(kSlow).code, formats::kExitRegression);
  EXPECT_EQ(compare("results_slow_1.json").code, formats::kExitPass) << "one slow process is AMBIGUOUS: re-measured";
  EXPECT_EQ(compare(kFast).code, formats::kExitPass);
  EXPECT_EQ(compare("results_throttled.json").code, formats::kExitNotJudged);
  EXPECT_EQ(compare("results_error.json").code, formats::kExitInvalidInput);
  EXPECT_EQ(compare(kUnchanged, {"--strict"}).code, formats::kExitRegression);
  EXPECT_EQ(compare(kUnchanged, {"--family", "smem_latency", "--strict"}).code, formats::kExitPass);
}

TEST_F(Cli, AlphaAndLooksSetTheLevelOfEachTest) {
  const CliRun plain = compare(kSlow, {"--json", out("plain.json")});
  EXPECT_NE(plain.out.find("; family-wise false-alarm rate 1% per run (4 benchmarks x 1 look: each test at p < "
                           "0.0025; intervals 99%)\n"),
            std::string::npos)
      << plain.out;
  const nlohmann::json defaults = nlohmann::json::parse(file_text(out("plain.json")));
  EXPECT_EQ(defaults["error_control"]["kind"], "family-wise");
  EXPECT_DOUBLE_EQ(defaults["error_control"]["run_alpha"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(defaults["error_control"]["test_alpha"].get<double>(), 0.0025);

  const CliRun looked = compare(kSlow, {"--alpha", "0.05", "--looks", "5", "--family", "reduction", "--json",
                                        out("looked.json")});
  EXPECT_EQ(looked.code, formats::kExitRegression) << looked.out << looked.err;
  const nlohmann::json doc = nlohmann::json::parse(file_text(out("looked.json")));
  const nlohmann::json& control = doc["error_control"];
  EXPECT_DOUBLE_EQ(control["run_alpha"].get<double>(), 0.05);
  EXPECT_EQ(control["benchmarks"], 4) << "the whole baseline, though --family selects 3";
  EXPECT_EQ(control["looks"], 5);
  EXPECT_DOUBLE_EQ(control["test_alpha"].get<double>(), 0.05 / 20);
  EXPECT_DOUBLE_EQ(control["interval_coverage"].get<double>(), 0.99);
  EXPECT_DOUBLE_EQ(control["interval_level_per_look"].get<double>(), 0.998);
  EXPECT_DOUBLE_EQ(doc["benchmarks"][0]["interval_level"].get<double>(), 0.998);
  EXPECT_NE(looked.out.find("(4 benchmarks x 5 looks: each test at p < 0.0025; intervals 99% over all looks, each built at 99.8%)"),
            std::string::npos)
      << looked.out;

  const CliRun ab = cli({"ab", "--a", testdata("results_run1.json"), "--b", testdata("results_run2.json"), "--looks",
                         "2", "--alpha", "0.02"});
  EXPECT_NE(ab.out.find("(3 benchmarks x 2 looks: each test at p < 0.0033; intervals 99% over all looks, each built at 99.5%)"),
            std::string::npos)
      << ab.out;
}

TEST_F(Cli, BadInputIsExitTwoWithTheReason) {
  const CliRun other = compare("results_other_gpu.json");
  EXPECT_EQ(other.code, formats::kExitInvalidInput);
  EXPECT_NE(other.err.find("GPU mismatch"), std::string::npos) << other.err;

  const CliRun corrupt = compare("bad_truncated.json");
  EXPECT_EQ(corrupt.code, formats::kExitInvalidInput);
  EXPECT_NE(corrupt.err.find("perf_gate: error: "), std::string::npos) << corrupt.err;
  EXPECT_NE(corrupt.err.find("truncated"), std::string::npos) << corrupt.err;

  EXPECT_EQ(compare("no_such_file.json").code, formats::kExitInvalidInput);
  EXPECT_EQ(compare("bad_empty_benchmarks.json").code, formats::kExitInvalidInput);
  EXPECT_EQ(compare("bad_nan_time.json").code, formats::kExitInvalidInput);
  const CliRun schema =
      cli({"compare", "--baseline", testdata("bad_baseline_schema3.json"), "--results", testdata("results_run1.json")});
  EXPECT_EQ(schema.code, formats::kExitInvalidInput);
  EXPECT_NE(schema.err.find("schema_version 3 is not supported; this perf_gate reads schema_version 1 to 2"),
            std::string::npos)
      << schema.err;
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
            "--alpha", "0"},
           {"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"),
            "--looks", "0"},
           {"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"),
            "--looks", "1.5"},
           {"ab", "--a", testdata("results_run1.json"), "--b", testdata("results_run1.json"), "--looks", "101"},
           {"migrate", "--baseline", testdata("baseline_h200.json")},
           {"migrate", "--out", "x.json"},
           {"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"),
            "--verbose"},
           {"ab", "--a", testdata("results_run1.json"), "--b", testdata("results_run1.json"), "--tolerance-pct", "x"},
           {"gpu", "--results", testdata("results_run1.json"), testdata("results_run2.json")},
       }) {
    const CliRun run = cli(args);
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << ::testing::PrintToString(args);
    EXPECT_NE(run.err.find("usage:"), std::string::npos) << ::testing::PrintToString(args) << run.err;
  }
  const CliRun help = cli({"--help"});
  EXPECT_EQ(help.code, formats::kExitPass);
  EXPECT_NE(help.out.find("exit codes:"), std::string::npos);
}

// The usage, the parser and the dispatch read one table: every command the usage lists is dispatched by
// its own name (an option it does not take is refused naming that command), and a name the table does not
// hold is refused; no command is taken by default.
TEST_F(Cli, EveryCommandOfTheUsageIsItsOwnEntryAndNoneIsImplicit) {
  const std::string usage = cli({"--help"}).out;
  const std::regex synopsis(R"(\n  perf_gate ([a-z][a-z-]*))");
  std::vector<std::string> commands;
  for (auto it = std::sregex_iterator(usage.begin(), usage.end(), synopsis); it != std::sregex_iterator(); ++it) {
    commands.push_back((*it)[1]);
  }
  EXPECT_EQ(commands.size(), 27u) << usage;
  for (const std::string& command : commands) {
    const CliRun run = cli({command, "--no-such-option"});
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << command;
    EXPECT_NE(run.err.find("unknown option '--no-such-option' for '" + command + "'"), std::string::npos) << run.err;
  }
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--results", testdata("results_run1.json")}, {"gpus", "--results", testdata("results_run1.json")}}) {
    const CliRun run = cli(args);
    EXPECT_EQ(run.code, formats::kExitInvalidInput);
    EXPECT_NE(run.err.find("unknown command '" + args[0] + "'"), std::string::npos) << run.err;
    EXPECT_EQ(run.out, "") << "nothing ran";
  }
}

// `perf_gate --help` is a page of commands, one line each (it was 221 lines of every option of every
// command); `perf_gate help` says the same.
TEST_F(Cli, HelpListsTheCommandsOneLineEach) {
  const CliRun help = cli({"--help"});
  ASSERT_EQ(help.code, formats::kExitPass);
  EXPECT_EQ(cli({"help"}).out, help.out);
  EXPECT_EQ(cli({"-h"}).out, help.out);
  EXPECT_LT(std::count(help.out.begin(), help.out.end(), '\n'), 60) << help.out;
  EXPECT_NE(help.out.find("\n  perf_gate compare             judge results files of one GPU against its baseline\n"),
            std::string::npos)
      << help.out;
  EXPECT_NE(help.out.find("perf_gate COMMAND --help"), std::string::npos) << "says where each command's options are";
  EXPECT_NE(help.out.find("--option=VALUE"), std::string::npos) << help.out;
}

// The commands the list of `perf_gate --help` names, in its order.
std::vector<std::string> listed_commands() {
  const std::string list = cli({"--help"}).out;
  const std::regex line(R"(\n  perf_gate ([a-z][a-z-]*))");
  std::vector<std::string> commands;
  for (auto it = std::sregex_iterator(list.begin(), list.end(), line); it != std::sregex_iterator(); ++it) {
    commands.push_back((*it)[1]);
  }
  return commands;
}

// Each command's help, from the table: its purpose, its paragraph of the usage, every option with its
// argument and a meaning; the same by `perf_gate COMMAND --help`, `perf_gate help COMMAND` and `-h`.
TEST_F(Cli, EachCommandHasItsOwnHelpWithEveryOptionExplained) {
  const std::vector<std::string> commands = listed_commands();
  ASSERT_EQ(commands.size(), 27u);
  // "  --option ARGUMENT   meaning": a meaning after two or more spaces.
  const std::regex explained(R"(  --[a-z-]*( [^ ]+)*  +[^ ].*)");
  for (const std::string& command : commands) {
    const CliRun help = cli({command, "--help"});
    EXPECT_EQ(help.code, formats::kExitPass) << command << help.err;
    EXPECT_EQ(help.err, "");
    EXPECT_EQ(help.out.rfind("perf_gate " + command + ": ", 0), 0u) << help.out;
    EXPECT_NE(help.out.find("\n  perf_gate " + command), std::string::npos) << "its usage: " << help.out;
    EXPECT_EQ(cli({"help", command}).out, help.out) << command;
    EXPECT_EQ(cli({command, "-h"}).out, help.out) << command;
    const std::size_t options = help.out.find("\noptions");
    ASSERT_NE(options, std::string::npos) << help.out;
    std::istringstream lines(help.out.substr(options));
    int explained_options = 0;
    for (std::string option_line; std::getline(lines, option_line);) {
      if (option_line.rfind("  --", 0) != 0) continue;
      EXPECT_TRUE(std::regex_match(option_line, explained)) << command << ": no meaning in '" << option_line << "'";
      ++explained_options;
    }
    EXPECT_GE(explained_options, 1) << "--help at least: " << help.out;
  }
  const CliRun compare = cli({"compare", "--baseline", "b.json", "--help"});
  EXPECT_EQ(compare.code, formats::kExitPass) << "--help anywhere before --";
  EXPECT_NE(compare.out.find("\n  --baseline FILE               the GPU's baseline"), std::string::npos) << compare.out;
  EXPECT_NE(compare.out.find("\n  --results R.json..."), std::string::npos) << compare.out;
  EXPECT_NE(compare.out.find("\n  --strict                      a benchmark"), std::string::npos) << compare.out;
  const CliRun unknown = cli({"help", "comapre"});
  EXPECT_EQ(unknown.code, formats::kExitInvalidInput);
  EXPECT_NE(unknown.err.find("unknown command 'comapre'; did you mean 'compare'?"), std::string::npos) << unknown.err;
}

// A misspelt option or command: the nearest name and where the help is, in three lines, exit 2 (it was
// "unknown option" and 221 lines of every command's usage).
TEST_F(Cli, AMisspeltNameSaysTheNearestAndWhereTheHelpIs) {
  const CliRun option = compare(kUnchanged, {"--baselin", testdata("baseline_h200.json")});
  EXPECT_EQ(option.code, formats::kExitInvalidInput);
  EXPECT_EQ(option.out, "");
  EXPECT_NE(option.err.find("perf_gate: unknown option '--baselin' for 'compare'; did you mean '--baseline'?\n"),
            std::string::npos)
      << option.err;
  EXPECT_NE(option.err.find("'perf_gate compare --help' lists its options"), std::string::npos) << option.err;
  EXPECT_LE(std::count(option.err.begin(), option.err.end(), '\n'), 3) << option.err;

  const CliRun attached = compare(kUnchanged, {"--markdonw=" + out("s.md")});
  EXPECT_NE(attached.err.find("unknown option '--markdonw' for 'compare'; did you mean '--markdown'?"),
            std::string::npos)
      << attached.err;

  const CliRun far = compare(kUnchanged, {"--verbose"});
  EXPECT_NE(far.err.find("unknown option '--verbose' for 'compare'\n"), std::string::npos) << "no guess: " << far.err;

  const CliRun command = cli({"comapre", "--baseline", testdata("baseline_h200.json")});
  EXPECT_EQ(command.code, formats::kExitInvalidInput);
  EXPECT_NE(command.err.find("perf_gate: unknown command 'comapre'; did you mean 'compare'?\n"), std::string::npos)
      << command.err;
  EXPECT_NE(command.err.find("'perf_gate --help' lists the commands"), std::string::npos) << command.err;
  EXPECT_LE(std::count(command.err.begin(), command.err.end(), '\n'), 3) << command.err;
}

// "--option=VALUE" is "--option VALUE" for every option that takes values; a switch takes none.
TEST_F(Cli, AnOptionsValueMayFollowAnEqualsSign) {
  const CliRun spaced = compare(kSlow, {"--looks", "2", "--json", out("spaced.json")});
  std::vector<std::string> args = {"compare", "--baseline=" + testdata("baseline_h200.json")};
  const std::vector<std::string> results = paths(kSlow);
  args.push_back("--results=" + results[0]);
  args.insert(args.end(), results.begin() + 1, results.end());
  args.insert(args.end(), {"--looks=2", "--json=" + out("joined.json")});
  const CliRun joined = cli(args);
  EXPECT_EQ(joined.code, formats::kExitRegression) << joined.err;
  EXPECT_EQ(joined.code, spaced.code);
  EXPECT_EQ(joined.out, spaced.out);
  EXPECT_EQ(file_text(out("joined.json")), file_text(out("spaced.json")));

  const CliRun filter = compare(kSlow, {"--filter=--x"});  // a value after = may begin with --
  EXPECT_EQ(filter.err.find("needs a value"), std::string::npos) << filter.err;
  EXPECT_EQ(filter.err.find("unknown option"), std::string::npos) << filter.err;

  const CliRun twice = compare(kSlow, {"--looks=2", "--looks", "3"});
  EXPECT_NE(twice.err.find("--looks given twice"), std::string::npos) << twice.err;
  const CliRun on_switch = compare(kSlow, {"--strict=yes"});
  EXPECT_EQ(on_switch.code, formats::kExitInvalidInput);
  EXPECT_NE(on_switch.err.find("--strict takes no value (given 'yes')"), std::string::npos) << on_switch.err;
}

TEST_F(Cli, VersionPrintsTheHarnessReleaseAndExitsZero) {
  const CliRun run = cli({"--version"});
  EXPECT_EQ(run.code, formats::kExitPass);
  EXPECT_EQ(run.out, "gpuperf " + std::string(formats::kHarnessVersion) + "\n");
  EXPECT_EQ(run.err, "");
  EXPECT_TRUE(std::regex_match(formats::kHarnessVersion, std::regex(R"(\d+\.\d+\.\d+)")))
      << formats::kHarnessVersion << " is not MAJOR.MINOR.PATCH";
  const CliRun extra = cli({"--version", "compare"});
  EXPECT_EQ(extra.code, formats::kExitInvalidInput);
  EXPECT_NE(extra.err.find("--version takes no arguments"), std::string::npos) << extra.err;
  EXPECT_NE(cli({"--help"}).out.find("perf_gate --version"), std::string::npos) << "the usage lists it";
}

TEST_F(Cli, InvalidFilterIsExitTwo) {
  const CliRun run = compare("results_run1.json", {"--filter", "(["});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("not a valid regular expression"), std::string::npos) << run.err;
}

TEST_F(Cli, CompareWritesTheRequestedReports) {
  const CliRun run = compare(kSlow, {"--markdown", out("summary.md"), "--json", out("diff.json"), "--remeasure-list",
                                     out("remeasure.txt")});
  EXPECT_EQ(run.code, formats::kExitRegression);
  EXPECT_NE(run.out.find("SLOW "), std::string::npos);
  EXPECT_NE(file_text(out("summary.md")).find("| SLOW |"), std::string::npos);
  EXPECT_NE(file_text(out("diff.json")).find("\"verdict\": \"SLOW\""), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out("remeasure.txt")));
  EXPECT_EQ(file_text(out("remeasure.txt")), "") << "no AMBIGUOUS benchmark: an empty file";
}

TEST_F(Cli, EachResultsFileIsOneProcess) {
  const CliRun run = compare(std::vector<std::string>{"results_run1.json", "results_run2.json"}, {"--json", out("d.json")});
  EXPECT_EQ(run.code, formats::kExitPass) << run.out << run.err;
  const nlohmann::json doc = nlohmann::json::parse(file_text(out("d.json")));
  for (const nlohmann::json& row : doc["benchmarks"]) {
    if (row["verdict"] == "MISSING") continue;
    EXPECT_EQ(row["samples_current"], 60) << row["name"];
    EXPECT_EQ(row["processes_current"], 2) << row["name"];
    EXPECT_EQ(row["processes_baseline"], 10) << row["name"];
    EXPECT_EQ(row["df"], 10.0) << row["name"];
  }
}

TEST_F(Cli, GpuPrintsTheSlug) {
  const CliRun run = cli({"gpu", "--results", testdata("results_run1.json")});
  EXPECT_EQ(run.code, formats::kExitPass);
  EXPECT_EQ(run.out, "nvidia-h200\n");
  const CliRun none = cli({"gpu", "--results", testdata("results_no_gpu_slug.json")});
  EXPECT_EQ(none.code, formats::kExitInvalidInput);
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
  EXPECT_EQ(code, formats::kExitPass);
}

TEST_F(Cli, RecordKeepsHandTolerancesAndPrintsWhatMoved) {
  std::filesystem::copy_file(testdata("baseline_h200.json"), out("nvidia-h200.json"));
  std::vector<std::string> args = {"record", "--results"};
  for (const std::string& path : paths(kSlow)) args.push_back(path);
  for (const char* more : {"--out", "--previous"}) {
    args.push_back(more);
    args.push_back(out("nvidia-h200.json"));
  }
  args.insert(args.end(), {"--commit", "fedcba"});
  const CliRun run = cli(args);
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_NE(run.out.find("what moved"), std::string::npos) << run.out;
  EXPECT_LT(run.out.find("reduce9_shfl_down_last_warp"), run.out.find("reduce1_interleaved")) << "largest first";
  const Baseline written = load_baseline(out("nvidia-h200.json"));
  EXPECT_NE(run.out.find(", 3 runs, commit fedcba"), std::string::npos) << run.out;
  EXPECT_EQ(written.recorded.commit, "fedcba");
  EXPECT_EQ(written.recorded.harness_version, formats::kHarnessVersion) << "the gate that recorded it";
  const std::string version_line = "\"harness_version\": \"" + std::string(formats::kHarnessVersion) + "\",";
  EXPECT_NE(file_text(out("nvidia-h200.json")).find("\"commit\": \"fedcba\",\n    " + version_line), std::string::npos)
      << file_text(out("nvidia-h200.json")).substr(0, 500);
  EXPECT_EQ(written.recorded.runs, 3);
  EXPECT_EQ(written.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432").tolerance_pct, 2.0);
  EXPECT_EQ(written.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432").process_medians.size(), 3u);
  EXPECT_NE(file_text(out("nvidia-h200.json")).find("\"schema_version\": 2,"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out("nvidia-h200.json.tmp")));

  // The new baseline accepts the runs it was recorded from.
  std::vector<std::string> again = {"compare", "--baseline", out("nvidia-h200.json"), "--results"};
  for (const std::string& path : paths(kSlow)) again.push_back(path);
  EXPECT_EQ(cli(again).code, formats::kExitPass);
}

TEST_F(Cli, RecordSaysHowThePlatformDiffersFromThePreviousFile) {
  std::vector<std::string> args = {"record", "--out", out("b.json"), "--previous", testdata("baseline_h200.json"),
                                   "--results"};
  for (const char* name : {"results_driver_590_1.json", "results_driver_590_2.json"}) args.push_back(testdata(name));
  const CliRun run = cli(args);
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_NE(run.out.find("platform versus " + testdata("baseline_h200.json") + ": driver 580.159.04 -> 590.44.01\n"),
            std::string::npos)
      << run.out;
  const Baseline written = load_baseline(out("b.json"));
  EXPECT_EQ(written.gpu.driver, "590.44.01");
  EXPECT_EQ(written.gpu.sm_clock_mhz, 1980.0);
  EXPECT_EQ(written.gpu.mem_clock_mhz, 3201.0);

  const CliRun same = cli({"record", "--out", out("c.json"), "--previous", testdata("baseline_h200.json"), "--results",
                           testdata("results_run1.json")});
  ASSERT_EQ(same.code, formats::kExitPass) << same.err;
  EXPECT_EQ(same.out.find("platform versus"), std::string::npos) << "nothing to say: " << same.out;
}

TEST_F(Cli, RecordSetsTheSameGpuToleranceWhichCompareAppliesOnThatGpu) {
  const CliRun run = cli({"record", "--results", testdata("results_run1.json"), testdata("results_run2.json"), "--out",
                          out("b.json"), "--default-tolerance-pct", "4", "--same-gpu-tolerance-pct", "2"});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  const Baseline written = load_baseline(out("b.json"));
  EXPECT_EQ(written.same_gpu_tolerance_pct, 2.0);
  EXPECT_EQ(written.recorded.gpu_uuids, std::vector<std::string>{"GPU-1234"});

  // results_run3 comes from the same GPU (GPU-1234): reduce9 has no override there, so it gets 2%.
  const CliRun compared = cli({"compare", "--baseline", out("b.json"), "--results", testdata("results_run3.json"),
                               "--json", out("d.json")});
  EXPECT_NE(compared.out.find("on this GPU (GPU-1234), same-GPU default tolerance 2.0%"), std::string::npos)
      << compared.out;
  const std::string diff = file_text(out("d.json"));
  EXPECT_NE(diff.find("\"same_gpu\": true"), std::string::npos) << diff;
  EXPECT_NE(diff.find("\"tolerance_source\": \"default, same GPU as the baseline\""), std::string::npos) << diff;
}

TEST_F(Cli, RecordRefusesANonPositiveSameGpuTolerance) {
  for (const char* bad : {"0", "-1", "x"}) {
    const CliRun run = cli({"record", "--results", testdata("results_run1.json"), "--out", out("b.json"),
                            "--same-gpu-tolerance-pct", bad});
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << bad;
    EXPECT_NE(run.err.find("--same-gpu-tolerance-pct"), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(out("b.json"))) << bad;
  }
}

TEST_F(Cli, RecordRefusesAnEmptyPrevious) {
  const CliRun run = cli({"record", "--results", testdata("results_run1.json"), "--out", out("b.json"), "--previous", ""});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("--previous needs a file"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(out("b.json")));
}

TEST_F(Cli, RecordRefusesErrorsAndLeavesTheOldFile) {
  std::filesystem::copy_file(testdata("baseline_h200.json"), out("b.json"));
  const CliRun run = cli({"record", "--results", testdata("results_error.json"), "--out", out("b.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("refusing to record"), std::string::npos) << run.err;
  EXPECT_EQ(file_text(out("b.json")), read_fixture_text("baseline_h200.json"));
  EXPECT_EQ(cli({"record", "--results", testdata("results_run1.json"), testdata("results_other_gpu.json"), "--out",
                 out("c.json")})
                .code,
            formats::kExitInvalidInput);
  EXPECT_FALSE(std::filesystem::exists(out("c.json")));
}

TEST_F(Cli, MigrateRewritesASchemaOneBaselineInSchemaTwo) {
  const CliRun run = cli({"migrate", "--baseline", testdata("baseline_h200_schema1.json"), "--out", out("m.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, "wrote " + out("m.json") + ": " + testdata("baseline_h200_schema1.json") +
                         " in schema_version 2\n");
  const std::string text = file_text(out("m.json"));
  EXPECT_NE(text.find("\"schema_version\": 2,"), std::string::npos) << text.substr(0, 200);
  EXPECT_EQ(text.find("\"samples\""), std::string::npos) << "pooled samples are gone";
  EXPECT_EQ(text.find("spread_pct"), std::string::npos);
  EXPECT_EQ(text.find("harness_version"), std::string::npos) << "migrating records nothing: no version invented";
  const Baseline old = load_baseline(testdata("baseline_h200_schema1.json"));
  const Baseline migrated = load_baseline(out("m.json"));
  ASSERT_EQ(migrated.benchmarks.size(), old.benchmarks.size());
  for (const auto& [name, entry] : old.benchmarks) {
    const BaselineEntry& now = migrated.benchmarks.at(name);
    EXPECT_EQ(now.process_medians.size(), entry.process_medians.size()) << name;
    for (std::size_t i = 0; i < entry.process_medians.size(); ++i) {
      EXPECT_NEAR(now.process_medians[i], entry.process_medians[i], 1e-6 * entry.process_medians[i]) << name;
    }
    EXPECT_NEAR(now.median, entry.median, 1e-6 * entry.median) << name << ": the numbers unchanged";
    EXPECT_EQ(now.tolerance_pct, entry.tolerance_pct) << name;
  }
  EXPECT_EQ(migrated.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432").process_medians.size(), 2u);
  EXPECT_EQ(migrated.recorded.runs, 2);
  EXPECT_EQ(migrated.family_tolerance_pct, old.family_tolerance_pct);

  // Migrating the current schema changes nothing.
  ASSERT_EQ(cli({"migrate", "--baseline", out("m.json"), "--out", out("m2.json")}).code, formats::kExitPass);
  EXPECT_EQ(file_text(out("m2.json")), text);
  // A file it cannot read is left alone.
  const CliRun bad = cli({"migrate", "--baseline", testdata("bad_baseline_schema3.json"), "--out", out("m3.json")});
  EXPECT_EQ(bad.code, formats::kExitInvalidInput);
  EXPECT_FALSE(std::filesystem::exists(out("m3.json")));
}

TEST_F(Cli, AbExitCodes) {
  const std::vector<std::string> a = paths(kUnchanged);
  const std::vector<std::string> slow = paths(kSlow);
  const auto ab = [](const std::vector<std::string>& as, const std::vector<std::string>& bs,
                     std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"ab", "--a"};
    args.insert(args.end(), as.begin(), as.end());
    args.push_back("--b");
    args.insert(args.end(), bs.begin(), bs.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  EXPECT_EQ(ab(a, {a[1], a[2], a[0]}).code, formats::kExitPass);
  const CliRun regression = ab(a, slow, {"--markdown", out("ab.md")});
  EXPECT_EQ(regression.code, formats::kExitRegression) << regression.out;
  EXPECT_NE(file_text(out("ab.md")).find("Perf gate (ab)"), std::string::npos);
  EXPECT_EQ(ab(a, slow, {"--tolerance-pct", "20"}).code, formats::kExitPass);
  EXPECT_EQ(ab({a[0]}, {slow[0]}).code, formats::kExitNotJudged) << "one pair is not judged";
  EXPECT_EQ(ab({a[0], a[1]}, {slow[0]}).code, formats::kExitInvalidInput);
  EXPECT_EQ(ab({a[0]}, {testdata("results_error.json")}).code, formats::kExitInvalidInput);
  EXPECT_EQ(ab({a[0], a[1]}, {testdata("results_throttled.json"), testdata("results_throttled.json")}).code,
            formats::kExitNotJudged);
}

}  // namespace
}  // namespace gpuperf::gate
