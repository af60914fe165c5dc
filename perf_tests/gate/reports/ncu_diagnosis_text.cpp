#include "gate/reports/ncu_diagnosis_text.h"

#include <cmath>
#include <cstdio>

namespace gpuperf::gate {
namespace {

std::string_view ncu_side_where(NcuSide side) {
  switch (side) {
    case NcuSide::kBuildA: return " in build A";
    case NcuSide::kBuildB: return " in build B";
    case NcuSide::kNow: break;
  }
  return "";
}

// The duration row's change, "duration +15.6%"; "" where the table has no duration on both sides.
std::string ncu_duration_change_text(const std::vector<MetricDiff>& rows) {
  for (const MetricDiff& row : rows) {
    if (row.label != "duration" || !(row.before > 0.0) || std::isnan(row.after)) continue;
    char text[64];
    std::snprintf(text, sizeof text, "duration %+.1f%%", (row.after / row.before - 1.0) * 100.0);
    return text;
  }
  return "";
}

// Each entry's skip line, a line equal to the one before it left out (one cause, said once).
template <typename Write>
void for_each_ncu_line(const std::vector<NcuDiagnosis>& entries, Write write) {
  std::string previous;
  for (const NcuDiagnosis& entry : entries) {
    const std::string skip = ncu_skip_text(entry);
    if (!skip.empty() && skip == previous) continue;
    previous = skip;
    write(entry, skip);
  }
}

}  // namespace

std::string ncu_diff_markdown(const std::string& title, const std::vector<MetricDiff>& rows,
                              std::string_view before_label, std::string_view after_label) {
  return (title.empty() ? "" : "#### " + title + "\n\n") + markdown_diff_table(rows, before_label, after_label);
}

std::string_view ncu_before_label(NcuPair pair) { return pair == NcuPair::kBuildAB ? "build A" : "baseline"; }
std::string_view ncu_after_label(NcuPair pair) { return pair == NcuPair::kBuildAB ? "build B" : "now"; }

std::string ncu_skip_text(const NcuDiagnosis& entry) {
  if (!entry.skipped) return "";
  const NcuSkipped& why = *entry.skipped;
  const std::string name = entry.benchmark;
  const std::string where(ncu_side_where(why.side));
  switch (why.reason) {
    case NcuSkip::kNcuNotFound:
      return "ncu not found (no program " + why.path +
             ": install Nsight Compute and put ncu on PATH, or set NCU to its path)";
    case NcuSkip::kProfileScriptMissing:
      return "ncu_profile.sh is not installed beside this perf_gate (looked for " + why.path +
             "): reinstall the package";
    case NcuSkip::kNoStoredProfiles:
      return "no Nsight Compute profiles stored beside the baseline (" + why.path +
             "): record them with scripts/record_ncu.sh";
    case NcuSkip::kNoStoredProfile:
      return "no profile of " + name + " in " + why.path + ": record it with scripts/record_ncu.sh --filter '" +
             why.detail + "'";
    case NcuSkip::kNoFingerprint:
      return "ncu could not profile " + name + where + ": no fingerprint of " + name + " in " + why.path +
             (why.detail.empty() ? "" : " (" + why.detail + ")");
    case NcuSkip::kNoGpuNamed:
      return "no GPU named in " + why.path + ": " + why.detail;
    case NcuSkip::kNotProfiled:
      return "ncu could not profile " + name + where + ": " + (why.detail.empty() ? "see " + why.path : why.detail);
    case NcuSkip::kNoDiagnosis:
      return "no diagnosis of " + name + ": " + why.detail;
  }
  return "";
}

std::string ncu_diagnosis_markdown(const std::vector<NcuDiagnosis>& entries) {
  std::string markdown;
  for_each_ncu_line(entries, [&](const NcuDiagnosis& entry, const std::string& skip) {
    if (!skip.empty()) {
      markdown += "\nNcu diagnosis skipped: " + skip + ".\n";
    } else {
      markdown += "\n" + ncu_diff_markdown("Nsight Compute: " + entry.benchmark, entry.rows,
                                           ncu_before_label(entry.pair), ncu_after_label(entry.pair));
    }
  });
  return markdown;
}

void write_ncu_diagnosis_console(const std::vector<NcuDiagnosis>& entries, std::ostream& out) {
  for_each_ncu_line(entries, [&](const NcuDiagnosis& entry, const std::string& skip) {
    if (!skip.empty()) {
      out << "ncu diagnosis skipped: " << skip << "\n";
      return;
    }
    const std::string change = ncu_duration_change_text(entry.rows);
    out << "ncu diagnosis of " << entry.benchmark << ": " << (change.empty() ? "" : change + " ") << "("
        << ncu_before_label(entry.pair) << " -> " << ncu_after_label(entry.pair) << ")"
        << (entry.profiles_path.empty() ? "" : "; profiles: " + entry.profiles_path) << "\n";
  });
}

}  // namespace gpuperf::gate
