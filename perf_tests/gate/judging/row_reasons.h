#pragma once
// Why a row got a verdict its numbers do not explain (ERROR, NEW, MISSING, NOT_JUDGED, UNCHANGED), and
// what limits or qualifies its evidence, as codes with the fields their words need. The judging decides
// them and writes no words; every report words them alike (reports/row_words.h). Adding one: a code here,
// its fields, and its words in reports/row_words.cpp (a switch the compiler checks for every code).

#include <string>
#include <utility>
#include <vector>

#include "gate/statistics/runner_history.h"

namespace gpuperf::gate {

enum class ReasonCode {
  kNone,
  kBenchmarkError,       // message: the benchmark's own (a failed check, a CUDA error)
  kSkippedBySuite,       // message: the suite's (SkipWithMessage, an nvbench state it skipped)
  kThrottled,            // samples: too few valid ones left after the throttled ones were discarded
  kTooFewSamples,        // samples: no process with kMinSamples valid samples
  kUnitMismatch,         // units: the baseline's (A's) and the results' (B's)
  kOneProcessEachSide,   // the spread between processes is unknown
  kNotInBaseline,        // NEW in stored mode
  kNotInResults,         // MISSING in stored mode
  kUnchangedNotRetimed,  // UNCHANGED (--skip-unchanged)
  kOnlyInA,              // A/B: MISSING
  kOnlyInB,              // A/B: NEW
  kTooFewPairs,          // A/B: pairs (and kMinPairs needed)
};

// The samples of one side, for kThrottled and kTooFewSamples.
struct SampleShortfall {
  int valid = 0;         // samples left
  int throttled = 0;     // discarded as throttled
  int repetitions = 0;   // seen, discarded ones included
  int power_capped = 0;  // of the throttled: with a power-cap throttle reason
  int shared_gpu = 0;    // of the throttled: with another process on the GPU
  int needed = 0;        // valid samples a process needs (kMinSamples)
};

struct RowReason {
  ReasonCode code = ReasonCode::kNone;
  std::string side;      // A/B mode: "A" or "B", where the reason concerns one side; "" otherwise
  std::string message;   // kBenchmarkError, kSkippedBySuite: text from the suite (untrusted: escaped where written)
  std::string unit_before;  // kUnitMismatch: the baseline's (A's) unit
  std::string unit_now;     // kUnitMismatch: the results' (B's)
  SampleShortfall samples;  // kThrottled, kTooFewSamples
  int pairs = 0;            // kTooFewPairs: pairs with valid samples on both sides
  int pairs_needed = 0;     // kTooFewPairs

  bool empty() const { return code == ReasonCode::kNone; }
};

enum class NoteCode {
  kOwnLevelInBaseline,     // offset_pct from the centre of `count` recording GPUs
  kFewBaselineProcesses,   // count processes, `needed` recommended
  kOutlierProcessRule,     // beyond the tolerance in `count` process(es); `needed` to call it
  kRunnerOffset,           // runner: judged against this runner's own level
  kDecidedByEstimate,      // offset_pct: the estimate; runner: its run_sd_pct
  kRunnerHistoryUnit,      // units: the history's (unit_before) and the results' (unit_now)
  kRunnerDrifting,         // runner: how it drifts
  kRunnerYoung,            // runner: history_runs of `needed`
  kKernelsOnly,            // same kernels, but the baseline's fingerprint covers no copies and sets
};

struct RowNote {
  NoteCode code = NoteCode::kOwnLevelInBaseline;
  double offset_pct = 0.0;  // kOwnLevelInBaseline, kDecidedByEstimate [percent]
  int count = 0;            // kOwnLevelInBaseline: machines; kFewBaselineProcesses, kOutlierProcessRule: processes
  int needed = 0;           // kFewBaselineProcesses, kOutlierProcessRule: processes; kRunnerYoung: runs
  RunnerLevel runner;       // kRunnerOffset, kDecidedByEstimate, kRunnerDrifting, kRunnerYoung
  std::string unit_before;  // kRunnerHistoryUnit: the history's
  std::string unit_now;     // kRunnerHistoryUnit: the results'
};

using RowNotes = std::vector<RowNote>;

inline RowReason reason_of(ReasonCode code, std::string message = "", std::string side = "") {
  RowReason reason;
  reason.code = code;
  reason.message = std::move(message);
  reason.side = std::move(side);
  return reason;
}

inline RowReason unit_mismatch(std::string unit_before, std::string unit_now) {
  RowReason reason = reason_of(ReasonCode::kUnitMismatch);
  reason.unit_before = std::move(unit_before);
  reason.unit_now = std::move(unit_now);
  return reason;
}

inline RowNote note_of(NoteCode code) {
  RowNote note;
  note.code = code;
  return note;
}

}  // namespace gpuperf::gate
