#pragma once
// perf_gate run: a perf test against the GPU's stored baseline: one family's (--family), or a shard of our
// whole suite (--shard, shards.h), as CTest runs it (perf.families, perf.families_2of4). The procedure:
//   1. the GPU the suite sees (none: skipped, 77) and its baseline, baselines/<gpu slug>.json (none:
//      skipped, or exit 2 with strict);
//   2. the GPU's lock (gpu_lock.h), waited for up to lock_wait_s;
//   3. a checking process (the suite checks every case of the family or shard against its reference and captures
//      its fingerprint, timing nothing), unless check_references and skip_unchanged are both off, or the
//      suite has none (Suite::abilities: a team's suite, gbench_suite.h, which has no canary either);
//   4. with skip_unchanged, the benchmarks whose fingerprint and platform are the baseline's are left
//      untimed (UNCHANGED); the rest are timed;
//   5. the first look: `processes` timing processes of the family or shard, the memory canary's family beside it
//      (canary: the reports say when this machine streams memory slower or faster than the baseline's);
//   6. judged in-process; while benchmarks are AMBIGUOUS, `processes` more processes time them (the first
//      look's filter, the ambiguous ones as time filter: each timed case keeps its history; a suite
//      without --time-filter, a team's, runs them alone), at most max_remeasure times (looks.h);
//   7. the same-code ledger, where given; on a regression the Nsight Compute diagnosis (ncu_diagnosis.h);
//   8. where its time went: <phases_dir>/perf_phases.<name>.json, whatever the exit (name: run_name()).
//
// Why each step is so (measured; formerly the header of scripts/perf_test.sh):
// - The memory canary (ceiling: copy, read, memset of 1 GiB each) is judged where the ceiling family is
//   selected (its shard; judging/memory_canary.h). It costs under 1 s a process, as no timed process checks (set-up, 10
//   samples; an H100, 2026-11-23: 0.4 s unchecked); over 17 unchecked whole-suite runs on H100s, 1-2 s a
//   family, 11 s of a 59 s run. It does not pull the family's medians away from the baseline's, which were
//   recorded in whole-suite processes that time the ceilings too: it brought three of them closer, by
//   0.9-1.4% (docs/results.md, "The gate judged by processes").
// - Re-measurements time only the ambiguous benchmarks, in processes that still set up the first look's
//   other cases, the canary's too, in their turn (gpuperf_bench --time-filter): a case's time can depend
//   on what ran before it in its process. Re-measured alone, cub::DeviceReduce::Sum at 2^25 timed 0.8% (an
//   H100) and 1.4% (an H200) above its first look; this way, within 0.1% (perf_tests/harness/timed_cases.h).
// - The checking process captures the fingerprints, and no timed process does: capturing in a timed
//   process moved three benchmarks' medians by 0.8-1.6% on an H100 (docs/results.md, "Does capturing
//   fingerprints move the timings?"). A case the correctness test of this build verified with the same
//   fingerprint is not compared with its reference again (docs/fingerprints.md, "One reference check per
//   build"). Without check_references no process checks or captures: for a build whose correctness tests
//   already passed on this GPU (ctest -L correctness).
// - skip_unchanged (pull requests): benchmarks whose fingerprint in the checking process, GPU model,
//   driver and CUDA runtime equal the baseline's are not timed and pass as UNCHANGED. Correctness is never
//   skipped.
// - The same-code ledger (perf_gate ledger): the final verdicts on unchanged code are added to the count
//   the file keeps for this GPU model, and the reports state the gate's observed false-alarm rate. A ledger
//   that cannot be updated is a warning; it never changes the verdict.
// - On a regression, Nsight Compute profiles the 3 slowest SLOW benchmarks (driver/ncu_diagnosis.h) and the
//   Markdown report ends with the metric diff against the profiles recorded beside the baseline
//   (baselines/<gpu>.ncu.json, scripts/record_ncu.sh); where ncu or that file is missing, one line says so.
// - The reports are rendered once, after the last look, with the ledger's count and the diagnosis
//   (reports/report.h).
//
// Writes into `out`: <name>.fingerprints.json/.log (the checking process), <name>.runN.json/.log (each
// timing process), <name>.md and <name>.verdict.json (the reports). Exit 0 pass, 1 regression, 2
// invalid input or infrastructure (a process that failed or crashed), 77 skipped or not judged.

#include <optional>
#include <ostream>
#include <string>

#include "gate/driver/shards.h"
#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

// 3 processes a look, up to 3 re-measurements: in the gate's simulation
// (perf_tests/gate/tests/statistics/test_simulation.cpp) this catches a 3% slowdown at a process sd of
// 0.44% in 94% of trials with no false alarm in 32,400 clean judgements; 2 re-measurements caught 90%.
inline constexpr int kDefaultProcesses = 3;
inline constexpr int kDefaultMaxRemeasure = 3;
inline constexpr int kDefaultRepetitions = 30;  // timed samples per benchmark per process
inline constexpr int kDefaultLockWaitS = 1800;  // [s]

struct StoredRunOptions {
  std::string family;          // the family judged (a valid family name); "" for a shard
  std::optional<Shard> shard;  // or this shard of our whole suite (shards.h)
  std::string baselines;  // the folder of baselines/<gpu slug>.json
  std::string out;        // the folder of results, logs and reports (created)
  int processes = kDefaultProcesses;
  int repetitions = kDefaultRepetitions;
  int max_remeasure = kDefaultMaxRemeasure;
  int lock_wait_s = kDefaultLockWaitS;  // [s]
  bool strict = false;                  // no baseline, or a benchmark MISSING, fails
  bool fail_on_platform = false;        // PLATFORM (the same code beyond its tolerance) fails: exit 1
  bool canary = true;                   // the memory canary beside the first look
  bool check_references = true;         // the checking process
  bool skip_unchanged = false;
  bool diagnosis = true;
  std::string same_code_ledger;           // "" for none
  std::string runner_history;             // the runners' histories (inputs/runner_history.h); "" for none
  std::string phases_dir;                 // "" for <out>/phases
  std::optional<std::string> git_commit;  // the build's commit, given to each process; nullopt: the baselines'
                                          // checkout's (git rev-parse --short HEAD), "" where none
};

// What names the run's files, phase file and messages: the family, or the shard's name (shard_name()).
std::string run_name(const StoredRunOptions& options);

// Runs the perf test on `suite`; its reports on `out`, its notes and errors on `err`. Returns the exit code.
int run_against_baseline(const StoredRunOptions& options, Suite& suite, std::ostream& out, std::ostream& err);

}  // namespace gpuperf::gate::driver
