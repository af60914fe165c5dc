#include "gate/analysis/calibration.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <tuple>

#include "formats/escape.h"
#include "formats/input_error.h"
#include "formats/names.h"
#include "gate/judging/verdict.h"

namespace gpuperf::gate::analysis {
namespace {

constexpr std::size_t kTrialFields = 6;
constexpr const char* kVerdictsHint = "write it with scripts/calibrate.sh";

bool is_verdict_name(const std::string& text) {
  for (const Verdict verdict : {Verdict::kError, Verdict::kSlow, Verdict::kMissing, Verdict::kNotJudged,
                                Verdict::kAmbiguous, Verdict::kFast, Verdict::kNew, Verdict::kSame,
                                Verdict::kUnchanged}) {
    if (text == verdict_name(verdict)) return true;
  }
  return false;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t from = 0;
  for (std::size_t tab = line.find('\t'); tab != std::string::npos; tab = line.find('\t', from)) {
    fields.push_back(line.substr(from, tab - from));
    from = tab + 1;
  }
  fields.push_back(line.substr(from));
  return fields;
}

}  // namespace

std::vector<CalibrationTrial> parse_calibration_trials(const std::string& text, const std::string& source) {
  std::vector<CalibrationTrial> trials;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.empty()) continue;
    const std::string where = source + ":" + std::to_string(number) + ": ";
    const std::vector<std::string> fields = split_tabs(line);
    if (fields.size() != kTrialFields) {
      throw formats::InputError(where + std::to_string(fields.size()) + " tab-separated fields, expected " +
                       std::to_string(kTrialFields) +
                       " (mode, slowdown %, benchmark, first verdict, final verdict, tolerance) - " + kVerdictsHint);
    }
    CalibrationTrial trial{fields[0], 0.0, fields[2], fields[3], fields[4], fields[5]};
    if (trial.mode != kStoredMode && trial.mode != kAbMode) {
      throw formats::InputError(where + "mode '" + formats::escape_console(trial.mode) + "' is neither " + kStoredMode +
                       " nor " + kAbMode + " - " + kVerdictsHint);
    }
    std::size_t used = 0;
    try {
      trial.slowdown_pct = std::stod(fields[1], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != fields[1].size() || !std::isfinite(trial.slowdown_pct) || trial.slowdown_pct < 0.0) {
      throw formats::InputError(where + "slowdown '" + formats::escape_console(fields[1]) +
                       "' is not a number >= 0 (percent) - " + kVerdictsHint);
    }
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, trial.benchmark);
        !error.empty()) {
      throw formats::InputError(where + error + " - " + kVerdictsHint);
    }
    for (const std::string* verdict : {&trial.first_verdict, &trial.final_verdict}) {
      if (!is_verdict_name(*verdict)) {
        throw formats::InputError(where + "'" + formats::escape_console(*verdict) +
                         "' is not a verdict of the gate (SLOW, SAME, AMBIGUOUS, ...) - " + kVerdictsHint);
      }
    }
    trials.push_back(std::move(trial));
  }
  if (trials.empty()) {
    throw formats::InputError(source + ": holds no trial - scripts/calibrate.sh writes one line per trial; did it judge any?");
  }
  return trials;
}

CalibrationReport build_calibration_report(const std::vector<CalibrationTrial>& trials,
                                           const CalibrationSettings& settings) {
  CalibrationReport report;
  report.settings = settings;
  using Key = std::tuple<std::string, std::string, double>;
  std::map<Key, CalibrationCell> cells;
  std::map<Key, std::set<std::string>> tolerances;
  for (const CalibrationTrial& trial : trials) {
    if (std::find(report.modes.begin(), report.modes.end(), trial.mode) == report.modes.end()) {
      report.modes.push_back(trial.mode);
    }
    const Key key{trial.mode, trial.benchmark, trial.slowdown_pct};
    CalibrationCell& cell = cells[key];
    cell.mode = trial.mode;
    cell.benchmark = trial.benchmark;
    cell.slowdown_pct = trial.slowdown_pct;
    ++cell.trials;
    const std::string slow = verdict_name(Verdict::kSlow);
    cell.slow += trial.final_verdict == slow ? 1 : 0;
    cell.slow_at_first += trial.first_verdict == slow ? 1 : 0;
    cell.ambiguous += trial.final_verdict == verdict_name(Verdict::kAmbiguous) ? 1 : 0;
    ++cell.verdicts[trial.final_verdict];
    tolerances[key].insert(trial.tolerance);
  }
  for (auto& [key, cell] : cells) {
    cell.tolerances.assign(tolerances[key].begin(), tolerances[key].end());
    report.cells.push_back(std::move(cell));
  }
  return report;
}

std::optional<double> smallest_reliably_caught_pct(const std::vector<CalibrationCell>& row) {
  std::vector<const CalibrationCell*> planted;
  for (const CalibrationCell& cell : row) {
    if (cell.slowdown_pct > 0.0) planted.push_back(&cell);
  }
  std::sort(planted.begin(), planted.end(),
            [](const CalibrationCell* a, const CalibrationCell* b) { return a->slowdown_pct > b->slowdown_pct; });
  std::optional<double> smallest;
  for (const CalibrationCell* cell : planted) {
    if (kCaughtDenominator * cell->slow < kCaughtNumerator * cell->trials) break;
    smallest = cell->slowdown_pct;
  }
  return smallest;
}

}  // namespace gpuperf::gate::analysis
