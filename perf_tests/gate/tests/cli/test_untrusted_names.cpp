// Names from files a run of untrusted code writes (a pull request's results artifact, a runner's ledger):
// the gate refuses a poisoned name where it reads one (exit 2, the name escaped, the rule), and every
// report writer escapes what it prints anyway, so that neither a job summary nor the Actions log ever
// shows raw HTML, a link, a mention, a control character or a line starting a workflow command.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "formats/exit_codes.h"
#include "gate/cli/cli.h"
#include "gate/fleet/render.h"
#include "gate/ledger/same_code_ledger.h"
#include "gate/reports/reports.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using namespace std::string_literals;
using testing::cli;
using testing::CliRun;
using testing::read_fixture_text;
using testing::ScratchFolderTest;
using testing::testdata;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";

// What an attacker names a benchmark, and how the gate's message must show it.
struct Poison {
  const char* what;
  std::string name;
  std::string shown;  // the name in the message, escaped
  std::string why;    // what the message says is wrong
};

const std::vector<Poison>& poisons() {
  static const std::vector<Poison> list = {
      {"backtick and HTML", "fam/`<img src=x onerror=alert(1)>`/n:1", "fam/`<img src=x onerror=alert(1)>`/n:1",
       "has '`' at 4"},
      {"newline and a workflow command", "fam/x\n::error::pwned/n:1", "fam/x\\x0a::error::pwned/n:1",
       "has a control character (\\x0a) at 5"},
      {"ANSI escape", "fam/\x1b[2J\x1b[31mred/n:1", "fam/\\x1b[2J\\x1b[31mred/n:1",
       "has a control character (\\x1b) at 4"},
      {"NUL", "fam/a\0b/n:1"s, "fam/a\\x00b/n:1", "has a control character (\\x00) at 5"},
      {"over-long", "fam/" + std::string(300, 'a') + "/n:1", "fam/" + std::string(56, 'a') + "...",
       "is 308 characters long (at most 160)"},
  };
  return list;
}

std::string json_string(const std::string& text) { return nlohmann::json(text).dump(); }

// `text` with every occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Nothing an Actions log or a terminal would act on: no control character but the line ends, no line
// that starts a workflow command.
void expect_safe_for_a_log(const std::string& text, const std::string& context) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(c == '\n' || (byte >= 0x20 && byte < 0x7f)) << context << ": raw byte " << int(byte) << " in\n" << text;
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_NE(line.rfind("::", 0), 0u) << context << ": a line starts a workflow command: " << line;
  }
}

class UntrustedNames : public ScratchFolderTest {
 protected:
};

TEST_F(UntrustedNames, APoisonedBenchmarkNameInResultsIsInvalidInput) {
  const std::string clean = read_fixture_text("results_run1.json");
  ASSERT_NE(clean.find(kReduce9), std::string::npos);
  for (const Poison& p : poisons()) {
    // run_name keeps Google Benchmark's suffix: the gate strips it, then checks what is left.
    const std::string poisoned = replaced(clean, "\"" + std::string(kReduce9) + "/",
                                          json_string(p.name).substr(0, json_string(p.name).size() - 1) + "/");
    const std::string results = write("results.json", poisoned);
    const CliRun run = cli({"compare", "--baseline", testdata("baseline_h200.json"), "--results", results, "--markdown",
                         path("summary.md"), "--json", path("verdict.json")});
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << p.what;
    EXPECT_NE(run.err.find("benchmark name '" + p.shown + "' " + p.why + "; a benchmark name is family/part"),
              std::string::npos)
        << p.what << ": " << run.err;
    EXPECT_NE(run.err.find("gpuperf_bench writes only names its registry accepts"), std::string::npos) << run.err;
    expect_safe_for_a_log(run.out + run.err, p.what);
    EXPECT_FALSE(std::filesystem::exists(path("summary.md"))) << p.what << ": a report was written";
    EXPECT_FALSE(std::filesystem::exists(path("verdict.json"))) << p.what << ": a report was written";
  }
}

TEST_F(UntrustedNames, APoisonedGpuNameInResultsIsInvalidInput) {
  const std::string clean = read_fixture_text("results_run1.json");
  const std::string results =
      write("results.json", replaced(clean, "\"NVIDIA H200\"", json_string("NVIDIA H200\n::error::pwned `<b>`")));
  const CliRun run = cli({"compare", "--baseline", testdata("baseline_h200.json"), "--results", results});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("context.gpu_name: GPU name 'NVIDIA H200\\x0a::error::pwned `<b>`' has a control character "
                         "(\\x0a) at 11; a GPU name is"),
            std::string::npos)
      << run.err;
  expect_safe_for_a_log(run.out + run.err, "GPU name");
}

TEST_F(UntrustedNames, APoisonedNameInAFingerprintIsInvalidInput) {
  const std::string clean = read_fixture_text("results_fingerprint_only.json");
  const std::size_t key = clean.find("\"reduction/");
  ASSERT_NE(key, std::string::npos);
  std::string poisoned = clean;
  poisoned.replace(key, 1, json_string("fam/x\n::error::y/").substr(0, json_string("fam/x\n::error::y/").size() - 1));
  const CliRun run = cli({"gpu", "--results", write("results.json", poisoned)});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("fingerprints: benchmark name 'fam/x\\x0a::error::y/"), std::string::npos) << run.err;
  expect_safe_for_a_log(run.out + run.err, "fingerprint");
}

TEST_F(UntrustedNames, APoisonedNameInABaselineIsInvalidInput) {
  const std::string clean = read_fixture_text("baseline_h200.json");
  for (const Poison& p : poisons()) {
    const std::string baseline =
        write("baseline.json", replaced(clean, "\"" + std::string(kReduce9) + "\"", json_string(p.name)));
    const CliRun run = cli({"compare", "--baseline", baseline, "--results", testdata("results_run1.json")});
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << p.what;
    EXPECT_NE(run.err.find("benchmarks: benchmark name '" + p.shown + "' " + p.why), std::string::npos)
        << p.what << ": " << run.err;
    expect_safe_for_a_log(run.out + run.err, p.what);
  }
  const std::string family =
      write("baseline.json", replaced(clean, "\"families\": {", "\"families\": {\"a\\u001b[31m\": {}, "));
  const CliRun run = cli({"compare", "--baseline", family, "--results", testdata("results_run1.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("families: family name 'a\\x1b[31m' has a control character (\\x1b) at 1"), std::string::npos)
      << run.err;
}

TEST_F(UntrustedNames, APoisonedNameInACaseListingIsInvalidInput) {
  const std::string clean = read_fixture_text("fleet_cases.json");
  const std::string poisoned = replaced(clean, "\"reduce9_shfl_down_last_warp\"", json_string("x`<img src=y>`"));
  const CliRun run = cli({"report", "--cases", write("cases.json", poisoned), "--baseline",
                       testdata("fleet_baseline_h200.json"), "--markdown", path("fleet.md")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find(".variant: variant or shape 'x`<img src=y>`' has '`' at 1"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(path("fleet.md")));
}

// --- the second line: every writer escapes what it prints, even a name no reader would have let in ----

Comparison poisoned_comparison() {
  Comparison c;
  c.mode = "compare";
  c.gpu_name = "NVIDIA H200\n::error::gpu <img src=g>";
  c.gpu_slug = "nvidia-h200`|";
  c.against.baseline_recorded = "[x](https://evil.example)";
  BenchmarkComparison slow;
  slow.name = "fam/`<img src=x onerror=alert(1)>`/n:1";
  slow.verdict = Verdict::kSlow;
  slow.unit = formats::kUnitMicroseconds;
  slow.baseline_median = 10.0;
  slow.current_median = 12.0;
  slow.ratio = 1.2;
  slow.ci_low = 1.1;
  slow.ci_high = 1.3;
  slow.tolerance_pct = 2.0;
  slow.baseline_processes = slow.current_processes = 3;
  RowNote evil_unit = note_of(NoteCode::kRunnerHistoryUnit);  // a note carrying text read from a file
  evil_unit.unit_before = "cc @octocat ![i](https://evil.example/i.png)\n::warning::note";
  evil_unit.unit_now = formats::kUnitMicroseconds;
  slow.notes = {evil_unit};
  BenchmarkComparison error;
  error.name = "fam/x\n::error::pwned\x1b[31m/n:1";
  error.verdict = Verdict::kError;
  error.reason = reason_of(ReasonCode::kBenchmarkError, "failed \0 <script>alert(1)</script>\r\n::error::reason"s);
  c.benchmarks = {slow, error};
  return c;
}

TEST(UntrustedText, TheConsoleReportEscapesIt) {
  const std::string console = testing::console_of(poisoned_comparison());
  expect_safe_for_a_log(console, "console");
  EXPECT_NE(console.find("SLOW       fam/`<img src=x onerror=alert(1)>`/n:1  10.00 us -> 12.00 us"), std::string::npos)
      << console;
  EXPECT_NE(console.find("ERROR      fam/x\\x0a::error::pwned\\x1b[31m/n:1"), std::string::npos) << console;
  EXPECT_NE(console.find("(failed \\x00 <script>alert(1)</script>\\x0d\\x0a::error::reason)"), std::string::npos)
      << console;
}

TEST(UntrustedText, TheMarkdownReportEscapesIt) {
  const std::string markdown = testing::markdown_of(poisoned_comparison());
  expect_safe_for_a_log(markdown, "markdown");
  for (const char* raw : {"<img src=g", "<script", "@octocat", "](https://", "\n::"}) {
    EXPECT_EQ(markdown.find(raw), std::string::npos) << raw << " in\n" << markdown;
  }
  EXPECT_EQ(markdown.rfind(
                "### Perf gate (compare) on NVIDIA H200\\x0a::error::gpu &lt;img src=g> (``nvidia-h200`\\|``): ", 0),
            0u)
      << markdown;
  // The name's HTML stays inside a code span, which shows it as text.
  EXPECT_NE(markdown.find("| SLOW | ``fam/`<img src=x onerror=alert(1)>`/n:1`` | "), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| ERROR | `fam/x\\x0a::error::pwned\\x1b[31m/n:1` | "), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("cc @&#8203;octocat ![i]\\(https://evil.example/i.png)\\x0a::warning::note"),
            std::string::npos)
      << markdown;
  // Every table row is one line of 10 cells: the header, the rule and one row per benchmark.
  std::istringstream lines(markdown);
  int rows = 0;
  for (std::string line; std::getline(lines, line);) rows += line.rfind("| ", 0) == 0 || line.rfind("|---", 0) == 0;
  EXPECT_EQ(rows, 4) << markdown;
}

TEST(UntrustedText, TheLedgerLineEscapesIt) {
  SameCodeTally tally;
  tally.gpu_name = "NVIDIA H100\n::error::x <img src=y>";
  tally.since = "2026-11-23\x1b[2J";
  tally.reports = 1;
  tally.slow = 1;
  tally.same = 9;
  tally.false_alarms = {{"fam/`@octocat`/n:1", 1}};
  const std::string line = ledger_line(tally, "compare");
  expect_safe_for_a_log(line, "ledger line");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  for (const char* raw : {"<img", "@octocat"}) EXPECT_EQ(line.find(raw), std::string::npos) << raw << ": " << line;
  EXPECT_NE(line.find("false alarms in: fam/\\`@&#8203;octocat\\`/n:1 (1)"), std::string::npos) << line;
  EXPECT_NE(line.find("same code on this GPU (NVIDIA H100\\x0a::error::x &lt;img src=y>, against the baseline)"),
            std::string::npos)
      << line;
}

TEST(UntrustedText, TheFleetReportAndItsChartEscapeIt) {
  FleetReport report;
  report.gpus = {FleetGpu{"NVIDIA H200 <b>", "nvidia-h200", "H200\"]\n```\n<img src=z>", "results `x`"}};
  FleetFamily family;
  family.name = "fam\n## heading";
  family.chart_shape = "n:1";
  family.chart_throughput = Throughput::kGbPerS;
  FleetRow row;
  row.name = "fam/v\"<img src=v>/n:1";
  row.family = "fam";
  row.variant = "v\"<img src=v>`";
  row.shape = "n:1";
  row.unit = formats::kUnitMicroseconds;
  row.throughput = Throughput::kGbPerS;
  row.cells = {FleetCell{10.0, formats::kUnitMicroseconds, 100.0, std::nullopt, std::nullopt}};
  family.rows = {row};
  report.families = {family};
  std::ostringstream out;
  write_fleet_markdown(report, FleetChart::kMermaid, out);
  const std::string markdown = out.str();
  expect_safe_for_a_log(markdown, "fleet report");
  EXPECT_EQ(markdown.find("<img"), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("<b>"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("#### fam\\x0a## heading\n"), std::string::npos) << markdown;
  const std::string chart = fleet_mermaid_chart(report, report.families.front());
  EXPECT_NE(chart.find("x-axis [\"v'#lt;img src=v#gt;#96;\"]"), std::string::npos) << chart;
  // One fence opens the block and one closes it: no label can end it early.
  std::istringstream lines(chart);
  int fences = 0;
  for (std::string line; std::getline(lines, line);) fences += line.rfind("```", 0) == 0;
  EXPECT_EQ(fences, 2) << chart;
}

}  // namespace
}  // namespace gpuperf::gate
