#include "gate/cli/cli.h"

#include <iostream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/version.h"
#include "gate/cli/arguments.h"
#include "gate/cli/commands.h"

namespace gpuperf::gate {
namespace {

using cli::Arguments;
using cli::OptionKind;
using cli::UsageError;
constexpr OptionKind kValue = OptionKind::kValue;
constexpr OptionKind kValues = OptionKind::kValues;
constexpr OptionKind kSwitch = OptionKind::kSwitch;
constexpr OptionKind kRest = OptionKind::kRest;

// One command of perf_gate: its name, the function that runs it, its paragraph of the usage (synopsis,
// then what it does) and the options it takes. The usage, the parser and the dispatch all read this one
// table, so that a command or option cannot be added to one and missed in another.
struct Command {
  const char* name;
  cli::Run run;
  const char* usage;
  std::vector<cli::OptionSpec> options;
};

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run",
       cli::run_stored_test,
       R"(  perf_gate run (--family F | --shard I/N) --bench PATH --baselines DIR --out DIR [--processes N (3)]
                [--repetitions N (30)] [--max-remeasure N (3)] [--strict] [--lock-wait SECONDS (1800)] [--no-canary]
                [--no-reference-check] [--skip-unchanged] [--same-code-ledger FILE] [--no-diagnosis]
                [--runner-history FILE] [--format gpuperf|gbench|nvbench] [--record] [-- SUITE ARGS...]
      A perf test, as CTest runs it: one family's (--family F), or shard I of N of our whole suite (--shard:
      its cases in registry order cut into N runs of equal cost from the baseline's medians, every shard
      cutting alike; CTest's perf.families, perf.families_2of4, one per GPU; files and phases named
      families, families_2of4 where F names them below). Holds the GPU (a lock per GPU UUID, in
      ${TMPDIR:-/tmp}, root's or this user's own), checks every case of family F against its
      reference and captures its fingerprint in a process that times nothing, then times the family in
      --processes fresh processes of the suite PATH (with the memory canary, the ceiling family, beside it
      unless --no-canary), judges them against DIR/<gpu slug>.json as compare does, and re-measures what
      is AMBIGUOUS in as many more processes (at most --max-remeasure times; --looks is 1 + that). No
      baseline for this GPU: skipped (77), or exit 2 with --strict. --no-reference-check: no checking
      process. --skip-unchanged: benchmarks whose fingerprint and platform equal the baseline's are not
      timed (UNCHANGED). --same-code-ledger: the verdicts on unchanged code are added to FILE (as ledger).
      --runner-history: as compare's.
      On a regression, scripts/ncu_diagnose.sh profiles the slowest SLOW benchmarks (--no-diagnosis: not).
      Writes into --out: F.fingerprints.json, F.runN.json (each process, its .log beside), F.md and
      F.verdict.json; where its time went into $GPUPERF_PHASES_DIR (default --out/phases)/perf_phases.F.json.
      Each process gets GPUPERF_GIT_COMMIT (default: the commit of DIR's checkout). A process that fails or
      crashes (a signal, told apart) is exit 2. --format: the kind of suite; gpuperf_bench's (default),
      gbench, a team's Google Benchmark binary, or nvbench, a team's nvbench binary: F names the suite
      (the family of its benchmarks' names, docs/suites.md), the arguments after -- go to each of its
      processes, the GPU is read with NVML (none: skipped, 77), and it has no checking process,
      fingerprints or memory canary; re-measurements time the ambiguous benchmarks alone
      (--benchmark_filter; nvbench: --benchmark NAME --axis NAME=VALUE per state).
      --record: records the suite's baseline DIR/<gpu slug>.json instead (scripts/update_baseline.sh
      calls it): our own suite whole (no --family: its baseline holds every family), first checking
      every case and capturing its fingerprint in a process that times nothing, or a team's suite F;
      then --processes (here 10) processes time the whole suite, with no reference check. The previous
      file's hand-set tolerances are kept, what moved is printed, the file is written whole or not at
      all. Writes into --out: record.fingerprints.json and record.runN.json (a team's: F.recordN.json),
      each with its .log. Exit 0 written, 2 failure (nothing written), 77 no GPU.
)",
       {{"--family", kValue},
        {"--shard", kValue},
        {"--bench", kValue},
        {"--baselines", kValue},
        {"--out", kValue},
        {"--processes", kValue},
        {"--repetitions", kValue},
        {"--max-remeasure", kValue},
        {"--strict", kSwitch},
        {"--lock-wait", kValue},
        {"--no-canary", kSwitch},
        {"--no-reference-check", kSwitch},
        {"--skip-unchanged", kSwitch},
        {"--same-code-ledger", kValue},
        {"--no-diagnosis", kSwitch},
        {"--runner-history", kValue},
        {"--format", kValue},
        {"--record", kSwitch},
        {"--", kRest}}},
      {"ab-run",
       cli::run_ab_test,
       R"(  perf_gate ab-run --a BENCH_A --b BENCH_B --out DIR [--rounds N (6)] [--repetitions N (20)] [--filter REGEX]
                   [--tolerance-pct X (1.0)] [--max-remeasure N (4)] [--lock-wait SECONDS (1800)]
                   [--no-reference-check] [--no-diagnosis] [--same-code-ledger FILE] [--format gpuperf]
                   [--format gbench|nvbench --suite NAME [-- SUITE ARGS...]]
      Compare build B with build A on this GPU (B's), no stored baseline: --rounds rounds of one process of
      each build, interleaved (A B, B A, ...), judged as ab does; AMBIGUOUS benchmarks get --rounds more
      rounds (at most --max-remeasure times), timed after the first rounds' other cases where both builds
      know --time-filter, alone otherwise. Round 1 checks both builds' cases against their references
      (--no-reference-check: it only times). This perf_gate judges: none need sit beside either build.
      On a regression, scripts/ncu_diagnose.sh profiles the slowest SLOW benchmarks in both builds.
      Writes into --out: a.roundN.json, b.roundN.json (each process, its .log beside), ab.md and
      ab.verdict.json. --format gbench, nvbench: two builds of a team's suite NAME, as run's (every
      benchmark each round; its own options after -- select them, not --filter; --no-reference-check
      does not apply).
)",
       {{"--a", kValue},
        {"--b", kValue},
        {"--out", kValue},
        {"--rounds", kValue},
        {"--repetitions", kValue},
        {"--filter", kValue},
        {"--tolerance-pct", kValue},
        {"--max-remeasure", kValue},
        {"--lock-wait", kValue},
        {"--no-reference-check", kSwitch},
        {"--no-diagnosis", kSwitch},
        {"--same-code-ledger", kValue},
        {"--format", kValue},
        {"--suite", kValue},
        {"--", kRest}}},
      {"compare",
       cli::run_compare,
       R"(  perf_gate compare --baseline FILE --results R1.json [R2.json ...] [--family F | --filter REGEX]
                    [--strict] [--skip-unchanged] [--looks K] [--alpha A] [--markdown OUT.md]
                    [--json OUT.json] [--remeasure-list OUT.txt] [--runner-history FILE]
      Judge results (Google Benchmark JSON of one GPU; each file is one process) against the GPU's
      baseline: per benchmark, the processes' medians against the baseline's, with a Student t interval
      on their spread. One line per benchmark that is not SAME, most severe first, then a summary.
      Results all from one GPU that recorded the baseline get its same_gpu_tolerance_pct as default.
      --strict: a benchmark of the baseline missing from the results fails. --alpha: the run's
      family-wise false-alarm rate (default 0.01), split over every benchmark of the baseline and --looks
      (the most times the caller judges one benchmark: 1 + re-measurements; default 1).
      --remeasure-list: the AMBIGUOUS benchmarks, one a line. Every report names how the platform
      (driver, CUDA runtime, SM count, memory, median clocks beyond 2%) differs from the baseline's,
      and suggests re-recording when a quarter of the judged benchmarks moved with it.
      Memory canary: the ceiling benchmarks (copy, read, memset) in the results, whatever --family or
      --filter selects, compared with the baseline's like a verdict; when every one's interval lies
      beyond 1% in one direction, the reports warn that this machine streams memory slower (faster)
      and note it beside each memory-bound verdict. It never changes a verdict or the exit code.
      Code: where the results (a checking process of gpuperf_bench) and the baseline hold fingerprints,
      each verdict says what changed in the code it ran (SASS, registers, spills, launch configuration,
      library kernels and versions); a SLOW over the same code says the change is not in the code; a
      pass over new spills or a halved grid is a warning; the verdicts on unchanged code are counted.
      --skip-unchanged: a benchmark of the baseline not timed in the results, whose fingerprint there is
      the baseline's on the same platform, is UNCHANGED (a pass), not MISSING.
      --runner-history: the runners' histories of the baseline's code (perf_gate history-offsets). A
      benchmark with at least 10 runs on the results' GPU there is judged against that runner's own level
      at the same-GPU tolerance, its row noting the runner's offset from the baseline ("runner offset
      -3.52% +- 0.08% from 12 runs of unchanged code", +- a standard error); the others against the
      baseline as above. A file of another GPU model is an error; one of another baseline is not used,
      and the report says so.
)",
       {{"--baseline", kValue},
        {"--results", kValues},
        {"--family", kValue},
        {"--filter", kValue},
        {"--strict", kSwitch},
        {"--skip-unchanged", kSwitch},
        {"--looks", kValue},
        {"--alpha", kValue},
        {"--markdown", kValue},
        {"--json", kValue},
        {"--remeasure-list", kValue},
        {"--runner-history", kValue}}},
      {"unchanged",
       cli::run_unchanged,
       R"(  perf_gate unchanged --baseline FILE --results R.json [...] [--family F | --filter REGEX] --list OUT.txt
      Write the selected benchmarks whose fingerprint in the results (gpuperf_bench --fingerprint-only)
      equals the baseline's, on the same GPU model, driver and CUDA runtime: what need not be re-timed.
)",
       {{"--baseline", kValue},
        {"--results", kValues},
        {"--family", kValue},
        {"--filter", kValue},
        {"--list", kValue}}},
      {"record",
       cli::run_record,
       R"(  perf_gate record --results R1.json [R2.json ...] --out FILE [--previous FILE] [--commit SHA]
                   [--default-tolerance-pct X] [--same-gpu-tolerance-pct X]
      Write a baseline (each results file is one process: its median per benchmark is kept; their GPU
      UUIDs are listed); keep defaults, families and hand-written per-benchmark tolerances of
      --previous; print what moved and how the platform differs from --previous. The file keeps the
      median SM and memory clocks of the samples and is replaced atomically. --same-gpu-tolerance-pct
      (> 0): the default for results from a listed GPU. Without --previous (a GPU's first baseline) the
      defaults are 4% and 2% on the recording GPU.
)",
       {{"--results", kValues},
        {"--out", kValue},
        {"--previous", kValue},
        {"--commit", kValue},
        {"--default-tolerance-pct", kValue},
        {"--same-gpu-tolerance-pct", kValue}}},
      {"migrate",
       cli::run_migrate,
       R"(  perf_gate migrate --baseline FILE --out FILE
      Rewrite a baseline of an older schema_version in the current one (the numbers unchanged).
)",
       {{"--baseline", kValue}, {"--out", kValue}}},
      {"ab",
       cli::run_ab,
       R"(  perf_gate ab --a A1.json [A2.json ...] --b B1.json [B2.json ...] [--tolerance-pct X (default 1.0)]
               [--family F | --filter REGEX] [--looks K] [--alpha A] [--markdown OUT.md] [--json OUT.json]
               [--remeasure-list OUT.txt]
      Compare build B with build A measured on one GPU, runs interleaved A1 B1 A2 B2 ...: pair i is
      (A_i, B_i); a benchmark absent from a pair is left out of it. Same verdicts, budget and exit codes
      as compare; the budget is split over every benchmark of A and B. The reports name how B's
      platform differs from A's. No memory canary: both builds run on one machine in interleaved
      rounds, so a shift of the machine moves A and B alike.
)",
       {{"--a", kValues},
        {"--b", kValues},
        {"--tolerance-pct", kValue},
        {"--family", kValue},
        {"--filter", kValue},
        {"--looks", kValue},
        {"--alpha", kValue},
        {"--markdown", kValue},
        {"--json", kValue},
        {"--remeasure-list", kValue}}},
      {"ledger",
       cli::run_ledger,
       R"(  perf_gate ledger --ledger FILE --report VERDICT.json [--markdown REPORT.md]
      Add the report's timed verdicts on unchanged code (identical fingerprints) to the running count
      of its GPU model and mode in FILE (created if missing; updated under a lock, atomically): any SLOW
      or FAST among them is a false alarm of the gate. Prints the count with the observed false-alarm
      rate (of verdicts, and of reports), appends that line to REPORT.md and writes the count into
      VERDICT.json ("same_code_ledger"). A report counted before (a retried step) changes
      nothing: the ledger remembers the reports it counted.
)",
       {{"--ledger", kValue}, {"--report", kValue}, {"--markdown", kValue}}},
      {"ncu-metrics",
       cli::run_ncu_metrics,
       R"(  perf_gate ncu-metrics
      Print the Nsight Compute metrics the diagnosis collects, as the argument of ncu --metrics.
)",
       {}},
      {"ncu-diff",
       cli::run_ncu_diff,
       R"(  perf_gate ncu-diff (--before A.csv | --before-stored FILE) (--after B.csv | --after-stored FILE)
                     [--benchmark NAME] [--title TEXT] [--before-label L] [--after-label L]
                     [--markdown OUT.md] [--json OUT.json]
      Set two Nsight Compute profiles of one benchmark side by side (ncu --csv --page raw --print-units
      base --metrics <ncu-metrics>): duration, DRAM and L2 throughput, achieved occupancy, registers,
      shared bank conflicts, instructions, the top 3 stall reasons. Markdown to stdout without --markdown.
      --before-stored, --after-stored: NAME's profile in a file of stored profiles (ncu-store).
)",
       {{"--before", kValue},
        {"--before-stored", kValue},
        {"--benchmark", kValue},
        {"--after", kValue},
        {"--after-stored", kValue},
        {"--title", kValue},
        {"--before-label", kValue},
        {"--after-label", kValue},
        {"--markdown", kValue},
        {"--json", kValue}}},
      {"ncu-store",
       cli::run_ncu_store,
       R"(  perf_gate ncu-store --profiles FILE --gpu SLUG --csv X.csv
                      (--fingerprints R.json --order ORDER.txt | --benchmark NAME)
      Store Nsight Compute profiles (ncu's --csv output, as for ncu-diff) in FILE, the profiles kept
      beside the baseline of GPU SLUG (baselines/<slug>.ncu.json; created if missing, updated under a
      lock, replaced atomically). --fingerprints, --order: X.csv is one pass of ncu --profile-from-start
      off over gpuperf_bench --profiler-window, ORDER.txt the order file it wrote, R.json the fingerprints
      of a checking process; each benchmark's rows are attributed by its fingerprint's launch count and
      must be its launches (kernel, grid, block, in order). A benchmark whose rows are missing or differ
      is printed ("left out: NAME: why") and not stored; where the order of the rows is lost, nothing is
      stored (exit 2). --benchmark: X.csv is NAME's profile alone.
)",
       {{"--profiles", kValue},
        {"--gpu", kValue},
        {"--benchmark", kValue},
        {"--csv", kValue},
        {"--fingerprints", kValue},
        {"--order", kValue}}},
      {"gpu",
       cli::run_gpu,
       R"(  perf_gate gpu --results R.json
      Print the GPU slug the results were measured on (names the baseline: baselines/<slug>.json).
)",
       {{"--results", kValues}}},
      {"report",
       cli::run_report,
       R"(  perf_gate report --cases CASES.json (--baseline FILE ... | --results R.json ...)... [--markdown OUT.md]
                   [--json OUT.json] [--chart mermaid|none]
      The fleet report: every perf case of the registry listing (gpuperf_bench --list-cases > CASES.json)
      on every GPU given, one table per family in registry order. Per GPU: time, GB/s or TFLOP/s, % of
      that GPU's own ceiling (the case's compared_with measured on the same GPU) and the speedup over the
      seed's naive variant (its speedup_over); with 2+ GPUs the time on the first GPU over the time on each
      other one (above 1: faster there). A --baseline is one GPU; --results files (each one process) are
      grouped by their GPU slug, a benchmark's time being the median of the files' medians. GPUs in the
      order given. --chart mermaid (default): a Mermaid bar chart per family in the Markdown. Without
      --markdown and --json the Markdown goes to stdout. Formats and rules: perf_tests/gate/fleet/README.md.
)",
       {{"--cases", kValue},
        {"--baseline", kValues},
        {"--results", kValues},
        {"--markdown", kValue},
        {"--json", kValue},
        {"--chart", kValue}}},
      {"order-table",
       cli::run_order_table,
       R"(  perf_gate order-table --dir DIR [--markdown OUT.md]
      The table of scripts/order_check.sh from the files it wrote in DIR (<way>.round<r>.json, each one
      process): per way, how far each benchmark's median over rounds of its process medians is from the
      way "checked" (registry order, reference checks): the median, 90th percentile and largest absolute
      difference, then every benchmark more than 1% away in some way beside the checked processes' own
      spread (max/min - 1). Markdown to stdout without --markdown.
)",
       {{"--dir", kValue}, {"--markdown", kValue}}},
      {"calibration-report",
       cli::run_calibration_report,
       R"(  perf_gate calibration-report --verdicts VERDICTS.tsv --gpu NAME --trials N --processes N --repetitions N
                               --max-remeasure N --rounds N --ab-repetitions N --ab-max-remeasure N
                               [--markdown OUT.md] [--json OUT.json]
      The reports of scripts/calibrate.sh from its trials (VERDICTS.tsv: mode, slowdown %, benchmark,
      first verdict, final verdict, tolerance; one line a trial): per mode (stored, ab) and benchmark,
      caught (final SLOW) / trials per slowdown, caught at the first look where it differs, trials left
      AMBIGUOUS, the smallest slowdown from which every larger one was caught in >= 95% of trials, and
      the false alarms on clean (+0%) runs. The numbers name the settings in the headings. Markdown to
      stdout without --markdown and --json.
)",
       {{"--verdicts", kValue},
        {"--gpu", kValue},
        {"--trials", kValue},
        {"--processes", kValue},
        {"--repetitions", kValue},
        {"--max-remeasure", kValue},
        {"--rounds", kValue},
        {"--ab-repetitions", kValue},
        {"--ab-max-remeasure", kValue},
        {"--markdown", kValue},
        {"--json", kValue}}},
      {"phases",
       cli::run_phases,
       R"(  perf_gate phases --dir DIR [--markdown OUT.md] [--json OUT.json]
      Where a run's time went, from the phase files its steps wrote in DIR (<build>/perf-results/phases:
      scripts/ci/build.sh, scripts/ci/with_ctest_gpu.sh, perf_gate run; format in
      perf_tests/gate/phases/phase_files.h): the build, then per family the correctness and perf tests
      and the perf test's phases (waiting for the GPU, checking, first look, re-measurements, diagnosis),
      with totals; when tests ran at once, the step's wall time beside their sum. Markdown to stdout
      without --markdown and --json.
)",
       {{"--dir", kValue}, {"--markdown", kValue}, {"--json", kValue}}},
      {"metrics",
       cli::run_metrics,
       R"(  perf_gate metrics --verdict V.json [V2.json ...] [--bmf OUT.json] [--github-benchmark OUT.json]
      Write each benchmark's median of this run (the reports of perf_gate compare or ab --json, one GPU's;
      a benchmark in several: the last given) for the dashboards a team keeps: --bmf as Bencher Metric
      Format (microseconds as the measure latency in ns, cycles as the measure cycles), --github-benchmark
      as github-action-benchmark's customSmallerIsBetter (the verdict line as its extra). A benchmark with
      no median of this run (MISSING, ERROR) is left out and counted. Exit 0; 2 on bad input.
)",
       {{"--verdict", kValues}, {"--bmf", kValue}, {"--github-benchmark", kValue}}},
      {"history-append",
       cli::run_history_append,
       R"(  perf_gate history-append --store S --verdict V.json [V2.json ...] --results R1.json [R2.json ...]
                           --commit SHA --date YYYY-MM-DDTHH:MM:SSZ --run-key KEY [--runner NAME]
      Keep a run in the history store S (sqlite:PATH or a bare PATH: a SQLite file, created if missing;
      postgresql://...: a PostgreSQL database): per benchmark timed in the results (each file one
      process), its process medians, its final verdict in the reports (perf_gate compare --json, one per
      family; a benchmark in several: the last given) and a hash of its fingerprint; the GPU, driver and
      baseline judged against. KEY is unique per CI job and the same for its retries: a run whose key is
      stored already adds nothing (exit 0 either way). Writers appending at once lose nothing.
)",
       {{"--store", kValue},
        {"--verdict", kValues},
        {"--results", kValues},
        {"--commit", kValue},
        {"--date", kValue},
        {"--run-key", kValue},
        {"--runner", kValue}}},
      {"history-export",
       cli::run_history_export,
       R"(  perf_gate history-export --store S --gpu SLUG --json OUT [--ledger FILE]
      Write the history of GPU SLUG in the store S as JSON (schema_version 1, gate/history/series_json.h):
      per benchmark its points oldest first (commit, date, process medians, their median, verdict, code
      hash, baseline); --ledger: the same-code ledger's file (perf_gate ledger) added as "ledger".
)",
       {{"--store", kValue}, {"--gpu", kValue}, {"--json", kValue}, {"--ledger", kValue}}},
      {"history-changes",
       cli::run_history_changes,
       R"(  perf_gate history-changes --store S --gpu SLUG --json OUT [--markdown OUT] [--baseline FILE]
                            [--ledger FILE] [--min-effect-pct X] [--previous FILE]
      The export of history-export with, per benchmark, its change points (E-Divisive means with a
      permutation test, alpha 0.01, at least 5 runs a side, 500 runs a window at most, in the values with
      each runner's offset taken out; a change smaller than --min-effect-pct, default 1%, is not
      reported) and, with --baseline (the GPU's baselines/<gpu>.json), its drift: the latest level against
      the baseline's, beyond the tolerance of another machine of the model, judged only where the series'
      unit is its entry's and the latest run was judged against that baseline (its recorded date). Prints
      one line per change point and per drift beyond tolerance, each with the scripts/bisect.sh command
      that finds its commit; --markdown: the same as a report section (at most 50 rows). --previous: the
      --json of the previous history-changes of SLUG; only what is new since is listed, the rest counted
      (a missing or unreadable file: everything is new, and said). Exit 0 whatever moved: the history
      warns, the per-pull-request gate fails.
)",
       {{"--store", kValue},
        {"--gpu", kValue},
        {"--json", kValue},
        {"--markdown", kValue},
        {"--baseline", kValue},
        {"--ledger", kValue},
        {"--min-effect-pct", kValue},
        {"--previous", kValue}}},
      {"history-offsets",
       cli::run_history_offsets,
       R"(  perf_gate history-offsets --store S --baseline FILE --out FILE
      The runners' histories of the baseline's code, for compare and run --runner-history: per GPU UUID
      and benchmark of the baseline's GPU model, that runner's last 30 runs whose code hash for the
      benchmark is the hash of the baseline's fingerprint (a benchmark without one gets none), each run
      its process medians. Prints, per runner, how many benchmarks have the 10 runs a check needs and the
      range of their offsets from the baseline. Written whole or not at all; a GPU job reads the file,
      no database client needed (docs/history.md).
)",
       {{"--store", kValue}, {"--baseline", kValue}, {"--out", kValue}}},
      {"history-remove",
       cli::run_history_remove,
       R"(  perf_gate history-remove --store S --run-key KEY
      Take the run KEY (its points' run_key in history-export) out of the history store S, with its
      results, in one transaction: a run whose values are wrong (a broken runner, a hand edit) is gone from
      every export. Prints what it removed; exit 2 when S holds no run KEY.
)",
       {{"--store", kValue}, {"--run-key", kValue}}},
      {"history-runs",
       cli::run_history_runs,
       R"(  perf_gate history-runs --store S [--key-prefix P]
      Print how many runs the store S holds (every GPU), or with --key-prefix how many whose run key
      starts with P: the CI job's check that a store it uploads holds no fewer runs than the one it
      replaces, and that a workflow run is kept already (P: <repository>/<run id>/).
)",
       {{"--store", kValue}, {"--key-prefix", kValue}}},
  };
  return table;
}

// The forms that are not commands, after them in the usage.
constexpr const char* kVersionUsage = R"(  perf_gate --version
      Print the harness's release, "gpuperf MAJOR.MINOR.PATCH" (semantic versioning), which every
      report and recorded baseline names (harness_version), and exit 0.
)";

constexpr const char* kUsageTail = R"(
exit codes:
  0   pass: no regression (SAME, FAST, NEW, AMBIGUOUS after re-measuring; MISSING without --strict)
  1   regression: a benchmark is SLOW (with --strict: or MISSING)
  2   invalid input or infrastructure: bad arguments, unreadable or corrupt file, a benchmark that
      reported an error, no samples at all, results from another GPU than the baseline
  77  not judged: no regression, but some benchmark (or every one) could not be judged (throttled,
      too few samples or processes, unit mismatch); CTest reports it as skipped

files: an input must be a regular file of at most 512 MiB; an output must be absent or a regular file
  in a writable folder. Every output of a call is checked before anything is read, and all are written
  or none. A file that is read and rewritten (record --out, migrate --out, ncu-store, ledger) is locked
  meanwhile through a lock file in ${TMPDIR:-/tmp}/gpuperf-locks-<uid>/, never beside it.
)";

}  // namespace

std::string usage_text() {
  std::string text = "usage:\n";
  for (const Command& command : commands()) text += command.usage;
  return text + kVersionUsage + kUsageTail;
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    if (args.empty()) throw UsageError("no command given");
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      out << usage_text();
      return formats::kExitPass;
    }
    if (args[0] == "--version") {
      if (args.size() > 1) throw UsageError("--version takes no arguments");
      out << formats::kHarnessVersionLine << "\n";
      return formats::kExitPass;
    }
    for (const Command& command : commands()) {
      if (args[0] != command.name) continue;
      const Arguments arguments(command.name, {args.begin() + 1, args.end()}, command.options);
      return command.run(arguments, out, err);
    }
    throw UsageError("unknown command '" + args[0] + "'");
  } catch (const UsageError& e) {
    err << "perf_gate: " << e.what() << "\n\n" << usage_text();
  } catch (const formats::InputError& e) {
    err << "perf_gate: error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    // A bug, not bad input; still never a pass.
    err << "perf_gate: internal error: " << e.what() << "\n";
  }
  return formats::kExitInvalidInput;
}

int run_cli(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return run_cli(args, std::cout, std::cerr);
}

}  // namespace gpuperf::gate
