#include "gate/history/changes_report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/escape.h"

namespace gpuperf::gate::history {
namespace {

using Escape = std::string (*)(std::string_view);

std::string percent(double pct) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", pct);
  return text;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

std::string plural(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// The command that finds the commit: scripts/bisect.sh between the range's two ends.
std::string bisect_command(const std::string& good, const std::string& bad, const std::string& benchmark) {
  return "scripts/bisect.sh --good " + formats::escape_console(good) + " --bad " + formats::escape_console(bad) +
         " --benchmark '" + formats::escape_console(benchmark) + "'";
}

// "the 32 runs judged against it: 20 SAME, 12 SLOW": what the runs of a drift's span were judged, the
// most frequent verdict first. The runs' verdicts, not an assumption: a drift is found over runs that
// passed as well as over runs judged SLOW.
std::string verdicts(const SeriesChanges& series, Escape escape) {
  std::vector<std::pair<std::string, std::size_t>> counts(series.drift_verdicts.begin(), series.drift_verdicts.end());
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text = "the " + plural(series.drift_runs, "run", "runs") + " judged against it: ";
  for (std::size_t i = 0; i < counts.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(counts[i].second) + " " +
            (counts[i].first.empty() ? std::string("without a verdict") : escape(counts[i].first));
  }
  return text;
}

std::string baseline_name(const std::string& recorded, Escape escape) {
  return recorded.empty() ? std::string("no baseline") : "the baseline recorded " + escape(recorded);
}

// The most baselines other than the one given that the reports name, each in a sentence of its own.
constexpr std::size_t kMaxBaselineSentences = 3;

// "Known ...": the sentence as its first word in capitals (they all start in ASCII).
std::string capitalised(std::string sentence) {
  if (!sentence.empty()) sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
  return sentence;
}

// What the reports count over all series.
struct Tally {
  std::size_t series = 0;
  // New change points and drifts beyond tolerance, by direction: values grown (slower) or fallen (faster).
  std::size_t slower_change_points = 0;
  std::size_t slower_drifts = 0;
  std::size_t faster_change_points = 0;
  std::size_t faster_drifts = 0;
  std::size_t known_change_points = 0;
  std::size_t known_drifts = 0;
  std::size_t other_unit = 0;
  std::map<std::string, std::size_t> other_baselines;  // the baseline the latest run was judged against: series
  std::size_t slower() const { return slower_change_points + slower_drifts; }
  std::size_t faster() const { return faster_change_points + faster_drifts; }
  std::size_t listed() const { return slower() + faster(); }
  std::size_t known() const { return known_change_points + known_drifts; }
};

Tally tally(const ChangesReport& report) {
  Tally t;
  t.series = report.series.size();
  for (const SeriesChanges& s : report.series) {
    for (std::size_t c = 0; c < s.change_points.size(); ++c) {
      if (!s.change_point_is_new[c]) {
        ++t.known_change_points;
      } else {
        ++(s.change_points[c].change_pct > 0.0 ? t.slower_change_points : t.faster_change_points);
      }
    }
    if (s.drift && s.drift->beyond_tolerance) {
      if (!s.drift_is_new) {
        ++t.known_drifts;
      } else {
        ++(s.drift->change_pct > 0.0 ? t.slower_drifts : t.faster_drifts);
      }
    }
    t.other_unit += s.judgement == DriftJudgement::kOtherUnit ? 1 : 0;
    if (s.judgement == DriftJudgement::kOtherBaseline) ++t.other_baselines[s.latest_baseline];
  }
  return t;
}

// The sentences after the list: the baselines that could not judge, and the previous analysis.
std::vector<std::string> closing_sentences(const ChangesReport& report, const Tally& t, Escape escape) {
  std::vector<std::string> sentences;
  std::size_t told = 0;
  std::size_t untold_series = 0;
  for (const auto& [latest, count] : t.other_baselines) {
    if (++told > kMaxBaselineSentences) {
      untold_series += count;
      continue;
    }
    sentences.push_back("drift not judged in " + plural(count, "series", "series") + ": the latest run was judged against " +
                        baseline_name(latest, escape) + ", not the baseline given (recorded " +
                        escape(report.baseline_recorded) +
                        ") - give the baseline file those runs were judged against, or wait for a run judged "
                        "against this one");
  }
  if (untold_series > 0) {
    sentences.push_back("drift not judged in " + plural(untold_series, "more series", "more series") + ", judged against " +
                        plural(told - kMaxBaselineSentences, "other baseline", "other baselines"));
  }
  const PreviousChanges& previous = report.previous;
  if (previous.state == PreviousChanges::State::kUnreadable) {
    sentences.push_back("the previous analysis could not be read (" + escape(previous.why_unreadable) +
                        "): every change point and drift is listed as new");
  } else if (previous.state == PreviousChanges::State::kRead && t.known() > 0) {
    sentences.push_back("known from the previous analysis (" + escape(previous.source) + "), not listed again: " +
                        plural(t.known_change_points, "change point", "change points") + ", " +
                        plural(t.known_drifts, "drift", "drifts") + " beyond the tolerance (every one is in the --json export)");
  }
  return sentences;
}

// "1 change point, 2 drifts beyond the tolerance" (the parts that are not 0).
std::string moves(std::size_t change_points, std::size_t drifts) {
  std::string text = change_points > 0 ? plural(change_points, "change point", "change points") : "";
  if (drifts > 0) text += (text.empty() ? "" : ", ") + plural(drifts, "drift", "drifts") + " beyond the tolerance";
  return text;
}

std::string nothing_moved(const ChangesReport& report, const Tally& t) {
  if (report.previous.state == PreviousChanges::State::kRead && t.known() > 0) {
    return "nothing new since the previous analysis in " + plural(t.series, "series", "series");
  }
  return "no change point and no drift in " + plural(t.series, "series", "series");
}

// " on runner GPU-... (its own level of the baseline's code: runner offset -3.5% from 12 runs)" where the
// drift was judged against the runner's own level (drift.h, RunnerReference); "" where against the baseline.
std::string runner_words(const ExportedDrift& drift, const Escape& escape) {
  if (drift.runner.empty()) return "";
  return " on runner " + escape(drift.runner) + " (its own level of the baseline's code: runner offset " +
         percent(drift.runner_offset_pct) + " from " + std::to_string(drift.runner_runs) + " runs)";
}

}  // namespace


std::string changes_console(const ChangesReport& report) {
  std::ostringstream text;
  const Tally t = tally(report);
  const Escape escape = formats::escape_console;
  for (const SeriesChanges& s : report.series) {
    const std::string name = escape(s.benchmark);
    const std::string unit = escape(s.unit);
    for (std::size_t c = 0; c < s.change_points.size(); ++c) {
      if (!s.change_point_is_new[c]) continue;
      const ExportedChangePoint& change = s.change_points[c];
      text << "CHANGE  " << name << "  " << percent(change.change_pct) << " (" << number(change.before) << " -> "
           << number(change.after) << " " << unit << ", p=" << number(change.p_value) << ") between "
           << escape(change.good_commit) << " and " << escape(change.bad_commit) << "  -> "
           << bisect_command(change.good_commit, change.bad_commit, s.benchmark) << "\n";
    }
    if (s.drift && s.drift->beyond_tolerance && s.drift_is_new) {
      const ExportedDrift& drift = *s.drift;
      text << "DRIFT   " << name << "  " << percent(drift.change_pct) << " from the baseline recorded "
           << escape(drift.since) << runner_words(drift, escape) << " (" << number(drift.baseline_value) << " -> "
           << number(drift.latest_value)
           << " " << unit << ", tolerance " << number(drift.tolerance_pct) << "%; " << verdicts(s, escape)
           << "), built up between " << escape(drift.good_commit) << " and " << escape(drift.bad_commit) << "  -> "
           << bisect_command(drift.good_commit, drift.bad_commit, s.benchmark) << "\n";
    }
    if (s.judgement == DriftJudgement::kOtherUnit) {
      text << "UNIT    " << name << "  in " << unit << ", its baseline entry in " << escape(s.baseline_unit)
           << ": drift not judged - record the baseline again, or check which unit the benchmark reports\n";
    }
  }
  for (const std::string& sentence : closing_sentences(report, t, escape)) text << sentence << "\n";
  if (t.listed() == 0 && t.other_unit == 0) text << nothing_moved(report, t) << "\n";
  return text.str();
}

std::string changes_markdown(const ChangesReport& report) {
  const Tally t = tally(report);
  const Escape escape = formats::escape_markdown_text;
  const auto code = [](std::string_view text) { return formats::markdown_code_span(text); };
  std::ostringstream md;
  md << "### History of " << code(report.gpu_slug) << "\n\n";
  std::vector<std::string> rows;
  for (const SeriesChanges& s : report.series) {
    const std::string name = code(s.benchmark);
    for (std::size_t c = 0; c < s.change_points.size(); ++c) {
      if (!s.change_point_is_new[c]) continue;
      const ExportedChangePoint& change = s.change_points[c];
      rows.push_back("| change point | " + name + " | " + percent(change.change_pct) + " | " + code(change.good_commit) +
                     " .. " + code(change.bad_commit) + " | " +
                     code(bisect_command(change.good_commit, change.bad_commit, s.benchmark)) + " |\n");
    }
    if (s.drift && s.drift->beyond_tolerance && s.drift_is_new) {
      const ExportedDrift& drift = *s.drift;
      rows.push_back("| drift since the baseline recorded " + escape(drift.since) + runner_words(drift, escape) +
                     " (tolerance " +
                     number(drift.tolerance_pct) + "%; " + verdicts(s, escape) + ") | " + name + " | " +
                     percent(drift.change_pct) + " | " + code(drift.good_commit) + " .. " + code(drift.bad_commit) +
                     " | " + code(bisect_command(drift.good_commit, drift.bad_commit, s.benchmark)) + " |\n");
    }
    if (s.judgement == DriftJudgement::kOtherUnit) {
      rows.push_back("| drift not judged: in " + escape(s.unit) + ", its baseline entry in " + escape(s.baseline_unit) +
                     " | " + name + " | - | - | - |\n");
    }
  }
  const std::string since = report.previous.state == PreviousChanges::State::kRead ? " since the previous analysis" : "";
  if (t.slower() > 0) {
    md << "WARNING: the history moved" << since << " (a warning, not a failure): slower: "
       << moves(t.slower_change_points, t.slower_drifts)
       << (t.faster() > 0 ? "; faster: " + moves(t.faster_change_points, t.faster_drifts) : "") << ".\n\n";
  } else if (t.faster() > 0) {
    md << "The history moved" << since << ", faster only: " << moves(t.faster_change_points, t.faster_drifts)
       << ".\n\n";
  } else {
    md << capitalised(nothing_moved(report, t)) << ".\n\n";
  }
  if (!rows.empty()) {
    md << "| What | Benchmark | Change | Commits | Bisect |\n|---|---|---:|---|---|\n";
    for (std::size_t r = 0; r < rows.size() && r < kMaxMarkdownRows; ++r) md << rows[r];
    if (rows.size() > kMaxMarkdownRows) md << "\nand " << rows.size() - kMaxMarkdownRows << " more, in the --json export.\n";
    md << "\n";
  }
  for (const std::string& sentence : closing_sentences(report, t, escape)) md << capitalised(sentence) << ".\n\n";
  std::string text = md.str();
  text.pop_back();  // one newline at the end
  return text;
}

}  // namespace gpuperf::gate::history
