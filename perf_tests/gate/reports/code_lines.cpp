#include "gate/reports/code_lines.h"

#include "gate/judging/code_check.h"
#include "gate/judging/outcome.h"
#include "gate/reports/code_words.h"
#include "gate/reports/wording.h"

namespace gpuperf::gate {
namespace {


std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

std::string other_side(const std::string& mode) { return mode == "ab" ? "build A's" : "the baseline's"; }

}  // namespace

std::string code_line(const BenchmarkComparison& row, const std::string& mode) {
  if (!row.code) return "";
  if (row.code->comparison == CodeComparison::kChanged) return "code: " + joined(code_change_words(*row.code), "; ");
  if (row.code->comparison != CodeComparison::kSame) return "";
  const char* covered = row.code->covers_all_gpu_work ? "SASS, launches, libraries, copies and sets" : "SASS, launches, libraries";
  if (row.verdict == Verdict::kPlatform) return "code: the same as " + other_side(mode) + " (" + covered + ")";
  if (row.verdict != Verdict::kSlow && row.verdict != Verdict::kFast) return "";
  // Stored mode over kernels-only fingerprints: the copies and sets may differ, so the verdict stands as
  // the code's (judging/same_code_rule.h) and the line does not claim otherwise.
  if (mode != "ab" && !row.code->covers_all_gpu_work) {
    return "code: the same kernels as " + other_side(mode) + " (" + covered + "); copies and sets not compared";
  }
  return "code: the same as " + other_side(mode) + " (" + covered + "): the change is not in the code";
}

std::vector<std::string> code_warnings(const BenchmarkComparison& row) {
  std::vector<std::string> warnings;
  if (!row.code || (row.verdict != Verdict::kSame && row.verdict != Verdict::kFast && row.verdict != Verdict::kAmbiguous)) {
    return warnings;
  }
  for (const std::string& warning : code_warning_words(*row.code)) {
    warnings.push_back(row.name + ": " + verdict_name(row.verdict) + ", but " + warning);
  }
  return warnings;
}

std::string code_not_checked_text(const Comparison& comparison) {
  constexpr const char* kWhereFrom = "a checking process of gpuperf_bench captures them with CUPTI";
  const bool ab = comparison.mode == "ab";
  const std::string before = ab ? "build A's results" : "the baseline";
  const std::string now = ab ? "build B's results" : "these results";
  switch (comparison.code_not_checked) {
    case CodeNotChecked::kChecked:
      return "";
    case CodeNotChecked::kSuiteCapturesNone:
      return "fingerprints not captured (" + comparison.suite_without_fingerprints + ")";
    case CodeNotChecked::kNeitherSide:
      return "neither " + before + " nor " + now + " hold fingerprints (" + kWhereFrom + ")";
    case CodeNotChecked::kNoneNow:
      return now + " hold no fingerprints (" + kWhereFrom + ")";
    case CodeNotChecked::kNoneBefore:
      return before + " holds no fingerprints (recorded before they were kept: record it again)";
  }
  return "";
}

std::string code_summary(const Comparison& comparison) {
  if (const std::string why = code_not_checked_text(comparison); !why.empty()) return "code changes not checked: " + why;
  int same = 0, changed = 0, unknown = 0;
  std::string first_reason;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (!row.code) continue;
    switch (row.code->comparison) {
      case CodeComparison::kSame: ++same; break;
      case CodeComparison::kChanged: ++changed; break;
      case CodeComparison::kUnknown:
        ++unknown;
        if (first_reason.empty()) first_reason = code_unknown_words(*row.code);
        break;
    }
  }
  if (same + changed + unknown == 0) return "";
  std::string text = "code: " + std::to_string(same) + " benchmark" + (same == 1 ? "" : "s") + " ran the same code as " +
                     (comparison.mode == "ab" ? "build A" : "the baseline") + ", " + std::to_string(changed) + " changed";
  if (unknown > 0) text += ", " + std::to_string(unknown) + " not compared (" + first_reason + ")";
  return text;
}

std::string same_code_summary(const Comparison& comparison) {
  const VerdictCounts counts = same_code_counts(comparison);
  int total = 0;
  for (int count : counts) total += count;
  if (total == 0) return "";
  std::string text = "same code: " + std::to_string(total) + " verdict" + (total == 1 ? "" : "s") + ": " +
                     counts_text(counts) + " (any SLOW or FAST among them is a false alarm of the gate";
  // A PLATFORM is no false alarm: the gate said the platform moved, not the code.
  if (counts[static_cast<int>(Verdict::kPlatform)] > 0) text += "; a PLATFORM, a move of the machine, driver or harness";
  return text + ")";
}

}  // namespace gpuperf::gate
