#include "gate/reports/canary_words.h"

#include <cmath>

#include "formats/number_text.h"
#include "gate/judging/verdict.h"

namespace gpuperf::gate {
namespace {

using formats::format_number;

std::string canary_signed_pct(double pct) { return format_number("%+.1f", pct); }

// "device_copy": the variant, between the family and the shape. The ceiling family registers one shape
// per variant; the JSON report keeps the full names.
std::string canary_short_label(const std::string& name) {
  const std::size_t first = name.find('/');
  const std::size_t last = name.rfind('/');
  if (first == std::string::npos || last <= first) return name;
  return name.substr(first + 1, last - first - 1);
}

// "device_copy +5.1% [+4.6, +5.6], memset ..."
std::string canary_benchmarks_text(const std::vector<CanaryBenchmark>& benchmarks) {
  std::string text;
  for (const CanaryBenchmark& b : benchmarks) {
    text += (text.empty() ? "" : ", ") + canary_short_label(b.name) + " " + canary_signed_pct(b.change_pct) + "% [" +
            canary_signed_pct(b.ci_low_pct) + ", " + canary_signed_pct(b.ci_high_pct) + "]";
  }
  return text;
}

std::string left_out_reason_words(CanaryLeftOutReason reason) {
  switch (reason) {
    case CanaryLeftOutReason::kNotInBaseline:
      return "not in the baseline";
    case CanaryLeftOutReason::kNotInResults:
      return "not in the results";
    case CanaryLeftOutReason::kReportedError:
      return "reported an error";
    case CanaryLeftOutReason::kSkipped:
      return "skipped";
    case CanaryLeftOutReason::kUnitDiffers:
      return "unit differs from the baseline's";
    case CanaryLeftOutReason::kTooFewSamples:
      return "no process with " + std::to_string(kMinSamples) + " valid samples";
    case CanaryLeftOutReason::kOneProcessEachSide:
      return "one process on each side";
  }
  return "";
}

std::string joined_left_out(const Canary& canary) {
  std::string text;
  for (const std::string& entry : canary_left_out_words(canary)) text += (text.empty() ? "" : ", ") + entry;
  return text;
}

std::string left_out_sentence(const Canary& canary) {
  return canary.left_out.empty() ? "" : "; not compared: " + joined_left_out(canary);
}

std::string no_canary_words(const Canary& canary) {
  switch (canary.no_canary) {
    case NoCanaryReason::kNoneInResults:
      return "the results hold no ceiling benchmarks";
    case NoCanaryReason::kNoneInBaseline:
      return "the baseline holds no ceiling benchmarks";
    case NoCanaryReason::kNoneCompares:
      break;
  }
  return "no ceiling benchmark compares: " + joined_left_out(canary);
}

}  // namespace

std::string canary_summary(const Canary& canary) {
  if (!canary.measured()) return "no memory canary (" + no_canary_words(canary) + ")";
  if (!canary.moved()) {
    return "memory canary: " + canary_signed_pct(canary.change_pct) + "% (median of " +
           std::to_string(canary.benchmarks.size()) + " ceiling benchmark" + (canary.benchmarks.size() == 1 ? "" : "s") +
           "), no shift beyond " + format_number("%g", canary.threshold_pct) + "%" + left_out_sentence(canary);
  }
  return "this machine streams memory " + format_number("%.1f", std::fabs(canary.change_pct)) + "% " +
         (canary.shift == CanaryShift::kSlower ? "slower" : "faster") + " than the baseline's (ceiling: " +
         canary_benchmarks_text(canary.benchmarks) + ")" + left_out_sentence(canary);
}

std::string canary_action(const Canary& canary) {
  if (!canary.moved()) return "";
  return "memory-bound verdicts (noted \"" + canary_note(canary.change_pct) +
         "\") may reflect the machine, not the code: to tell, time the baseline's commit and this one on this "
         "machine (scripts/ab_compare.sh)";
}

std::vector<std::string> canary_left_out_words(const Canary& canary) {
  std::vector<std::string> words;
  for (const CanaryLeftOut& left : canary.left_out) words.push_back(left.name + " (" + left_out_reason_words(left.reason) + ")");
  return words;
}

std::string canary_note(double change_pct) {
  return "machine's memory " + format_number("%.1f", std::fabs(change_pct)) + "% " +
         (change_pct >= 0.0 ? "slower" : "faster");
}

}  // namespace gpuperf::gate
