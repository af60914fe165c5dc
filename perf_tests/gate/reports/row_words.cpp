#include "gate/reports/row_words.h"

#include "formats/number_text.h"
#include "gate/reports/wording.h"

namespace gpuperf::gate {
namespace {

using formats::format_number;

std::string counted_noun(int count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string shortfall_text(const RowReason& reason) {
  const SampleShortfall& s = reason.samples;
  const std::string need = " (a process needs " + std::to_string(s.needed) + " valid samples of its own)";
  if (reason.code == ReasonCode::kTooFewSamples) return "only " + counted_noun(s.valid, "valid sample", "valid samples") + need;
  std::string causes;
  if (s.power_capped > 0) causes = std::to_string(s.power_capped) + " power capped";
  if (s.shared_gpu > 0) causes += (causes.empty() ? "" : ", ") + std::to_string(s.shared_gpu) + " with another process on the GPU";
  if (causes.empty()) causes = "clock throttle reason or another process on the GPU";
  return std::to_string(s.throttled) + " of " + std::to_string(s.repetitions) + " samples throttled (" + causes + "), " +
         std::to_string(s.valid) + " left" + need;
}

// The words of one reason, without the side it concerns.
std::string reason_words(const RowReason& reason, const std::string& mode) {
  switch (reason.code) {
    case ReasonCode::kNone:
      return "";
    case ReasonCode::kBenchmarkError:
      return reason.message;
    case ReasonCode::kSkippedBySuite:
      return "skipped by the suite itself: " + reason.message;
    case ReasonCode::kThrottled:
    case ReasonCode::kTooFewSamples:
      return shortfall_text(reason);
    case ReasonCode::kUnitMismatch:
      if (mode == "ab") return "unit mismatch: A is in " + reason.unit_before + ", B in " + reason.unit_now;
      return "unit mismatch: the baseline is in " + reason.unit_before + ", the results in " + reason.unit_now +
             " (the benchmark changed its metric: refresh the baseline)";
    case ReasonCode::kOneProcessEachSide:
      return std::string("one process on each side: the spread between processes is unknown (re-record the "
                         "baseline: ") + kUpdateBaselineCommand + ")";
    case ReasonCode::kNotInBaseline:
      return "not in the baseline";
    case ReasonCode::kNotInResults:
      return "in the baseline, not in the results";
    case ReasonCode::kUnchangedNotRetimed:
      return "unchanged, not re-timed: the same code as the baseline's on the same platform";
    case ReasonCode::kOnlyInA:
      return "only in A";
    case ReasonCode::kOnlyInB:
      return "only in B";
    case ReasonCode::kTooFewPairs:
      return std::to_string(reason.pairs) + " pair(s) of runs with valid samples on both sides (need " +
             std::to_string(reason.pairs_needed) + ")";
  }
  return "";
}

// "runner offset -3.52% +- 0.08% from 12 runs of unchanged code" (+- one standard error); for a runner whose
// level moved, "from its last 10 runs of unchanged code (its level moved +2.9% over 30 runs)".
std::string runner_offset_text(const RunnerLevel& level) {
  std::string text = "runner offset " + format_number("%+.2f", level.offset_pct) + "% +- " +
                     format_number("%.2f", level.offset_se_pct) + "% from ";
  if (level.trend != RunnerTrend::kRecentLevel) return text + std::to_string(level.runs) + " runs of unchanged code";
  return text + "its last " + std::to_string(level.runs) + " runs of unchanged code (its level moved " +
         format_number("%+.1f", level.drift_pct) + "% over " + std::to_string(level.history_runs) + " runs)";
}

std::string note_text(const RowNote& note) {
  switch (note.code) {
    case NoteCode::kOwnLevelInBaseline:
      return "against this GPU's own level in the baseline (" + format_number("%+.2f", note.offset_pct) +
             "% from the " + std::to_string(note.count) + " recording GPUs' centre)";
    case NoteCode::kFewBaselineProcesses:
      return "baseline from " + counted_noun(note.count, "process", "processes") + " (recommended " +
             std::to_string(note.needed) + "): a wider interval; re-record to narrow it";
    case NoteCode::kOutlierProcessRule:
      return "beyond the tolerance in " + std::to_string(note.count) + " process; " + std::to_string(note.needed) +
             " are needed to call it (one can be an outlier)";
    case NoteCode::kRunnerOffset:
      return runner_offset_text(note.runner);
    case NoteCode::kDecidedByEstimate:
      return "decided at the last look by its estimate (" + format_number("%+.1f", note.offset_pct) +
             "%): no re-measurement narrows the interval below this runner's run-to-run spread (" +
             format_number("%.2f", note.runner.run_sd_pct) + "%)";
    case NoteCode::kRunnerHistoryUnit:
      return "runner history in " + note.unit_before + ", the results in " + note.unit_now +
             "; judged against the baseline";
    case NoteCode::kRunnerDrifting:
      return "runner drifting: its level moved " + format_number("%+.1f", note.runner.drift_pct) + "% over its last " +
             std::to_string(note.runner.history_runs) + " runs of unchanged code and " +
             format_number("%+.1f", note.runner.recent_drift_pct) + "% over the last " + std::to_string(note.needed) +
             "; judged against the baseline, as another machine";
    case NoteCode::kRunnerYoung:
      return "runner history: " + std::to_string(note.runner.history_runs) + " of " + std::to_string(note.needed) +
             " runs of the baseline's code; judged against the baseline";
    case NoteCode::kKernelsOnly:
      return "code unchanged in its kernels, but the baseline's fingerprint does not cover copies and sets: judged "
             "as a change of the code; re-record the baseline to capture them";
  }
  return "";
}

}  // namespace

std::string reason_text(const RowReason& reason, const std::string& mode) {
  const std::string words = reason_words(reason, mode);
  return reason.side.empty() || words.empty() ? words : reason.side + ": " + words;
}

std::string tolerance_source_words(const ToleranceSource& source) {
  const std::string hosts = counted_noun(source.hosts, "host", "hosts");
  switch (source.origin) {
    case ToleranceOrigin::kNone:
      return "";
    case ToleranceOrigin::kDefault:
      return "default";
    case ToleranceOrigin::kSameGpuDefault:
      return "default, same GPU as the baseline";
    case ToleranceOrigin::kOneGpuRecorded:
      return "default: one GPU recorded";
    case ToleranceOrigin::kMachineSpread:
      return "machine spread " + format_number("%.2f", source.spread_sd_pct) + "% over " +
             std::to_string(source.machines) + " GPUs of " + std::to_string(source.hosts) + " hosts";
    case ToleranceOrigin::kMachineSpreadWidens:
      return "machine spread " + format_number("%.2f", source.spread_sd_pct) + "% over " +
             std::to_string(source.machines) + " GPUs of " + hosts + " (widens the default)";
    case ToleranceOrigin::kTooFewHosts:
      return "default " + format_number("%.1f", source.default_pct) + "%: recordings of " + hosts + " (" +
             std::to_string(kMinHostsToTighten) + " needed to tighten by the machines' spread)";
    case ToleranceOrigin::kFamily:
      return "family " + source.family;
    case ToleranceOrigin::kBenchmark:
      return "benchmark";
    case ToleranceOrigin::kResolutionFloor:
      return "resolution floor (" + format_number("%g", kCycleResolution) + " cycles of " +
             format_number("%g", source.median_cycles) + ")";
    case ToleranceOrigin::kAbOption:
      return "--tolerance-pct";
  }
  return "";
}

std::string notes_text(const RowNotes& notes) {
  std::string text;
  for (const RowNote& note : notes) text += (text.empty() ? "" : "; ") + note_text(note);
  return text;
}

}  // namespace gpuperf::gate
