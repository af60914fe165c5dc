// Platform changes: the pure comparison of two sides' drivers, runtimes, SM counts and clocks (its edges:
// a side that does not say, processes that disagree, clocks at the threshold), the rule for "many moved
// together", the clocks a baseline records, and the reports on the fixtures of a newer driver, lower
// clocks and clocks within noise. The report text itself is in golden files (tests/reports/test_reports.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/inputs/platform.h"
#include "gate/judging/ab_mode.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/recording/record.h"
#include "gate/reports/wording.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::console_of;
using testing::markdown_of;
using testing::testdata;
using Kind = PlatformChange::Kind;

std::vector<ResultsFile> load(const std::vector<std::string>& names) {
  std::vector<ResultsFile> files;
  for (const std::string& name : names) files.push_back(load_results(testdata(name)));
  return files;
}

const std::vector<std::string> kUnchanged = {"results_run1.json", "results_run2.json", "results_run3.json"};
const std::vector<std::string> kNewDriver = {"results_driver_590_1.json", "results_driver_590_2.json",
                                             "results_driver_590_3.json"};
const std::vector<std::string> kClocksLow = {"results_clocks_low_1.json", "results_clocks_low_2.json",
                                             "results_clocks_low_3.json"};
const std::vector<std::string> kClocksNoise = {"results_clocks_noise_1.json", "results_clocks_noise_2.json"};

PlatformSide h200_side() {
  PlatformSide side;
  side.driver = {"580.159.04"};
  side.cuda_runtime = {"13.0"};
  side.compute_capability = {"9.0"};
  side.sm_count = {"132"};
  side.memory_mib = {"143771"};
  side.sm_clock = ClockReading{1980.0, 1980.0, 1980.0};
  side.mem_clock = ClockReading{3201.0, 3201.0, 3201.0};
  return side;
}

ClockReading clock_at(double mhz) { return ClockReading{mhz, mhz, mhz}; }

std::vector<Verdict> verdicts_of(const Comparison& c) {
  std::vector<Verdict> verdicts;
  for (const BenchmarkComparison& row : c.benchmarks) verdicts.push_back(row.verdict);
  return verdicts;
}

TEST(PlatformChanges, TheSamePlatformHasNoDifference) {
  EXPECT_TRUE(platform_changes(h200_side(), h200_side()).empty());
}

TEST(PlatformChanges, ADriverChangeNamesBothVersions) {
  PlatformSide now = h200_side();
  now.driver = {"590.44.01"};
  const std::vector<PlatformChange> changes = platform_changes(h200_side(), now);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].field, "driver");
  EXPECT_EQ(changes[0].kind, Kind::kChanged);
  EXPECT_EQ(changes[0].before, "580.159.04");
  EXPECT_EQ(changes[0].now, "590.44.01");
  EXPECT_EQ(describe_change(changes[0]), "driver 580.159.04 -> 590.44.01");
  EXPECT_TRUE(platform_changed(changes));
}

TEST(PlatformChanges, EveryFieldIsComparedInOrder) {
  PlatformSide now = h200_side();
  now.driver = {"590.44.01"};
  now.cuda_runtime = {"13.1"};
  now.compute_capability = {"10.0"};
  now.sm_count = {"16"};
  now.memory_mib = {"17920"};
  now.sm_clock = clock_at(1500.0);
  now.mem_clock = clock_at(2600.0);
  std::vector<std::string> fields;
  for (const PlatformChange& c : platform_changes(h200_side(), now)) {
    EXPECT_EQ(c.kind, Kind::kChanged) << c.field;
    fields.push_back(c.field);
  }
  EXPECT_EQ(fields, (std::vector<std::string>{"driver", "cuda_runtime", "compute_capability", "sm_count", "memory_mib",
                                              "sm_clock_mhz", "mem_clock_mhz"}));
}

TEST(PlatformChanges, AFieldOneSideDoesNotSayIsUnknownNotAChange) {
  PlatformSide before = h200_side();
  before.sm_clock = {};  // a baseline recorded before clocks were kept
  before.mem_clock = {};
  PlatformSide now = h200_side();
  now.cuda_runtime.clear();  // results without the field
  const std::vector<PlatformChange> changes = platform_changes(before, now);
  ASSERT_EQ(changes.size(), 3u);
  for (const PlatformChange& c : changes) EXPECT_EQ(c.kind, Kind::kUnknown) << c.field;
  EXPECT_EQ(changes[0].field, "cuda_runtime");
  EXPECT_EQ(changes[0].before, "13.0");
  EXPECT_EQ(changes[0].now, "");
  EXPECT_EQ(changes[1].field, "sm_clock_mhz");
  EXPECT_EQ(changes[1].before, "");
  EXPECT_EQ(changes[1].now, "1980");
  EXPECT_FALSE(changes[1].change_pct.has_value());
  EXPECT_FALSE(platform_changed(changes)) << "unknown is not a change";

  const std::vector<PlatformChange> neither = platform_changes(PlatformSide{}, PlatformSide{});
  EXPECT_EQ(neither.size(), 7u) << "nothing said on either side: every field unknown";
  EXPECT_FALSE(platform_changed(neither));
}

TEST(PlatformChanges, ADriverVersionWithoutNvmlDoesNotCompareWithOneFromNvml) {
  PlatformSide now = h200_side();
  now.driver = {"CUDA 13.0"};
  const std::vector<PlatformChange> changes = platform_changes(h200_side(), now);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, Kind::kUnknown);
  EXPECT_EQ(changes[0].now, "CUDA 13.0");

  PlatformSide before = h200_side();
  before.driver = {"CUDA 12.8"};
  EXPECT_EQ(platform_changes(before, now).at(0).kind, Kind::kChanged) << "two driver API versions do compare";
}

TEST(PlatformChanges, ClocksCountOnlyBeyondTheThreshold) {
  PlatformSide before = h200_side();
  before.sm_clock = clock_at(2000.0);
  PlatformSide now = before;
  now.sm_clock = clock_at(1960.0);  // exactly -2%
  EXPECT_TRUE(platform_changes(before, now).empty()) << "2% is within what boost clocks vary";
  now.sm_clock = clock_at(1959.0);
  std::vector<PlatformChange> changes = platform_changes(before, now);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, Kind::kChanged);
  EXPECT_NEAR(*changes[0].change_pct, -2.05, 1e-9);
  now.sm_clock = clock_at(2041.0);
  changes = platform_changes(before, now);
  ASSERT_EQ(changes.size(), 1u) << "higher counts too";
  EXPECT_EQ(describe_change(changes[0]), "SM clock 2000 -> 2041 MHz (+2.0%)");
  EXPECT_TRUE(platform_changes(before, now, 5.0).empty()) << "the threshold is a parameter";
}

ResultsFile process_on(const std::string& driver, double sm_clock_mhz) {
  ResultsFile file = testing::results_for(testing::kH200);
  file.gpu.driver = driver;
  file.gpu.cuda_runtime = "13.0";
  file.sm_clock_mhz = {sm_clock_mhz, sm_clock_mhz, sm_clock_mhz};
  return file;
}

TEST(PlatformChanges, ProcessesOnDifferentDriversAreMixed) {
  const PlatformSide now = platform_of(std::vector<ResultsFile>{process_on("580.159.04", 1980.0),
                                                                process_on("590.44.01", 1980.0),
                                                                process_on("590.44.01", 1980.0)});
  EXPECT_EQ(now.driver, (std::vector<std::string>{"580.159.04", "590.44.01"})) << "distinct, in order first seen";
  const std::vector<PlatformChange> changes = platform_changes(h200_side(), now);
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes[0].field, "driver");
  EXPECT_EQ(changes[0].kind, Kind::kMixed);
  EXPECT_FALSE(changes[0].before_mixed);
  EXPECT_TRUE(changes[0].now_mixed);
  EXPECT_EQ(describe_change(changes[0]), "driver 580.159.04 -> mixed (580.159.04, 590.44.01)");
  EXPECT_TRUE(platform_changed(changes));
}

TEST(PlatformChanges, ProcessesAtDifferentClocksAreMixedAndWithinNoiseAreNot) {
  const PlatformSide apart =
      platform_of(std::vector<ResultsFile>{process_on("580.159.04", 1980.0), process_on("580.159.04", 1782.0)});
  EXPECT_EQ(apart.sm_clock.lowest_process_mhz, 1782.0);
  EXPECT_EQ(apart.sm_clock.highest_process_mhz, 1980.0);
  const std::vector<PlatformChange> changes = platform_changes(h200_side(), apart);
  const auto sm = std::find_if(changes.begin(), changes.end(),
                               [](const PlatformChange& c) { return c.field == "sm_clock_mhz"; });
  ASSERT_NE(sm, changes.end());
  EXPECT_EQ(sm->kind, Kind::kMixed);
  EXPECT_EQ(describe_change(*sm), "SM clock 1980 -> mixed (1782-1980) MHz");

  const PlatformSide close =
      platform_of(std::vector<ResultsFile>{process_on("580.159.04", 1980.0), process_on("580.159.04", 1965.0)});
  for (const PlatformChange& c : platform_changes(h200_side(), close)) {
    EXPECT_NE(c.field, "sm_clock_mhz") << "processes 0.8% apart are one platform";
  }
}

TEST(PlatformChanges, ResultsKeepTheClocksOfValidSamplesOnly) {
  const ResultsFile file = load_results(testdata("results_driver_590_1.json"));
  EXPECT_EQ(file.sm_clock_mhz, std::vector<double>(30, 1980.0)) << "10 samples of 3 benchmarks";
  EXPECT_EQ(file.mem_clock_mhz, std::vector<double>(30, 3201.0));
  EXPECT_EQ(file.gpu.driver, "590.44.01");
  const ResultsFile throttled = load_results(testdata("results_throttled.json"));
  EXPECT_EQ(throttled.sm_clock_mhz.size(), 9u) << "3 valid samples of 3 benchmarks; 27 each throttled";
  EXPECT_TRUE(throttled.mem_clock_mhz.empty()) << "the older fixtures carry no memory clock";
}

TEST(PlatformChanges, ResultsClockIsTheMedianOfEverySample) {
  ResultsFile a = process_on("580.159.04", 1980.0);
  a.sm_clock_mhz = {1980.0, 1965.0, 1980.0, 1980.0};
  ResultsFile b = process_on("580.159.04", 1950.0);
  b.sm_clock_mhz = {1950.0};
  const PlatformSide side = platform_of(std::vector<ResultsFile>{a, b});
  EXPECT_EQ(side.sm_clock.median_mhz, 1980.0) << "pooled samples, not the median of process medians (1965)";
  EXPECT_FALSE(side.mem_clock.known()) << "no sample reported the memory clock";
}

TEST(PlatformChanges, BaselineSideTakesItsGpuSection) {
  Baseline baseline = load_baseline(testdata("baseline_h200_clocks.json"));
  const PlatformSide side = platform_of(baseline);
  EXPECT_EQ(side.sm_count, (std::vector<std::string>{"132"})) << "an integer in the file, text as in the results";
  EXPECT_EQ(side.sm_clock.median_mhz, 1980.0);
  EXPECT_EQ(side.mem_clock.median_mhz, 3201.0);
  baseline.gpu.driver.clear();
  EXPECT_TRUE(platform_of(baseline).driver.empty());
}

TEST(MovedTogether, AQuarterOfTheJudgedAndAtLeastTwo) {
  EXPECT_TRUE(moved_together(2, 8));
  EXPECT_FALSE(moved_together(2, 9));
  EXPECT_TRUE(moved_together(27, 108));
  EXPECT_FALSE(moved_together(26, 108));
  EXPECT_FALSE(moved_together(1, 1)) << "one benchmark's move is what a code change looks like";
  EXPECT_TRUE(moved_together(2, 3));
  EXPECT_FALSE(moved_together(0, 0));
}

// The fixtures: baseline_h200.json (driver 580.159.04, no clocks) and baseline_h200_clocks.json (SM
// 1980 MHz, memory 3201 MHz).

TEST(PlatformReports, ANewerDriverIsNamedAndTheVerdictsStayAsJudged) {
  const Baseline baseline = load_baseline(testdata("baseline_h200.json"));
  const Comparison c = compare_with_baseline(baseline, load(kNewDriver), {});
  const Comparison unchanged = compare_with_baseline(baseline, load(kUnchanged), {});
  EXPECT_EQ(verdicts_of(c), verdicts_of(unchanged));
  EXPECT_EQ(exit_code(c), formats::kExitPass);

  const std::string console = console_of(c);
  EXPECT_NE(console.find("WARNING    platform changed since the baseline: driver 580.159.04 -> 590.44.01"),
            std::string::npos)
      << console;
  EXPECT_NE(console.find("not compared: SM clock, memory clock (not in the baseline)"), std::string::npos);
  EXPECT_EQ(console.find("HINT"), std::string::npos) << "nothing moved: no hint to re-record";
  const std::string last_line = console.substr(console.rfind('\n', console.size() - 2) + 1);
  EXPECT_EQ(last_line.rfind("perf_gate compare: PASS", 0), 0u) << "the summary stays the last line: " << last_line;
  EXPECT_NE(markdown_of(c).find("**Warning:** platform changed since the baseline: driver 580.159.04 -> 590.44.01"),
            std::string::npos);

  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  ASSERT_EQ(doc["platform_changes"].size(), 1u);
  EXPECT_EQ(doc["platform_changes"][0]["field"], "driver");
  EXPECT_EQ(doc["platform_changes"][0]["kind"], "changed");
  EXPECT_EQ(doc["platform_changes"][0]["before"], "580.159.04");
  EXPECT_EQ(doc["platform_changes"][0]["now"], "590.44.01");
  EXPECT_TRUE(doc["platform_changes"][0]["change_pct"].is_null());
  ASSERT_EQ(doc["platform_not_compared"].size(), 2u);
  EXPECT_EQ(doc["platform_not_compared"][0]["field"], "sm_clock_mhz");
  EXPECT_TRUE(doc["platform_not_compared"][0]["before"].is_null());
  EXPECT_EQ(doc["platform_not_compared"][0]["now"], "1980");
  EXPECT_TRUE(doc["platform_warning"].is_object());
  EXPECT_TRUE(doc["platform_hint"].is_null());
}

TEST(PlatformReports, LowerClocksAndManyMovedGiveTheHintToReRecord) {
  const Baseline baseline = load_baseline(testdata("baseline_h200_clocks.json"));
  const std::vector<ResultsFile> results = load(kClocksLow);
  const Comparison c = compare_with_baseline(baseline, results, {});
  EXPECT_EQ(exit_code(c), formats::kExitRegression) << "judged as usual: the slowdowns fail";
  const std::string console = console_of(c);
  EXPECT_NE(console.find("SM clock 1980 -> 1782 MHz (-10.0%), memory clock 3201 -> 2881 MHz (-10.0%)"),
            std::string::npos)
      << console;
  EXPECT_NE(console.find("HINT       2 of 3 judged benchmarks moved beyond their tolerance with the platform (2 SLOW)"),
            std::string::npos)
      << console;
  EXPECT_NE(console.find("re-record the baseline on this platform: scripts/update_baseline.sh"), std::string::npos);

  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  ASSERT_EQ(doc["platform_changes"].size(), 2u);
  EXPECT_EQ(doc["platform_changes"][0]["field"], "sm_clock_mhz");
  EXPECT_NEAR(doc["platform_changes"][0]["change_pct"].get<double>(), -10.0, 0.05);
  EXPECT_EQ(doc["platform_changes"][1]["field"], "mem_clock_mhz");
  EXPECT_EQ(doc["platform_not_compared"].size(), 0u);
  ASSERT_TRUE(doc["platform_hint"].is_object());
  EXPECT_NE(doc["platform_hint"]["action"].get<std::string>().find("scripts/update_baseline.sh"), std::string::npos);

  // The same results on the baseline's platform: the same verdicts, no warning. The platform never
  // decides a verdict.
  std::vector<ResultsFile> same_platform = results;
  for (ResultsFile& file : same_platform) {
    std::fill(file.sm_clock_mhz.begin(), file.sm_clock_mhz.end(), 1980.0);
    std::fill(file.mem_clock_mhz.begin(), file.mem_clock_mhz.end(), 3201.0);
  }
  const Comparison without = compare_with_baseline(baseline, same_platform, {});
  EXPECT_EQ(verdicts_of(without), verdicts_of(c));
  EXPECT_EQ(exit_code(without), exit_code(c));
  EXPECT_TRUE(without.platform.empty());
  EXPECT_EQ(console_of(without).find("WARNING"), std::string::npos);
  EXPECT_EQ(console_of(without).find("HINT"), std::string::npos) << "moved, but not with the platform";
}

TEST(PlatformReports, ClocksWithinNoiseGiveNoWarning) {
  const Comparison c =
      compare_with_baseline(load_baseline(testdata("baseline_h200_clocks.json")), load(kClocksNoise), {});
  EXPECT_TRUE(c.platform.empty()) << "1% and 0.5% lower: within the 2% boost clocks vary";
  EXPECT_EQ(console_of(c).find("WARNING"), std::string::npos) << console_of(c);
  EXPECT_EQ(markdown_of(c).find("**Warning:**"), std::string::npos);
  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  EXPECT_EQ(doc["platform_changes"].size(), 0u);
  EXPECT_TRUE(doc["platform_warning"].is_null());
}

TEST(PlatformReports, ResultsPooledFromTwoDriversSayMixed) {
  const Comparison c = compare_with_baseline(load_baseline(testdata("baseline_h200.json")),
                                             load({"results_run1.json", "results_driver_590_1.json"}), {});
  const std::string console = console_of(c);
  EXPECT_NE(console.find("driver 580.159.04 -> mixed (580.159.04, 590.44.01)"), std::string::npos) << console;
  EXPECT_NE(console.find("pass results measured on one platform only"), std::string::npos);
  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  EXPECT_EQ(doc["platform_changes"][0]["kind"], "mixed");
}

TEST(PlatformReports, AbNamesWhatDiffersBetweenAAndB) {
  const Comparison c = compare_ab(load(kUnchanged), load(kNewDriver), {});
  const std::string console = console_of(c);
  EXPECT_NE(console.find("WARNING    platform differs between A and B: driver 580.159.04 -> 590.44.01"),
            std::string::npos)
      << console;
  EXPECT_NE(console.find("memory clock (not in A)"), std::string::npos) << "the older fixtures have no memory clock";
  EXPECT_EQ(console.find("update_baseline"), std::string::npos) << "A/B keeps no baseline";
  const Comparison same = compare_ab(load(kUnchanged), load(kUnchanged), {});
  EXPECT_FALSE(platform_changed(same.platform)) << "same platform; the memory clock is unknown on both sides";
  EXPECT_EQ(console_of(same).find("WARNING"), std::string::npos);
}

TEST(PlatformRecord, TheBaselineKeepsTheMedianClocksAndOldFilesStillRead) {
  const Baseline recorded = record_baseline(load(kClocksLow), nullptr, {});
  EXPECT_EQ(recorded.gpu.sm_clock_mhz, 1782.0);
  EXPECT_EQ(recorded.gpu.mem_clock_mhz, 2881.0);
  const std::string text = baseline_to_text(recorded);
  EXPECT_NE(text.find("\"cuda_runtime\": \"13.0\",\n    \"sm_clock_mhz\": 1782.0,\n    \"mem_clock_mhz\": 2881.0\n"),
            std::string::npos)
      << text.substr(0, 400);
  const Baseline again = parse_baseline(text, "round-trip");
  EXPECT_EQ(again.gpu.sm_clock_mhz, 1782.0);
  EXPECT_EQ(again.gpu.mem_clock_mhz, 2881.0);

  const Baseline old = load_baseline(testdata("baseline_h200.json"));
  EXPECT_FALSE(old.gpu.sm_clock_mhz.has_value()) << "a file without clocks reads";
  EXPECT_EQ(baseline_to_text(old).find("clock"), std::string::npos) << "and rewrites without them";
  const Baseline no_mem_clock = record_baseline(load(kUnchanged), nullptr, {});
  EXPECT_EQ(no_mem_clock.gpu.sm_clock_mhz, 1980.0);
  EXPECT_FALSE(no_mem_clock.gpu.mem_clock_mhz.has_value()) << "no sample reported it";
}

TEST(PlatformRecord, AClockMustBeAPositiveNumber) {
  std::string text = testing::read_fixture_text("baseline_h200_clocks.json");
  const std::string field = "\"sm_clock_mhz\": 1980";
  ASSERT_NE(text.find(field), std::string::npos);
  text.replace(text.find(field), field.size(), "\"sm_clock_mhz\": 0");
  try {
    parse_baseline(text, "b.json");
    ADD_FAILURE() << "a zero clock was accepted";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu.sm_clock_mhz is zero"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpuperf::gate
