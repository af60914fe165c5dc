#include "gate/analysis/calibration_report.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "formats/escape.h"

namespace gpuperf::gate::analysis {
namespace {

// A slowdown as the script was given it: "10", "1.5".
std::string slowdown_text(double pct) {
  std::ostringstream text;
  text << std::setprecision(15) << pct;
  return text.str();
}

std::string joined(const std::set<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

void write_heading(const CalibrationSettings& s, const std::string& mode, std::ostream& md) {
  if (mode == kStoredMode) {
    md << "### Stored baseline recorded on this GPU (" << s.processes << " processes of " << s.repetitions
       << " samples, up to " << s.max_remeasure << " re-measurements)\n\n"
       << "In brackets where it differs: caught at the first measurement, before re-measuring.\n\n";
  } else {
    md << "### A/B, " << s.ab_rounds << " interleaved rounds of " << s.ab_repetitions << " samples per build (+"
       << s.ab_rounds << " per re-measurement, up to " << s.ab_max_remeasure << ")\n\n"
       << "In brackets where it differs: caught after the first " << s.ab_rounds << " rounds, before re-measuring.\n\n";
  }
}

std::string cell_text(const CalibrationCell& cell) {
  std::string text = std::to_string(cell.slow) + "/" + std::to_string(cell.trials);
  if (cell.slow_at_first != cell.slow) text += " (" + std::to_string(cell.slow_at_first) + ")";
  if (cell.ambiguous > 0) text += ", " + std::to_string(cell.ambiguous) + " amb.";
  return text;
}

void write_mode_table(const CalibrationReport& report, const std::string& mode, std::ostream& md) {
  std::set<double> slowdowns;
  std::map<std::string, std::vector<CalibrationCell>> rows;  // by benchmark
  int false_alarms = 0;
  int clean_trials = 0;
  for (const CalibrationCell& cell : report.cells) {
    if (cell.mode != mode) continue;
    slowdowns.insert(cell.slowdown_pct);
    rows[cell.benchmark].push_back(cell);
    if (cell.slowdown_pct == 0.0) {
      false_alarms += cell.slow;
      clean_trials += cell.trials;
    }
  }
  md << "| benchmark | tolerance |";
  for (const double pct : slowdowns) md << " +" << slowdown_text(pct) << "% |";
  md << " smallest caught in >= 95% |\n|---|---|";
  for (std::size_t i = 0; i < slowdowns.size(); ++i) md << "---|";
  md << "---|\n";
  for (const auto& [benchmark, cells] : rows) {
    std::set<std::string> tolerances;
    for (const CalibrationCell& cell : cells) tolerances.insert(cell.tolerances.begin(), cell.tolerances.end());
    md << "| " << formats::escape_markdown_text(benchmark) << " | " << formats::escape_markdown_text(joined(tolerances))
       << " |";
    for (const double pct : slowdowns) {
      std::string text;
      for (const CalibrationCell& cell : cells) {
        if (cell.slowdown_pct == pct) text = cell_text(cell);
      }
      md << " " << text << " |";
    }
    bool planted = false;
    for (const CalibrationCell& cell : cells) planted = planted || cell.slowdown_pct > 0.0;
    const std::optional<double> smallest = smallest_reliably_caught_pct(cells);
    md << " " << (smallest ? "+" + slowdown_text(*smallest) + "%" : planted ? "none" : "none tested") << " |\n";
  }
  md << "\n";
  if (clean_trials == 0) {
    md << "False alarms on clean runs: no clean run (+0%) was judged.\n";
  } else {
    md << "False alarms on clean runs: " << false_alarms << " of " << clean_trials << " verdicts.\n";
  }
}

nlohmann::ordered_json slowdown_json(double pct) {
  if (pct == std::floor(pct) && std::fabs(pct) < 1e15) return static_cast<long long>(pct);
  return pct;
}

}  // namespace

std::string calibration_markdown(const CalibrationReport& report) {
  std::ostringstream md;
  md << "## Gate calibration on " << formats::escape_markdown_text(report.settings.gpu_name) << "\n\n"
     << "Caught (SLOW) / trials, " << report.settings.trials_per_cell
     << " trials per cell; at +0% every SLOW is a false alarm.\n";
  for (const std::string& mode : report.modes) {
    md << "\n";
    write_heading(report.settings, mode, md);
    write_mode_table(report, mode, md);
  }
  return md.str();
}

std::string calibration_json(const CalibrationReport& report) {
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const CalibrationCell& cell : report.cells) {
    nlohmann::ordered_json verdicts = nlohmann::ordered_json::object();
    for (const auto& [verdict, count] : cell.verdicts) verdicts[verdict] = count;
    cells.push_back({{"mode", cell.mode},
                     {"name", cell.benchmark},
                     {"pct", slowdown_json(cell.slowdown_pct)},
                     {"trials", cell.trials},
                     {"slow", cell.slow},
                     {"slow_at_first", cell.slow_at_first},
                     {"ambiguous", cell.ambiguous},
                     {"verdicts", verdicts},
                     {"tolerance", joined({cell.tolerances.begin(), cell.tolerances.end()})}});
  }
  const nlohmann::ordered_json doc = {{"gpu", report.settings.gpu_name},
                                      {"trials_per_cell", report.settings.trials_per_cell},
                                      {"ab_rounds", report.settings.ab_rounds},
                                      {"cells", cells}};
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpuperf::gate::analysis
