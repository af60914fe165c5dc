// perf_gate history-changes' analysis (history/changes.h): the change points and the drift of every series
// of a GPU, judged only against a baseline entry of the series' unit and the baseline its runs were judged
// against; what is new since the previous analysis (history/changes_previous.h); and the report a
// default-branch run adds to its job summary (history/changes_report.h, golden files).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/escape.h"
#include "gate/history/changes.h"
#include "gate/history/changes_report.h"
#include "gate/history/store_input.h"
#include "gate/statistics/runner_history.h"
#include "gate/tests/history/test_change_points_support.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate::history {
namespace {

using testing::append;
using testing::series_of;
using testing::SeriesMaker;

constexpr const char* kGpu = "nvidia-h100-80gb-hbm3";
constexpr const char* kStepped = "reduction/reduce7_many_elements_per_thread/n:268435456";
constexpr const char* kFlat = "reduction/reduce9_shfl_down_last_warp/n:268435456";
constexpr const char* kRecorded = "2026-11-01T00:00:00Z";  // series_of's runs were judged against it

// Two benchmarks of one GPU: one stepped up 5% at run 20 (each run passed a 4% gate against the run
// before it, the sum did not: the runs after the step were judged SLOW against the baseline from run
// 24 on), one flat; the baseline holds both at their first level.
std::vector<Series> two_series(std::size_t stepped_runs = 12) {
  std::vector<double> stepped;
  append(stepped, 20, 100.0);
  append(stepped, stepped_runs, 105.0);
  Series step = series_of(SeriesMaker(5).values(stepped, 0.002));
  step.gpu_slug = kGpu;
  step.benchmark = kStepped;
  for (std::size_t i = 0; i < step.points.size(); ++i) step.points[i].verdict = i < 24 ? "SAME" : "SLOW";
  Series flat = series_of(SeriesMaker(6).values(std::vector<double>(20 + stepped_runs, 50.0), 0.002));
  flat.gpu_slug = kGpu;
  flat.benchmark = kFlat;
  for (SeriesPoint& p : flat.points) p.verdict = "SAME";
  return {step, flat};
}

Baseline baseline_of_both() {
  Baseline baseline;
  baseline.gpu.name = "NVIDIA H100 80GB HBM3";
  baseline.gpu.slug = kGpu;
  baseline.recorded.date = kRecorded;
  baseline.recorded.commit = "c0";
  baseline.default_tolerance_pct = 2.0;
  for (const auto& [name, median] : {std::pair<std::string, double>{kStepped, 100.0}, {kFlat, 50.0}}) {
    BaselineEntry entry;
    entry.median = median;
    entry.process_medians = {median};
    entry.unit = "us";
    baseline.benchmarks[name] = entry;
  }
  return baseline;
}

struct Analysed {
  ChangesReport report;
  SeriesExport exported;
};

Analysed analyse(const std::vector<Series>& series, const std::optional<Baseline>& baseline,
                 PreviousChanges previous = {}) {
  ChangesAnalysis analysis(kGpu, baseline, {}, std::move(previous));
  Analysed out;
  out.exported.gpu_slug = kGpu;
  out.exported.ledger = nullptr;
  for (const Series& one : series) out.exported.series.push_back(analysis.add(one));
  out.report = analysis.report();
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(HistoryChanges, AStepIsAChangePointAndADriftBeyondTheTolerance) {
  const Analysed a = analyse(two_series(), baseline_of_both());
  const ExportedSeries& step = a.exported.series[0];
  ASSERT_EQ(step.change_points.size(), 1u);
  EXPECT_EQ(step.change_points[0].index, 20u);
  EXPECT_EQ(step.change_points[0].good_commit, "c19");
  EXPECT_EQ(step.change_points[0].bad_commit, "c20");
  EXPECT_NEAR(step.change_points[0].change_pct, 5.0, 0.5);
  ASSERT_TRUE(step.drift);
  EXPECT_TRUE(step.drift->beyond_tolerance);
  EXPECT_EQ(step.drift->good_commit, "c19");
  EXPECT_EQ(step.drift->bad_commit, "c20");
  const ExportedSeries& flat = a.exported.series[1];
  EXPECT_TRUE(flat.change_points.empty());
  ASSERT_TRUE(flat.drift);
  EXPECT_FALSE(flat.drift->beyond_tolerance);
  // The report holds what the export holds; the export reads back as written.
  ASSERT_EQ(a.report.series.size(), 2u);
  EXPECT_EQ(a.report.series[0].change_points.size(), 1u);
  EXPECT_EQ(a.report.series[0].judgement, DriftJudgement::kJudged);
  const std::string text = series_json(a.exported);
  EXPECT_EQ(series_json(read_series_json(text, "changes.json")), text);
}

// A runner 3.5% faster than the baseline's machine: `own_runs` runs of the baseline's code, then 12 of a change
// that made the benchmark 3% slower there. Against the baseline (4%) that is -0.6%; against the runner's own
// level of the baseline's code (2%), +3%.
Analysed runner_drift(std::size_t own_runs) {
  formats::Fingerprint code;
  code.capture_status = formats::kCapturedByCupti;
  formats::KernelLaunch k;
  k.mangled_name = "_Z7reduce7v";
  k.sass_hash = "00000000000000aa";
  code.kernels.push_back(k);
  Baseline baseline = baseline_of_both();
  baseline.default_tolerance_pct = 4.0;
  baseline.same_gpu_tolerance_pct = 2.0;
  baseline.benchmarks[kStepped].fingerprint = code;
  baseline.benchmarks[kStepped].process_medians = {99.9, 100.0, 100.1};
  std::vector<double> levels;
  append(levels, own_runs, 96.5);
  append(levels, 12, 96.5 * 1.03);
  Series series = series_of(SeriesMaker(7).values(levels, 0.001));
  series.gpu_slug = kGpu;
  series.benchmark = kStepped;
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    SeriesPoint& p = series.points[i];
    p.process_medians = {p.value * 0.999, p.value, p.value * 1.001};
    p.code_hash = i < own_runs ? code_hash(code) : "0123456789abcdef";
    p.verdict = "SAME";
  }
  return analyse({series}, baseline);
}

TEST(HistoryChanges, ADriftIsJudgedAgainstTheRunnersOwnLevelWhereItHasTheRuns) {
  const Analysed with = runner_drift(12);
  ASSERT_TRUE(with.exported.series[0].drift);
  const ExportedDrift& drift = *with.exported.series[0].drift;
  EXPECT_EQ(drift.runner, "GPU-0");
  EXPECT_EQ(drift.runner_runs, 12);
  EXPECT_NEAR(drift.runner_offset_pct, -3.5, 0.2);
  EXPECT_NEAR(drift.change_pct, 3.0, 0.3);
  EXPECT_EQ(drift.tolerance_pct, 2.0);
  EXPECT_TRUE(drift.beyond_tolerance);
  EXPECT_TRUE(contains(changes_console(with.report),
                       "from the baseline recorded 2026-11-01T00:00:00Z on runner GPU-0 (its own level of the "
                       "baseline's code: runner offset -3."))
      << changes_console(with.report);
  const std::string text = series_json(with.exported);
  EXPECT_EQ(series_json(read_series_json(text, "changes.json")), text) << "the runner reads back";

  // Too few runs of the baseline's code on it: against the baseline, at the other machine's tolerance.
  const Analysed without = runner_drift(kMinRunnerHistoryRuns - 1);
  ASSERT_TRUE(without.exported.series[0].drift);
  EXPECT_EQ(without.exported.series[0].drift->runner, "");
  EXPECT_EQ(without.exported.series[0].drift->tolerance_pct, 4.0);
  EXPECT_FALSE(without.exported.series[0].drift->beyond_tolerance);
}

TEST(HistoryChanges, WithoutABaselineNoDriftIsJudged) {
  const Analysed a = analyse(two_series(), std::nullopt);
  EXPECT_EQ(a.exported.series[0].change_points.size(), 1u);
  EXPECT_FALSE(a.exported.series[0].drift);
  EXPECT_FALSE(a.exported.series[1].drift);
  EXPECT_EQ(a.report.series[0].judgement, DriftJudgement::kNoBaseline);
}

TEST(HistoryChanges, TooShortASeriesHasNoChangePoint) {
  std::vector<double> values;
  append(values, 4, 100.0);
  append(values, 4, 120.0);
  const Analysed a = analyse({series_of(values)}, std::nullopt);  // 8 points < 2 x 5
  EXPECT_TRUE(a.exported.series[0].change_points.empty());
  EXPECT_EQ(changes_console(a.report), "no change point and no drift in 1 series\n");
}

TEST(HistoryChanges, ReportsSayWhatMovedAndHowToBisectIt) {
  const Analysed a = analyse(two_series(), baseline_of_both());
  gate::testing::expect_golden("history_changes.txt", changes_console(a.report));
  gate::testing::expect_golden("history_changes.md", changes_markdown(a.report));
}

// The drift line said "though every run passed" over runs judged SLOW: it says what they were judged.
TEST(HistoryChanges, TheDriftLineSaysWhatTheRunsWereJudged) {
  const Analysed a = analyse(two_series(), baseline_of_both());
  const std::string console = changes_console(a.report);
  const std::string markdown = changes_markdown(a.report);
  EXPECT_TRUE(contains(console, "the 32 runs judged against it: 24 SAME, 8 SLOW")) << console;
  EXPECT_TRUE(contains(markdown, "the 32 runs judged against it: 24 SAME, 8 SLOW")) << markdown;
  for (const std::string& text : {console, markdown}) {
    EXPECT_FALSE(contains(text, "passed")) << "no run is said to have passed where it did not:\n" << text;
  }
}

// A benchmark of one name in two units (a counter that changed from time to cycles) is judged only
// against an entry of its own unit: a series in us against an entry in cycles was "DRIFT -99.9%".
TEST(HistoryChanges, ASeriesIsJudgedOnlyAgainstABaselineEntryOfItsUnit) {
  Baseline baseline = baseline_of_both();
  baseline.benchmarks[kStepped].unit = "cycles";
  baseline.benchmarks[kStepped].median = 0.1;
  baseline.benchmarks[kStepped].process_medians = {0.1};
  const Analysed a = analyse(two_series(), baseline);
  EXPECT_FALSE(a.exported.series[0].drift) << "not judged";
  EXPECT_EQ(a.report.series[0].judgement, DriftJudgement::kOtherUnit);
  EXPECT_EQ(a.report.series[0].baseline_unit, "cycles");
  EXPECT_TRUE(a.exported.series[1].drift) << "the other series is";
  const std::string console = changes_console(a.report);
  EXPECT_FALSE(contains(console, "DRIFT")) << console;
  EXPECT_TRUE(contains(console, std::string("UNIT    ") + kStepped + "  in us, its baseline entry in cycles: drift not judged"))
      << console;
  EXPECT_TRUE(contains(changes_markdown(a.report), "drift not judged: in us, its baseline entry in cycles"));
}

// The baseline file given was re-recorded after the runs: its value is not the one they were judged
// against, and its date not theirs. No drift is judged, and the report says against which baseline the
// runs were judged.
TEST(HistoryChanges, ABaselineTheRunsWereNotJudgedAgainstJudgesNoDrift) {
  Baseline rerecorded = baseline_of_both();
  rerecorded.recorded.date = "2026-12-01T00:00:00Z";
  rerecorded.benchmarks[kStepped].median = 105.0;
  const Analysed a = analyse(two_series(), rerecorded);
  EXPECT_FALSE(a.exported.series[0].drift);
  EXPECT_FALSE(a.exported.series[1].drift);
  EXPECT_EQ(a.report.series[0].judgement, DriftJudgement::kOtherBaseline);
  EXPECT_EQ(a.report.series[0].latest_baseline, kRecorded);
  const std::string console = changes_console(a.report);
  EXPECT_FALSE(contains(console, "DRIFT")) << console;
  EXPECT_TRUE(contains(console, "drift not judged in 2 series: the latest run was judged against the baseline "
                                "recorded 2026-11-01T00:00:00Z, not the baseline given (recorded "
                                "2026-12-01T00:00:00Z)"))
      << console;
  EXPECT_EQ(a.exported.series[0].change_points.size(), 1u) << "change points do not depend on the baseline";

  // Once a run is judged against the new file, the drift is judged over the runs judged against it.
  std::vector<Series> series = two_series();
  for (Series& s : series) s.points.back().baseline_recorded = rerecorded.recorded.date;
  const Analysed later = analyse(series, rerecorded);
  ASSERT_TRUE(later.exported.series[0].drift);
  EXPECT_EQ(later.exported.series[0].drift->since, rerecorded.recorded.date);
  EXPECT_NEAR(later.exported.series[0].drift->change_pct, 0.0, 0.5) << "against the new file's value";
  EXPECT_EQ(later.report.series[0].drift_runs, 1u);
}

// The previous analysis' export, written as perf_gate history-changes writes it.
class PreviousAnalysis : public gate::testing::ScratchFolderTest {
 protected:
  std::string write_export(const Analysed& a, const std::string& name) {
    formats::write_file_atomically(path(name), series_json(a.exported));
    return path(name);
  }
};

// At every push the report listed every change point ever found again. Now what the previous analysis
// reported is counted, not listed: a change point of the same direction whose range overlaps, a drift
// beyond its tolerance against the same baseline.
TEST_F(PreviousAnalysis, OnlyWhatIsNewSinceThePreviousAnalysisIsListed) {
  const std::string previous = write_export(analyse(two_series(), baseline_of_both()), "previous.json");
  // 20 runs later the flat benchmark stepped down 4%; the step of the first is still there.
  std::vector<Series> series = two_series(32);
  for (std::size_t i = 40; i < series[1].points.size(); ++i) {
    series[1].points[i].value *= 0.96;
    series[1].points[i].process_medians = {series[1].points[i].value};
  }
  const Analysed a = analyse(series, baseline_of_both(), read_previous_changes(previous, kGpu));
  ASSERT_EQ(a.report.previous.state, PreviousChanges::State::kRead) << a.report.previous.why_unreadable;
  ASSERT_EQ(a.report.series[0].change_points.size(), 1u);
  EXPECT_FALSE(a.report.series[0].change_point_is_new[0]);
  EXPECT_FALSE(a.report.series[0].drift_is_new);
  ASSERT_EQ(a.report.series[1].change_points.size(), 1u);
  EXPECT_TRUE(a.report.series[1].change_point_is_new[0]);
  EXPECT_TRUE(a.report.series[1].drift_is_new) << "newly beyond its tolerance";
  EXPECT_EQ(a.exported.series[0].change_points.size(), 1u) << "the export keeps every change point";
  std::string console = changes_console(a.report);
  std::string markdown = changes_markdown(a.report);
  // The golden files name the previous file by a fixed name.
  for (std::string* text : {&console, &markdown}) {
    for (std::size_t at = text->find(previous); at != std::string::npos; at = text->find(previous)) {
      text->replace(at, previous.size(), "previous.json");
    }
  }
  gate::testing::expect_golden("history_changes_previous.txt", console);
  gate::testing::expect_golden("history_changes_previous.md", markdown);

  // Nothing moved since: nothing listed, and said so.
  const std::string same = write_export(a, "same.json");
  const Analysed again = analyse(series, baseline_of_both(), read_previous_changes(same, kGpu));
  EXPECT_EQ(changes_console(again.report),
            "known from the previous analysis (" + same +
                "), not listed again: 2 change points, 2 drifts beyond the tolerance (every one is in the --json "
                "export)\nnothing new since the previous analysis in 2 series\n");
  EXPECT_TRUE(contains(changes_markdown(again.report), "Nothing new since the previous analysis in 2 series."));
}

// A fresh step's range runs to the last run (change_points.h); a few runs later it is the step's two
// commits. It is the same change point: not listed again.
TEST_F(PreviousAnalysis, AFreshStepWhoseRangeNarrowedIsNotNew) {
  std::vector<double> levels;
  append(levels, 60, 100.0);
  append(levels, 12, 104.0);
  const Series whole = series_of(SeriesMaker(31).values(levels, 0.002));
  Series fresh = whole;
  fresh.points.resize(63);  // the step at 60, analysed after run 62
  const Analysed first = analyse({fresh}, std::nullopt);
  ASSERT_EQ(first.exported.series[0].change_points.size(), 1u);
  EXPECT_EQ(first.exported.series[0].change_points[0].bad_commit, "c62") << "to the last run";
  const std::string previous = write_export(first, "previous.json");
  const Analysed later = analyse({whole}, std::nullopt, read_previous_changes(previous, "nvidia-h100-80gb-hbm3"));
  ASSERT_EQ(later.report.series[0].change_points.size(), 1u);
  EXPECT_EQ(later.report.series[0].change_points[0].bad_commit, "c60");
  EXPECT_FALSE(later.report.series[0].change_point_is_new[0]);
}

// --previous remembered the last analysis only: a change point found, lost at the next push and found
// again was listed as new again. What was reported is carried in the export, with when it was first
// reported, until kForgetChangePointAfter analyses have not found it.
TEST_F(PreviousAnalysis, AChangePointLostForAnAnalysisAndFoundAgainIsNotNew) {
  std::vector<double> levels;
  append(levels, 40, 100.0);
  append(levels, 20, 104.0);
  Series series = series_of(SeriesMaker(41).values(levels, 0.002));
  for (std::size_t i = 0; i < series.points.size(); ++i) series.points[i].date = "2026-11-" + std::to_string(10 + i / 10) + "T00:00:00Z";
  const Analysed first = analyse({series}, std::nullopt);
  ASSERT_EQ(first.exported.series[0].change_points.size(), 1u);
  ASSERT_TRUE(first.exported.series[0].reported);
  ASSERT_EQ(first.exported.series[0].reported->change_points.size(), 1u);
  EXPECT_EQ(first.exported.series[0].reported->change_points[0].first_reported, series.points.back().date);
  // The next analysis does not find it (flat values stand in for a p-value just above alpha)...
  Series flat = series_of(SeriesMaker(42).values(std::vector<double>(60, 100.0), 0.002));
  for (std::size_t i = 0; i < flat.points.size(); ++i) flat.points[i].date = series.points[i].date;
  const Analysed lost = analyse({flat}, std::nullopt, read_previous_changes(write_export(first, "first.json"), kGpu));
  EXPECT_TRUE(lost.exported.series[0].change_points.empty());
  ASSERT_EQ(lost.exported.series[0].reported->change_points.size(), 1u) << "still remembered";
  EXPECT_EQ(lost.exported.series[0].reported->change_points[0].unseen, 1);
  EXPECT_EQ(series_json(read_series_json(series_json(lost.exported), "lost.json")), series_json(lost.exported));
  // ... the one after finds it again: not new, first reported at the first analysis.
  series.points.push_back(series.points.back());
  series.points.back().commit = "c60";
  series.points.back().date = "2026-11-20T00:00:00Z";
  const Analysed again = analyse({series}, std::nullopt, read_previous_changes(write_export(lost, "lost.json"), kGpu));
  ASSERT_EQ(again.report.series[0].change_points.size(), 1u);
  EXPECT_FALSE(again.report.series[0].change_point_is_new[0]);
  EXPECT_EQ(again.exported.series[0].reported->change_points[0].first_reported, first.exported.series[0].reported->change_points[0].first_reported);
  EXPECT_EQ(again.exported.series[0].reported->change_points[0].unseen, 0);

  // Not found for kForgetChangePointAfter analyses: forgotten.
  PreviousSeries remembered{*lost.exported.series[0].reported};
  for (int a = 1; a < kForgetChangePointAfter; ++a) {
    remembered.reported.change_points = carry_change_points(flat, {}, &remembered, "now").reported;
  }
  EXPECT_TRUE(remembered.reported.change_points.empty());
}

// A drift near its tolerance went in and out of it as runs moved the latest level, and was listed again
// each time it went out. Once reported it stays known while it is beyond kDriftHysteresis x the tolerance,
// and until kForgetDriftAfter analyses in a row found it clearly inside.
TEST(HistoryChangesPrevious, ADriftNearItsToleranceIsListedOnce) {
  const auto drift = [](double change_pct, const std::string& since = kRecorded) {
    ExportedDrift d;
    d.since = since;
    d.change_pct = change_pct;
    d.tolerance_pct = 3.0;
    d.beyond_tolerance = std::fabs(change_pct) > d.tolerance_pct;
    return std::optional<ExportedDrift>(d);
  };
  CarriedDrift carried = carry_drift(drift(3.2), nullptr, "t0");
  EXPECT_TRUE(carried.is_new);
  PreviousSeries previous;
  previous.reported.drift = carried.reported;
  for (const double change : {2.9, 3.1, 2.4, 3.3}) {  // in and out, never clearly inside
    carried = carry_drift(drift(change), &previous, "t1");
    EXPECT_FALSE(carried.is_new) << change;
    ASSERT_TRUE(carried.reported) << change;
    EXPECT_EQ(carried.reported->first_reported, "t0");
    EXPECT_EQ(carried.reported->inside, 0);
    previous.reported.drift = carried.reported;
  }
  // Clearly inside once, then out: still known.
  carried = carry_drift(drift(1.0), &previous, "t2");
  ASSERT_TRUE(carried.reported);
  EXPECT_EQ(carried.reported->inside, 1);
  previous.reported.drift = carried.reported;
  EXPECT_FALSE(carry_drift(drift(3.4), &previous, "t3").is_new);
  // The other direction, or another baseline, is another drift.
  EXPECT_TRUE(carry_drift(drift(-3.4), &previous, "t3").is_new);
  EXPECT_TRUE(carry_drift(drift(3.4, "2026-12-01T00:00:00Z"), &previous, "t3").is_new);
  // Clearly inside (or not judged) kForgetDriftAfter analyses in a row: forgotten, and new when out again.
  for (int a = 1; a < kForgetDriftAfter; ++a) {
    previous.reported.drift = carry_drift(a % 2 == 0 ? std::nullopt : drift(0.5), &previous, "t4").reported;
  }
  EXPECT_FALSE(previous.reported.drift);
  EXPECT_TRUE(carry_drift(drift(3.4), &previous, "t5").is_new);
}

// A previous file that is missing, damaged or of another GPU is no error: everything is listed, and the
// report says why.
TEST_F(PreviousAnalysis, AMissingOrUnreadablePreviousListsEverythingAndSaysWhy) {
  const Analysed full = analyse(two_series(), baseline_of_both());
  const std::string other_gpu = path("other.json");
  {
    Analysed other = full;
    other.exported.gpu_slug = "nvidia-h200";
    write_export(other, "other.json");
  }
  const std::string damaged = path("damaged.json");
  formats::write_file_atomically(damaged, series_json(full.exported).substr(0, 500));
  for (const auto& [file, why] : std::vector<std::pair<std::string, std::string>>{
           {path("absent.json"), "cannot open"}, {other_gpu, "gpu_slug is nvidia-h200, expected " + std::string(kGpu)},
           {damaged, "not valid JSON"}}) {
    const PreviousChanges previous = read_previous_changes(file, kGpu);
    EXPECT_EQ(previous.state, PreviousChanges::State::kUnreadable) << file;
    EXPECT_TRUE(contains(previous.why_unreadable, why)) << previous.why_unreadable;
    const Analysed a = analyse(two_series(), baseline_of_both(), previous);
    const std::string console = changes_console(a.report);
    EXPECT_EQ(console, changes_console(full.report) + "the previous analysis could not be read (" +
                           formats::escape_console(previous.why_unreadable) +
                           "): every change point and drift is listed as new\n");
  }
}

// Thousands of new change points (the first analysis of a long history) never make a job summary larger
// than GitHub takes (1 MiB): the table stops at kMaxMarkdownRows rows, the rest is counted.
TEST(HistoryChanges, TheMarkdownReportIsCapped) {
  std::vector<Series> many;
  for (int b = 0; b < 300; ++b) {
    std::vector<double> levels;
    append(levels, 15, 100.0);
    append(levels, 15, 110.0);
    Series s = series_of(SeriesMaker(100 + static_cast<std::uint64_t>(b)).values(levels, 0.002));
    s.benchmark = "family/variant_" + std::to_string(b) + std::string(120, 'x') + "/n:1";
    many.push_back(s);
  }
  const Analysed a = analyse(many, std::nullopt);
  const std::string markdown = changes_markdown(a.report);
  std::size_t rows = 0;
  for (std::size_t at = markdown.find("| change point |"); at != std::string::npos;
       at = markdown.find("| change point |", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, kMaxMarkdownRows);
  EXPECT_TRUE(contains(markdown, "and " + std::to_string(300 - kMaxMarkdownRows) + " more, in the --json export."))
      << markdown.substr(markdown.size() - 300);
  EXPECT_LT(markdown.size(), 64u * 1024u);
}

}  // namespace
}  // namespace gpuperf::gate::history
