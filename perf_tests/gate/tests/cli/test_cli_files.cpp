// The command line against inputs and outputs a careless user or an attacker gives it: files that are not
// regular files, outputs that cannot all be written, hand-edited baselines that used to pass silently, and
// names that crashed --filter. Each case exits 2 with what is wrong, and writes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "gate/cli/cli.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::cli;
using testing::CliRun;
using testing::read_fixture_text;
using testing::ScratchFolderTest;
using testing::testdata;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the fixture";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class CliFiles : public ScratchFolderTest {
 protected:
  std::vector<std::string> names() const {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) found.push_back(entry.path().filename());
    std::sort(found.begin(), found.end());
    return found;
  }

  static CliRun compare_with(const std::string& baseline, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"compare", "--baseline", baseline, "--results"};
    for (const char* file : {"results_slow_1.json", "results_slow_2.json", "results_slow_3.json"}) {
      args.push_back(testdata(file));
    }
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }
};

void expect_in(const std::string& text, std::initializer_list<const char*> words) {
  for (const char* word : words) EXPECT_NE(text.find(word), std::string::npos) << "'" << word << "' in: " << text;
}

// --- Hand-edited baselines that used to be judged silently ---------------------------------------------

TEST_F(CliFiles, AHugeBaselineToleranceIsRefusedNotAPass) {
  const std::string baseline = write("b.json", replaced(read_fixture_text("baseline_h200.json"),
                                                        "\"tolerance_pct\": 3.0", "\"tolerance_pct\": 1e308"));
  ASSERT_EQ(compare_with(testdata("baseline_h200.json")).code, formats::kExitRegression) << "the fixture's slowdown";
  const CliRun run = compare_with(baseline);
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << run.out;
  expect_in(run.err, {"b.json", "defaults.tolerance_pct is 1e+308, above 1000"});
}

TEST_F(CliFiles, ARepeatedKeyInABaselineIsExitTwoWithItsPath) {
  const std::string baseline =
      write("b.json", replaced(read_fixture_text("baseline_h200.json"), "\"tolerance_pct\": 3.0",
                               "\"tolerance_pct\": 3.0, \"tolerance_pct\": 300"));
  const CliRun run = compare_with(baseline);
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << run.out;
  expect_in(run.err, {"b.json", "key defaults.tolerance_pct appears twice"});
}

TEST_F(CliFiles, AnUnknownUnitIsExitTwoNotNotJudged) {
  const std::string baseline =
      write("b.json", replaced(read_fixture_text("baseline_h200.json"), "\"unit\": \"us\"", "\"unit\": \"parsecs\""));
  const CliRun run = compare_with(baseline);
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << run.out;
  expect_in(run.err, {"unit is \"parsecs\"", "\"us\" or \"cycles\""});
}

TEST_F(CliFiles, AMedianOutsideItsProcessMediansIsExitTwo) {
  const std::string baseline =
      write("b.json", replaced(read_fixture_text("baseline_h200.json"), "\"median\": 42.03476", "\"median\": 1.0"));
  const CliRun run = compare_with(baseline);
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << run.out;
  expect_in(run.err, {std::string("benchmarks['").append(kReduce9).append("'].median is 1 us").c_str(),
                      "outside its process_medians"});
}

// --- Names and --filter ---------------------------------------------------------------------------------

// A 30,000-character name with --filter crashed perf_gate (exit 139: std::regex overflowed the stack).
TEST_F(CliFiles, AnOverlongNameWithFilterIsExitTwoNotACrash) {
  std::string text = read_fixture_text("results_run1.json");
  const std::string name = std::string(kReduce9) + std::string(30000, 'x');
  for (std::size_t at = text.find(kReduce9); at != std::string::npos; at = text.find(kReduce9, at + name.size())) {
    text.replace(at, std::string(kReduce9).size(), name);
  }
  const std::string results = write("long.json", text);
  const CliRun run = cli({"compare", "--baseline", testdata("baseline_h200.json"), "--results", results, "--filter",
                          "reduce.*$"});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  expect_in(run.err, {"long.json", "30048 characters long (at most 160)"});

  const CliRun pattern = cli({"compare", "--baseline", testdata("baseline_h200.json"), "--results",
                              testdata("results_run1.json"), "--filter", std::string(300, 'a')});
  EXPECT_EQ(pattern.code, formats::kExitInvalidInput);
  expect_in(pattern.err, {"--filter is 300 characters long; at most 256"});
}

// --- Outputs --------------------------------------------------------------------------------------------

// --markdown naming a symbolic link replaced the link with a regular file (and, as root, --json /dev/stdout
// would have replaced /dev/stdout).
TEST_F(CliFiles, AnOutputThatIsNotARegularFileIsRefused) {
  const std::string kept = write("kept.md", "kept\n");
  std::filesystem::create_symlink(kept, path("link.md"));
  ASSERT_EQ(::mkfifo(path("pipe.json").c_str(), 0644), 0);
  const CliRun link = compare_with(testdata("baseline_h200.json"), {"--markdown", path("link.md")});
  EXPECT_EQ(link.code, formats::kExitInvalidInput);
  expect_in(link.err, {"link.md", "is a symbolic link"});
  EXPECT_TRUE(std::filesystem::is_symlink(path("link.md")));
  const CliRun pipe = compare_with(testdata("baseline_h200.json"), {"--json", path("pipe.json")});
  EXPECT_EQ(pipe.code, formats::kExitInvalidInput);
  expect_in(pipe.err, {"pipe.json", "is a named pipe"});
  EXPECT_TRUE(std::filesystem::is_fifo(path("pipe.json")));
  const CliRun folder = cli({"record", "--results", testdata("results_run1.json"), "--out", dir_.string()});
  EXPECT_EQ(folder.code, formats::kExitInvalidInput);
  expect_in(folder.err, {"is a folder"});
  EXPECT_EQ(names(), (std::vector<std::string>{"kept.md", "link.md", "pipe.json"}));
}

// With an unwritable --json folder the run used to exit 2 after the Markdown report was written.
TEST_F(CliFiles, EveryOutputIsCheckedBeforeAnyIsWritten) {
  const CliRun run = compare_with(testdata("baseline_h200.json"),
                                  {"--markdown", path("summary.md"), "--json", path("missing/report.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  expect_in(run.err, {"missing/report.json", "does not exist"});
  EXPECT_EQ(run.out, "") << "refused before judging";
  EXPECT_TRUE(names().empty()) << "no Markdown, no temporary file";

  const CliRun twice = compare_with(testdata("baseline_h200.json"), {"--markdown", path("r"), "--json", path("r")});
  EXPECT_EQ(twice.code, formats::kExitInvalidInput);
  expect_in(twice.err, {"two outputs"});

  const CliRun both = compare_with(testdata("baseline_h200.json"), {"--markdown", path("s.md"), "--json", path("r.json")});
  EXPECT_EQ(both.code, formats::kExitRegression);
  EXPECT_EQ(names(), (std::vector<std::string>{"r.json", "s.md"})) << "both written, nothing else";
}

// --- Outputs over inputs --------------------------------------------------------------------------------

// `compare --json B --baseline B` replaced the baseline with the report, and so did an output naming an
// input in 8 of the 9 commands that write files. Now every command refuses it before reading anything:
// the roles of the options (input, output, both) are in the command table, checked in one place.
TEST_F(CliFiles, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  struct Case {
    std::vector<std::string> args;  // "F" stands for the one file named twice
  };
  const std::vector<Case> cases = {
      {{"compare", "--baseline", "F", "--results", testdata("results_run1.json"), "--json", "F"}},
      {{"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"), "F",
        "--markdown", "F"}},
      {{"compare", "--baseline", testdata("baseline_h200.json"), "--results", testdata("results_run1.json"),
        "--runner-history", "F", "--remeasure-list", "F"}},
      {{"unchanged", "--baseline", "F", "--results", testdata("results_run1.json"), "--list", "F"}},
      {{"ab", "--a", "F", "--b", testdata("results_run1.json"), "--json", "F"}},
      {{"record", "--results", "F", "--out", "F"}},
      {{"ledger", "--ledger", "F", "--report", "F"}},
      {{"compare", "--baseline", "F", "--results", testdata("results_run1.json"), "--same-code-ledger", "F"}},
      {{"ncu-diff", "--before", "F", "--after", "F2", "--markdown", "F"}},
      {{"ncu-store", "--profiles", "F", "--gpu", "h", "--csv", "F", "--benchmark", kReduce9}},
      {{"report", "--cases", "F", "--results", testdata("results_run1.json"), "--json", "F"}},
      {{"calibration-report", "--verdicts", "F", "--gpu", "g", "--trials", "1", "--processes", "1", "--repetitions",
        "1", "--max-remeasure", "1", "--rounds", "1", "--ab-repetitions", "1", "--ab-max-remeasure", "1", "--markdown",
        "F"}},
      {{"metrics", "--verdict", "F", "--bmf", "F"}},
      {{"history-export", "--store", path("s.db"), "--gpu", "h", "--ledger", "F", "--json", "F"}},
      {{"history-changes", "--store", path("s.db"), "--gpu", "h", "--json", "F", "--previous", "F"}},
      {{"history-offsets", "--store", path("s.db"), "--baseline", "F", "--out", "F"}},
  };
  const std::string kept = read_fixture_text("baseline_h200.json");
  for (const Case& c : cases) {
    const std::string file = write("f.json", kept);
    std::vector<std::string> args = c.args;
    for (std::string& arg : args) arg = arg == "F" ? file : arg == "F2" ? write("f2.csv", "x\n") : arg;
    const CliRun run = cli(args);
    const std::string call = ::testing::PrintToString(c.args);
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << call << run.out << run.err;
    expect_in(run.err, {"is the file", "would replace an input", "nothing was written"});
    EXPECT_EQ(run.out, "") << call;
    EXPECT_EQ(testing::file_text(file), kept) << call << ": the input was changed";
    std::vector<std::string> left = names();
    left.erase(std::remove(left.begin(), left.end(), "f2.csv"), left.end());
    EXPECT_EQ(left, (std::vector<std::string>{"f.json"})) << call << ": nothing else written";
  }
}

// One file under other names is still one file: a hard link, "x/../", "./"; and a file that does not
// exist yet is compared by its resolved path.
TEST_F(CliFiles, AnInputUnderAnotherNameIsStillRefusedAsAnOutput) {
  const std::string baseline = write("baseline.json", read_fixture_text("baseline_h200.json"));
  ASSERT_EQ(::link(baseline.c_str(), path("alias.json").c_str()), 0);
  std::filesystem::create_directories(path("sub"));
  std::filesystem::create_symlink(baseline, path("sub/symlink.json"));
  for (const std::string& output :
       {path("alias.json"), path("sub/../baseline.json"), dir_.string() + "/./baseline.json", path("sub/symlink.json")}) {
    const CliRun run = compare_with(baseline, {"--json", output});
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << output;
    expect_in(run.err, {"--json", "is the file --baseline reads", "would replace an input"});
  }
  EXPECT_EQ(testing::file_text(baseline), read_fixture_text("baseline_h200.json"));
  const CliRun missing = compare_with(path("none.json"), {"--markdown", path("sub/../none.json")});
  EXPECT_EQ(missing.code, formats::kExitInvalidInput);
  expect_in(missing.err, {"--markdown", "is the file --baseline reads"});
  EXPECT_FALSE(std::filesystem::exists(path("none.json")));
  // A file read and rewritten by design is no conflict: record --out may replace its --previous
  // (RecordAndMigrateLeaveOnlyTheBaseline), and an output beside the inputs is written.
  const CliRun beside = compare_with(baseline, {"--json", path("report.json")});
  EXPECT_EQ(beside.code, formats::kExitRegression) << beside.err;
}

// --- Inputs ---------------------------------------------------------------------------------------------

// A folder as input said "internal error: basic_string::_M_create"; /dev/zero read until memory ran out;
// a named pipe without a writer hung.
TEST_F(CliFiles, InputsMustBeRegularFiles) {
  ASSERT_EQ(::mkfifo(path("pipe.json").c_str(), 0644), 0);
  struct Case {
    std::string input;
    const char* kind;
  };
  for (const Case& c : {Case{dir_.string(), "is a folder, expected a regular file"},
                        Case{"/dev/zero", "is a character device, expected a regular file"},
                        Case{path("pipe.json"), "is a named pipe (FIFO), expected a regular file"}}) {
    const CliRun baseline = cli({"compare", "--baseline", c.input, "--results", testdata("results_run1.json")});
    EXPECT_EQ(baseline.code, formats::kExitInvalidInput) << c.input;
    expect_in(baseline.err, {c.kind});
    EXPECT_EQ(baseline.err.find("internal error"), std::string::npos) << baseline.err;
    const CliRun results = cli({"compare", "--baseline", testdata("baseline_h200.json"), "--results", c.input});
    EXPECT_EQ(results.code, formats::kExitInvalidInput) << c.input;
    expect_in(results.err, {c.kind});
    const CliRun ledger = cli({"ledger", "--ledger", c.input, "--report", write("r.json", "{}")});
    EXPECT_EQ(ledger.code, formats::kExitInvalidInput) << c.input;
  }
  EXPECT_THROW(formats::read_text_file(path("pipe.json"), ""), formats::InputError) << "refused even when stat and open race";
}

TEST_F(CliFiles, AnInputLargerThanTheBoundIsRefusedUnread) {
  const std::string big = path("big.json");
  std::ofstream(big) << "{";
  std::filesystem::resize_file(big, formats::kMaxInputFileBytes + 1);  // sparse: nothing is written
  const CliRun run = cli({"compare", "--baseline", big, "--results", testdata("results_run1.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  expect_in(run.err, {"big.json", "larger than 512 MiB"});
}

// --- Files read and rewritten ---------------------------------------------------------------------------

// Their locks live in this user's lock folder: nothing but the file is left in its folder (a team's
// baselines/, which `git add baselines/` commits whole).
TEST_F(CliFiles, NcuStoreAddsToTheFileAndLeavesNothingElse) {
  const std::string profiles = path("h.ncu.json");
  for (const char* name : {"a/one", "a/two"}) {
    const CliRun run = cli({"ncu-store", "--profiles", profiles, "--gpu", "nvidia-h200", "--benchmark", name, "--csv",
                            testdata("ncu_before.csv")});
    ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  }
  const nlohmann::json stored = formats::parse_json_document(formats::read_text_file(profiles, ""), profiles);
  EXPECT_EQ(stored.at("benchmarks").size(), 2u);
  EXPECT_EQ(names(), (std::vector<std::string>{"h.ncu.json"}));
}

TEST_F(CliFiles, RecordAndMigrateLeaveOnlyTheBaseline) {
  const std::string runtime = dir_.string() + "_runtime";  // beside the folder written, not in it
  std::filesystem::remove_all(runtime);
  std::filesystem::create_directories(runtime);
  const testing::ScopedEnvironment tmpdir("TMPDIR", runtime);
  const std::string baseline = path("nvidia-h200.json");
  for (int round = 0; round < 2; ++round) {  // the second reads the first as --previous
    std::vector<std::string> args = {"record", "--results", testdata("results_run1.json"), testdata("results_run2.json"),
                                     "--out", baseline};
    if (round == 1) args.insert(args.end(), {"--previous", baseline});
    const CliRun run = cli(args);
    ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  }
  const CliRun migrated = cli({"migrate", "--baseline", baseline, "--out", baseline});
  ASSERT_EQ(migrated.code, formats::kExitPass) << migrated.err;
  EXPECT_EQ(names(), (std::vector<std::string>{"nvidia-h200.json"}));
  const std::string locks = runtime + "/gpuperf-locks-" + std::to_string(::getuid());
  std::vector<std::string> held;
  for (const auto& entry : std::filesystem::directory_iterator(locks)) held.push_back(entry.path().filename());
  ASSERT_EQ(held.size(), 1u) << "one file, one lock, in the lock folder";
  EXPECT_EQ(held[0].rfind("file-nvidia-h200.json-", 0), 0u) << held[0];
  std::filesystem::remove_all(runtime);
}

// A windowed pass (ncu over gpuperf_bench --profiler-window): every benchmark's rows stored at once; where
// the order of the rows is lost, nothing is written.
TEST_F(CliFiles, NcuStoreOfAWindowedPassStoresAllOrNothing) {
  const auto fingerprint = [](const char* kernel) {
    return std::string(R"({"schema": 1, "capture_status": "cupti", "libraries": {}, "kernels": [{"name": ")") + kernel +
           R"(", "mangled_name": ")" + kernel +
           R"(", "grid": [8, 1, 1], "block": [256, 1, 1], "dynamic_shared_memory_bytes": 0, "registers_per_thread": 32,
           "static_shared_memory_bytes": 0, "local_memory_per_thread_bytes": 0, "sass_hash": null, "launches": 1}]})";
  };
  const std::string fingerprints =
      write("f.json", R"({"context": {"gpu_name": "Fake GPU", "gpu_slug": "fake-gpu", "gpu_uuid": "GPU-fake",
                          "driver_version": "1.0", "cuda_runtime": "13.0"}, "benchmarks": [],
                          "fingerprints": {"f/a/n:1": )" + fingerprint("_Z1av") + R"(, "f/b/n:1": )" +
                              fingerprint("_Z1bv") + "}}");
  const std::string order = write("order.txt", "f/a/n:1\nf/b/n:1\n");
  const auto pass = [&](const std::vector<const char*>& kernels) {
    std::string csv = "==PROF== Connected\n\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"gpu__time_duration.sum\"\n"
                      "\"\",\"\",\"\",\"\",\"ns\"\n";
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      csv += "\"" + std::to_string(i) + "\",\"" + kernels[i] + "\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"1,000\"\n";
    }
    return write("pass.csv", csv);
  };
  const std::string profiles = path("p.ncu.json");
  const auto store = [&](const std::string& csv) {
    return cli({"ncu-store", "--profiles", profiles, "--gpu", "fake-gpu", "--csv", csv, "--fingerprints", fingerprints,
                "--order", order});
  };
  const CliRun lost = store(pass({"_Z1bv"}));
  EXPECT_EQ(lost.code, formats::kExitInvalidInput);
  expect_in(lost.err, {"the rows of f/a/n:1 are not its fingerprint's", "nothing is stored from this pass"});
  EXPECT_FALSE(std::filesystem::exists(profiles));
  const CliRun both = store(pass({"_Z1av", "_Z1bv"}));
  ASSERT_EQ(both.code, formats::kExitPass) << both.err;
  expect_in(both.out, {"stored the profiles of 2 benchmarks (2 kernel launches)"});
  const CliRun renamed = store(pass({"_Z1av", "_Z1cv"}));
  ASSERT_EQ(renamed.code, formats::kExitPass) << renamed.err;
  expect_in(renamed.out, {"left out: f/b/n:1: its rows are not its fingerprint's launches", "stored the profiles of 1 benchmarks"});
  const CliRun neither = cli({"ncu-store", "--profiles", profiles, "--gpu", "fake-gpu", "--csv", pass({"_Z1av"})});
  EXPECT_EQ(neither.code, formats::kExitInvalidInput) << "one profile or a windowed pass, said which";
}

}  // namespace
}  // namespace gpuperf::gate
