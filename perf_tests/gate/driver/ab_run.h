#pragma once
// perf_gate ab-run: two builds (say main and a pull request) compared on this GPU in one job, with no
// stored baseline. Their processes are interleaved in rounds (A B, then B A, ...), so that a drift in
// clocks or temperature hits both alike, and the verdict comes from the paired per-round ratios
// (judging/ab_mode.h). Benchmarks left AMBIGUOUS get `rounds` more rounds of their own, at most
// max_remeasure times (looks.h), before the final verdict. Rounds, not samples, narrow the interval:
// each process lands at its own offset (for a 14 us kernel on an H200, process medians had a standard
// deviation of 0.44%, 20-sample medians within one process 0.16-0.19%), so a small slowdown of a short
// kernel needs up to 30 rounds; only AMBIGUOUS ones pay.
//
// Round 1 checks every case of both builds against its reference (and so captures their fingerprints),
// later rounds only time; with check_references off every round only times. Re-measurement rounds time
// the ambiguous benchmarks with the first rounds' filter (each timed case keeps its history); where a
// build predates --time-filter, both builds time them alone. The GPU is build B's; the perf_gate running
// judges (no gate need sit beside either build).
// After the last look: the same-code ledger counts the verdicts on benchmarks whose code is the same in
// both builds; on a regression, Nsight Compute profiles the 3 slowest SLOW benchmarks in both builds
// (driver/ncu_diagnosis.h; skipped with the reason where ncu cannot run); then the reports are rendered
// once, with the count and the metric tables (reports/report.h).
// Writes into `out`: a.roundN.json/.log, b.roundN.json/.log (each process), ab.md and ab.verdict.json.
// Exit 0 no regression, 1 regression, 2 invalid input or infrastructure, 77 not judged.

#include <ostream>
#include <string>

#include "gate/driver/stored_run.h"
#include "gate/driver/suite.h"
#include "gate/judging/ab_mode.h"

namespace gpuperf::gate::driver {

inline constexpr int kDefaultAbRounds = 6;
inline constexpr int kDefaultAbRepetitions = 20;  // timed samples per benchmark per process
inline constexpr int kDefaultAbMaxRemeasure = 4;

struct AbRunOptions {
  std::string out;                // the folder of results, logs and reports (created)
  int rounds = kDefaultAbRounds;  // rounds of the first look, and of each re-measurement
  int repetitions = kDefaultAbRepetitions;
  std::string filter = ".";                       // the cases both builds run (a regular expression)
  double tolerance_pct = kDefaultAbTolerancePct;  // [percent]
  int max_remeasure = kDefaultAbMaxRemeasure;
  int lock_wait_s = kDefaultLockWaitS;  // [s]
  bool check_references = true;         // round 1 checks
  bool diagnosis = true;
  std::string same_code_ledger;  // "" for none
};

// Runs the comparison of build `b` with build `a`; reports on `out`, notes and errors on `err`.
int run_ab(const AbRunOptions& options, Suite& a, Suite& b, std::ostream& out, std::ostream& err);

}  // namespace gpuperf::gate::driver
