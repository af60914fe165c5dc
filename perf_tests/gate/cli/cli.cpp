#include "gate/cli/cli.h"

#include <iostream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/version.h"
#include "gate/cli/arguments.h"
#include "gate/cli/command.h"
#include "gate/cli/commands.h"
#include "gate/cli/help.h"

namespace gpuperf::gate {
namespace {

using cli::Arguments;
using cli::Command;
using cli::FileRole;
using cli::OptionKind;
using cli::UsageError;
constexpr OptionKind kValue = OptionKind::kValue;
constexpr OptionKind kValues = OptionKind::kValues;
constexpr OptionKind kSwitch = OptionKind::kSwitch;
constexpr OptionKind kRest = OptionKind::kRest;
// What each option's value is to the call's files (arguments.h: FileRole): no output may be an input.
constexpr FileRole kNotAFile = FileRole::kNone;
constexpr FileRole kFileIn = FileRole::kInput;
constexpr FileRole kFileOut = FileRole::kOutput;
constexpr FileRole kFileInOut = FileRole::kUpdated;
constexpr FileRole kFileReplaced = FileRole::kReplaced;

// perf_gate's commands (command.h): its name, the function that runs it, its purpose in one line, its
// paragraph of the usage (synopsis, then what it does) and the options it takes, each with its role for
// the files of the call, its argument and its meaning for the help.
const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run",
       cli::run_stored_test,
       "a perf test as CTest runs it: check, time, judge against the baseline",
       R"(  perf_gate run (--family F | --shard I/N) --bench PATH --baselines DIR --out DIR [--processes N (3)]
                [--repetitions N (30)] [--max-remeasure N (3)] [--strict] [--lock-wait SECONDS (1800)] [--no-canary]
                [--no-reference-check] [--skip-unchanged] [--same-code-ledger FILE] [--no-diagnosis] [--fail-on-platform]
                [--runner-history FILE] [--format gpuperf|gbench|nvbench] [--fingerprint-library PATH] [--record]
                [-- SUITE ARGS...]
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
      --runner-history, --fail-on-platform: as compare's.
      On a regression, Nsight Compute profiles the slowest SLOW benchmarks (--no-diagnosis: not).
      Writes into --out: F.fingerprints.json, F.runN.json (each process, its .log beside), F.md and
      F.verdict.json; where its time went into $GPUPERF_PHASES_DIR (default --out/phases)/perf_phases.F.json.
      Each process gets GPUPERF_GIT_COMMIT (default: the commit of DIR's checkout). A process that fails or
      crashes (a signal, told apart) is exit 2. --format: the kind of suite; gpuperf_bench's (default),
      gbench, a team's Google Benchmark binary, or nvbench, a team's nvbench binary: F names the suite
      (the family of its benchmarks' names, docs/suites.md), the arguments after -- go to each of its
      processes, the GPU is read with NVML (none: skipped, 77), and it has no checking process or memory
      canary; re-measurements time the ambiguous benchmarks alone (--benchmark_filter; nvbench: --benchmark
      NAME --axis NAME=VALUE per state). Its fingerprints are captured apart, one benchmark a process run
      once with the capture library libgpuperf_fingerprint_inject.so loaded by CUDA (--fingerprint-library,
      else the one beside perf_gate; none found: no fingerprints, and the reports say why): the code lines,
      --skip-unchanged and the ledger as for our suite.
      --record: records the suite's baseline DIR/<gpu slug>.json instead (scripts/update_baseline.sh
      calls it): our own suite whole (no --family: its baseline holds every family), first checking
      every case and capturing its fingerprint in a process that times nothing, or a team's suite F;
      then --processes (here 10) processes time the whole suite, with no reference check. The previous
      file's hand-set tolerances are kept, what moved is printed, the file is written whole or not at
      all. Writes into --out: record.fingerprints.json and record.runN.json (a team's: F.recordN.json),
      each with its .log. Exit 0 written, 2 failure (nothing written), 77 no GPU.
)",
       {{"--family", kValue, kNotAFile, "F", "the family (or a team's suite) to test; or --shard"},
        {"--shard", kValue, kNotAFile, "I/N", "shard I of N of our whole suite, cut by the baseline's medians"},
        {"--bench", kValue, kFileIn, "PATH", "the suite's binary (gpuperf_bench, or a team's)"},
        {"--baselines", kValue, kNotAFile, "DIR", "the folder of baselines, <gpu slug>.json each"},
        {"--out", kValue, kNotAFile, "DIR", "the folder the runs, logs and reports are written into"},
        {"--processes", kValue, kNotAFile, "N (3)", "fresh processes timed at the first look (10 with --record)"},
        {"--repetitions", kValue, kNotAFile, "N (30)", "repetitions of each benchmark in a process"},
        {"--max-remeasure", kValue, kNotAFile, "N (3)", "the most re-measurements of what is AMBIGUOUS"},
        {"--strict", kSwitch, kNotAFile, "", "no baseline for this GPU, or a benchmark missing: a failure"},
        {"--fail-on-platform", kSwitch, kNotAFile, "", "PLATFORM (the same code, beyond tolerance) fails: exit 1"},
        {"--lock-wait", kValue, kNotAFile, "SECONDS (1800)", "how long to wait for the GPU's lock"},
        {"--process-timeout", kValue, kNotAFile, "SECONDS (900 + 60 x repetitions)",
         "the time limit of each process of the suite; 0: none"},
        {"--no-canary", kSwitch, kNotAFile, "", "no memory canary (the ceiling family) beside the family"},
        {"--no-reference-check", kSwitch, kNotAFile, "", "no checking process: only time"},
        {"--skip-unchanged", kSwitch, kNotAFile, "", "benchmarks with the baseline's code and platform are not timed"},
        {"--same-code-ledger", kValue, kFileInOut, "FILE", "add the verdicts on unchanged code to this ledger"},
        {"--no-diagnosis", kSwitch, kNotAFile, "", "no Nsight Compute profile of a regression"},
        {"--runner-history", kValue, kFileIn, "FILE", "judge each runner against its own history (history-offsets)"},
        {"--format", kValue, kNotAFile, "gpuperf|gbench|nvbench", "the kind of suite --bench is (gpuperf)"},
        {"--fingerprint-library", kValue, kFileIn, "PATH", "a team's suite: the capture library (beside perf_gate)"},
        {"--record", kSwitch, kNotAFile, "", "record the suite's baseline into --baselines instead"},
        {"--", kRest, kNotAFile, "SUITE ARGS...", "arguments for each process of a team's suite"}}},
      {"ab-run",
       cli::run_ab_test,
       "two builds on this GPU, processes interleaved, no stored baseline",
       R"(  perf_gate ab-run --a BENCH_A --b BENCH_B --out DIR [--rounds N (6)] [--repetitions N (20)] [--filter REGEX]
                   [--tolerance-pct X (1.0)] [--max-remeasure N (4)] [--lock-wait SECONDS (1800)]
                   [--no-reference-check] [--no-diagnosis] [--same-code-ledger FILE] [--format gpuperf]
                   [--format gbench|nvbench --suite NAME [--fingerprint-library PATH] [-- SUITE ARGS...]]
      Compare build B with build A on this GPU (B's), no stored baseline: --rounds rounds of one process of
      each build, interleaved (A B, B A, ...), judged as ab does; AMBIGUOUS benchmarks get --rounds more
      rounds (at most --max-remeasure times), timed after the first rounds' other cases where both builds
      know --time-filter, alone otherwise. Round 1 checks both builds' cases against their references
      (--no-reference-check: it only times). This perf_gate judges: none need sit beside either build.
      On a regression, Nsight Compute profiles the slowest SLOW benchmarks in both builds.
      Writes into --out: a.roundN.json, b.roundN.json (each process, its .log beside), ab.md and
      ab.verdict.json. --format gbench, nvbench: two builds of a team's suite NAME, as run's (every
      benchmark each round; its own options after -- select them, not --filter; each build's
      fingerprints captured apart after round 1, as run's; --no-reference-check: none captured).
)",
       {{"--a", kValue, kFileIn, "BENCH_A", "build A's suite binary (the base)"},
        {"--b", kValue, kFileIn, "BENCH_B", "build B's suite binary (the change)"},
        {"--out", kValue, kNotAFile, "DIR", "the folder the rounds, logs and reports are written into"},
        {"--rounds", kValue, kNotAFile, "N (6)", "rounds of one process of each build"},
        {"--repetitions", kValue, kNotAFile, "N (20)", "repetitions of each benchmark in a process"},
        {"--filter", kValue, kNotAFile, "REGEX", "time only the benchmarks whose name matches"},
        {"--tolerance-pct", kValue, kNotAFile, "X (1.0)", "the change in percent that counts"},
        {"--max-remeasure", kValue, kNotAFile, "N (4)", "the most re-measurements of what is AMBIGUOUS"},
        {"--lock-wait", kValue, kNotAFile, "SECONDS (1800)", "how long to wait for the GPU's lock"},
        {"--process-timeout", kValue, kNotAFile, "SECONDS (900 + 60 x repetitions)",
         "the time limit of each process of the suite; 0: none"},
        {"--no-reference-check", kSwitch, kNotAFile, "", "round 1 only times, checks nothing"},
        {"--no-diagnosis", kSwitch, kNotAFile, "", "no Nsight Compute profile of a regression"},
        {"--same-code-ledger", kValue, kFileInOut, "FILE", "add the verdicts on unchanged code to this ledger"},
        {"--format", kValue, kNotAFile, "gpuperf|gbench|nvbench", "the kind of suite the builds are (gpuperf)"},
        {"--suite", kValue, kNotAFile, "NAME", "the team's suite (with --format gbench or nvbench)"},
        {"--fingerprint-library", kValue, kFileIn, "PATH", "a team's suite: the capture library (beside perf_gate)"},
        {"--", kRest, kNotAFile, "SUITE ARGS...", "arguments for each process of a team's suite"}}},
      {"compare",
       cli::run_compare,
       "judge results files of one GPU against its baseline",
       R"(  perf_gate compare --baseline FILE --results R1.json [R2.json ...] [--family F | --filter REGEX]
                    [--strict] [--skip-unchanged] [--looks K] [--alpha A] [--markdown OUT.md]
                    [--json OUT.json] [--remeasure-list OUT.txt] [--runner-history FILE] [--fail-on-platform]
                    [--same-code-ledger FILE]
      Judge results (Google Benchmark JSON of one GPU; each file is one process) against the GPU's
      baseline: per benchmark, the processes' medians against the baseline's, with a Student t interval
      on their spread. One line per benchmark that is not SAME, most severe first, then a summary.
      Results all from one GPU that recorded the baseline get its same_gpu_tolerance_pct as default.
      --strict: a benchmark of the baseline missing from the results fails. --alpha: the run's
      family-wise false-alarm rate (default 0.01), split over every benchmark of the baseline and --looks
      (the most times the caller judges one benchmark: 1 + re-measurements; default 1).
      --remeasure-list: the AMBIGUOUS benchmarks, one a line. --same-code-ledger: the verdicts on
      unchanged code are counted in FILE (as ledger) and the count is rendered in the reports. Every
      report names how the platform (driver, CUDA runtime, SM count, memory, median clocks beyond 2%)
      differs from the baseline's, and suggests re-recording when a quarter of the judged benchmarks
      moved with it.
      Memory canary: the ceiling benchmarks (copy, read, memset) in the results, whatever --family or
      --filter selects, compared with the baseline's like a verdict; when every one's interval lies
      beyond 1% in one direction, the reports warn that this machine streams memory slower (faster)
      and note it beside each memory-bound verdict. It never changes a verdict or the exit code.
      Code: where the results (a checking process of gpuperf_bench) and the baseline hold fingerprints,
      each verdict says what changed in the code it ran (SASS, registers, spills, launch configuration,
      library kernels and versions); a pass over new spills or a halved grid is a warning; the verdicts
      on unchanged code are counted. A SLOW or FAST over the same code is PLATFORM (the machine, driver
      or harness moved, not the code; exit 0) where both fingerprints cover all the GPU work of the
      timed region (kernels, launches, libraries, copies and sets), or where the baseline was measured
      with another method version (the reports' header says which); over fingerprints of kernels only
      it stays SLOW or FAST, its note saying why. --fail-on-platform: PLATFORM fails (exit 1).
      --skip-unchanged: a benchmark of the baseline not timed in the results, whose fingerprint there is
      the baseline's on the same platform, is UNCHANGED (a pass), not MISSING.
      --runner-history: the runners' histories of the baseline's code (perf_gate history-offsets). A
      benchmark with at least 10 runs on the results' GPU there is judged against that runner's own level
      at the same-GPU tolerance, its row noting the runner's offset from the baseline ("runner offset
      -3.52% +- 0.08% from 12 runs of unchanged code", +- a standard error); the others against the
      baseline as above. A file of another GPU model is an error; one of another baseline is not used,
      and the report says so.
)",
       {{"--baseline", kValue, kFileIn, "FILE", "the GPU's baseline (baselines/<gpu slug>.json)"},
        {"--results", kValues, kFileIn, "R.json...", "the results, one file per process"},
        {"--family", kValue, kNotAFile, "F", "judge only family F"},
        {"--filter", kValue, kNotAFile, "REGEX", "judge only the benchmarks whose name matches"},
        {"--strict", kSwitch, kNotAFile, "", "a benchmark of the baseline missing from the results fails"},
        {"--fail-on-platform", kSwitch, kNotAFile, "", "PLATFORM (the same code, beyond tolerance) fails: exit 1"},
        {"--skip-unchanged", kSwitch, kNotAFile, "", "an untimed benchmark with the baseline's code is UNCHANGED"},
        {"--looks", kValue, kNotAFile, "K (1)", "the most times a benchmark is judged: 1 + re-measurements"},
        {"--alpha", kValue, kNotAFile, "A (0.01)", "the run's family-wise false-alarm rate"},
        {"--markdown", kValue, kFileOut, "OUT.md", "write the report as Markdown"},
        {"--json", kValue, kFileOut, "OUT.json", "write the report as JSON"},
        {"--remeasure-list", kValue, kFileOut, "OUT.txt", "write the AMBIGUOUS benchmarks, one a line"},
        {"--runner-history", kValue, kFileIn, "FILE", "judge each runner against its own history (history-offsets)"},
        {"--same-code-ledger", kValue, kFileInOut, "FILE", "count the verdicts on unchanged code in this ledger"}}},
      {"unchanged",
       cli::run_unchanged,
       "list the benchmarks whose code and platform equal the baseline's",
       R"(  perf_gate unchanged --baseline FILE --results R.json [...] [--family F | --filter REGEX] --list OUT.txt
      Write the selected benchmarks whose fingerprint in the results (gpuperf_bench --fingerprint-only)
      equals the baseline's, on the same GPU model, driver and CUDA runtime: what need not be re-timed.
)",
       {{"--baseline", kValue, kFileIn, "FILE", "the GPU's baseline"},
        {"--results", kValues, kFileIn, "R.json...", "a checking process's fingerprints (--fingerprint-only)"},
        {"--family", kValue, kNotAFile, "F", "only family F"},
        {"--filter", kValue, kNotAFile, "REGEX", "only the benchmarks whose name matches"},
        {"--list", kValue, kFileOut, "OUT.txt", "write the unchanged benchmarks, one a line"}}},
      {"record",
       cli::run_record,
       "write a baseline from results, keeping the previous one's tolerances",
       R"(  perf_gate record --results R1.json [R2.json ...] --out FILE [--previous FILE] [--commit SHA]
                   [--default-tolerance-pct X] [--same-gpu-tolerance-pct X]
      Write a baseline (each results file is one process: its median per benchmark is kept; their GPU
      UUIDs are listed); keep defaults, families and hand-written per-benchmark tolerances of
      --previous; print what moved and how the platform differs from --previous. The file keeps the
      median SM and memory clocks of the samples and is replaced atomically. --same-gpu-tolerance-pct
      (> 0): the default for results from a listed GPU. Without --previous (a GPU's first baseline) the
      defaults are 4% and 2% on the recording GPU.
)",
       {{"--results", kValues, kFileIn, "R.json...", "the results, one file per process"},
        {"--out", kValue, kFileOut, "FILE", "the baseline to write (may be --previous)"},
        {"--previous", kValue, kFileReplaced, "FILE", "the baseline this one replaces: its tolerances are kept"},
        {"--commit", kValue, kNotAFile, "SHA", "the commit the results were measured at"},
        {"--default-tolerance-pct", kValue, kNotAFile, "X", "the default tolerance in percent (4)"},
        {"--same-gpu-tolerance-pct", kValue, kNotAFile, "X", "the tolerance on a GPU that recorded it (2)"}}},
      {"merge-baselines",
       cli::run_merge_baselines,
       "merge baselines of one GPU model recorded on different GPUs or hosts",
       R"(  perf_gate merge-baselines --recordings REC.json... --out FILE [--previous FILE]
      Merge baselines of one GPU model, one measuring method and one commit's code, each recorded on
      other GPUs (update_baseline.sh --all-gpus: every GPU of a host; hosts: pass this host's file both
      as --previous and as a recording). Each benchmark keeps every GPU's level (machine_medians): its
      median is their geometric mean and its cross-machine tolerance comes from their spread. Keeps
      defaults, families and hand-written tolerances of --previous, and its entries of families the
      recordings do not hold. Refuses a benchmark whose code, unit or presence differs between them.
)",
       {{"--recordings", kValues, kFileReplaced, "REC.json...", "the baselines to merge, one or more GPUs each"},
        {"--out", kValue, kFileOut, "FILE", "the baseline to write (may be --previous or a recording)"},
        {"--previous", kValue, kFileReplaced, "FILE", "the baseline this one replaces: its tolerances are kept"}}},
      {"migrate",
       cli::run_migrate,
       "rewrite a baseline of an older schema in the current one",
       R"(  perf_gate migrate --baseline FILE --out FILE
      Rewrite a baseline of an older schema_version in the current one (the numbers unchanged).
)",
       {{"--baseline", kValue, kFileReplaced, "FILE", "the baseline to read"},
        {"--out", kValue, kFileOut, "FILE", "the file to write (may be --baseline)"}}},
      {"ab",
       cli::run_ab,
       "judge the interleaved results of two builds on one GPU",
       R"(  perf_gate ab --a A1.json [A2.json ...] --b B1.json [B2.json ...] [--tolerance-pct X (default 1.0)]
               [--family F | --filter REGEX] [--looks K] [--alpha A] [--markdown OUT.md] [--json OUT.json]
               [--remeasure-list OUT.txt] [--same-code-ledger FILE]
      Compare build B with build A measured on one GPU, runs interleaved A1 B1 A2 B2 ...: pair i is
      (A_i, B_i); a benchmark absent from a pair is left out of it. Same verdicts, budget and exit codes
      as compare; the budget is split over every benchmark of A and B. The reports name how B's
      platform differs from A's. No memory canary: both builds run on one machine in interleaved
      rounds, so a shift of the machine moves A and B alike.
)",
       {{"--a", kValues, kFileIn, "A.json...", "build A's results, one file per process"},
        {"--b", kValues, kFileIn, "B.json...", "build B's results, one file per process, in A's order"},
        {"--tolerance-pct", kValue, kNotAFile, "X (1.0)", "the change in percent that counts"},
        {"--family", kValue, kNotAFile, "F", "judge only family F"},
        {"--filter", kValue, kNotAFile, "REGEX", "judge only the benchmarks whose name matches"},
        {"--looks", kValue, kNotAFile, "K (1)", "the most times a benchmark is judged: 1 + re-measurements"},
        {"--alpha", kValue, kNotAFile, "A (0.01)", "the run's family-wise false-alarm rate"},
        {"--markdown", kValue, kFileOut, "OUT.md", "write the report as Markdown"},
        {"--json", kValue, kFileOut, "OUT.json", "write the report as JSON"},
        {"--remeasure-list", kValue, kFileOut, "OUT.txt", "write the AMBIGUOUS benchmarks, one a line"},
        {"--same-code-ledger", kValue, kFileInOut, "FILE", "count the verdicts on unchanged code in this ledger"}}},
      {"ledger",
       cli::run_ledger,
       "add a report's verdicts on unchanged code to the false-alarm count",
       R"(  perf_gate ledger --ledger FILE --report VERDICT.json
      Add the report's timed verdicts on unchanged code (identical fingerprints) to the running count
      of its GPU model and mode in FILE (created if missing; updated under a lock, atomically): any SLOW
      or FAST among them is a false alarm of the gate. Prints the count with the observed false-alarm
      rate (of verdicts, and of reports). The report is left as it is: compare and ab
      --same-code-ledger FILE count as they judge and render the count in their reports. A report
      counted before (a retried step) changes nothing: the ledger remembers the reports it counted.
)",
       {{"--ledger", kValue, kFileInOut, "FILE", "the ledger to update (created if missing)"},
        {"--report", kValue, kFileIn, "VERDICT.json", "the report (compare or ab --json)"},
        {"--markdown", kValue, kFileIn, "REPORT.md", "refused: compare or ab --same-code-ledger renders the count"}}},
      {"ncu-metrics",
       cli::run_ncu_metrics,
       "print the Nsight Compute metrics the diagnosis collects",
       R"(  perf_gate ncu-metrics
      Print the Nsight Compute metrics the diagnosis collects, as the argument of ncu --metrics.
)",
       {}},
      {"ncu-diff",
       cli::run_ncu_diff,
       "set two Nsight Compute profiles of one benchmark side by side",
       R"(  perf_gate ncu-diff (--before A.csv | --before-stored FILE) (--after B.csv | --after-stored FILE)
                     [--benchmark NAME] [--title TEXT] [--before-label L] [--after-label L]
                     [--markdown OUT.md] [--json OUT.json]
      Set two Nsight Compute profiles of one benchmark side by side (ncu --csv --page raw --print-units
      base --metrics <ncu-metrics>): duration, DRAM and L2 throughput, achieved occupancy, registers,
      shared bank conflicts, instructions, the top 3 stall reasons. Markdown to stdout without --markdown.
      --before-stored, --after-stored: NAME's profile in a file of stored profiles (ncu-store).
)",
       {{"--before", kValue, kFileIn, "A.csv", "the profile before (ncu --csv)"},
        {"--before-stored", kValue, kFileIn, "FILE", "take the profile before from this file of stored profiles"},
        {"--benchmark", kValue, kNotAFile, "NAME", "the benchmark, in the stored profiles"},
        {"--after", kValue, kFileIn, "B.csv", "the profile after (ncu --csv)"},
        {"--after-stored", kValue, kFileIn, "FILE", "take the profile after from this file of stored profiles"},
        {"--title", kValue, kNotAFile, "TEXT", "the report's title"},
        {"--before-label", kValue, kNotAFile, "L", "what the before column is called"},
        {"--after-label", kValue, kNotAFile, "L", "what the after column is called"},
        {"--markdown", kValue, kFileOut, "OUT.md", "write the Markdown here, not to stdout"},
        {"--json", kValue, kFileOut, "OUT.json", "write the comparison as JSON"}}},
      {"ncu-store",
       cli::run_ncu_store,
       "keep Nsight Compute profiles beside a GPU's baseline",
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
       {{"--profiles", kValue, kFileInOut, "FILE", "the stored profiles to update (baselines/<slug>.ncu.json)"},
        {"--gpu", kValue, kNotAFile, "SLUG", "the GPU the profiles were taken on"},
        {"--benchmark", kValue, kNotAFile, "NAME", "--csv is this benchmark's profile alone"},
        {"--csv", kValue, kFileIn, "X.csv", "the profiles (ncu --csv)"},
        {"--fingerprints", kValue, kFileIn, "R.json", "a checking process's fingerprints, to attribute the rows"},
        {"--order", kValue, kFileIn, "ORDER.txt", "the order file of gpuperf_bench --profiler-window"}}},
      {"gpu",
       cli::run_gpu,
       "print the GPU slug of results (the name of their baseline)",
       R"(  perf_gate gpu --results R.json
      Print the GPU slug the results were measured on (names the baseline: baselines/<slug>.json).
)",
       {{"--results", kValues, kFileIn, "R.json", "one results file"}}},
      {"report",
       cli::run_report,
       "the fleet report: every variant on every GPU given",
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
       {{"--cases", kValue, kFileIn, "CASES.json", "the registry listing (gpuperf_bench --list-cases)"},
        {"--baseline", kValues, kFileIn, "FILE...", "a GPU's baseline (each one GPU)"},
        {"--results", kValues, kFileIn, "R.json...", "results files, grouped by their GPU"},
        {"--markdown", kValue, kFileOut, "OUT.md", "write the report as Markdown"},
        {"--json", kValue, kFileOut, "OUT.json", "write the report as JSON"},
        {"--chart", kValue, kNotAFile, "mermaid|none", "a chart per family in the Markdown (mermaid)"}}},
      {"order-table",
       cli::run_order_table,
       "the table of scripts/order_check.sh",
       R"(  perf_gate order-table --dir DIR [--markdown OUT.md]
      The table of scripts/order_check.sh from the files it wrote in DIR (<way>.round<r>.json, each one
      process): per way, how far each benchmark's median over rounds of its process medians is from the
      way "checked" (registry order, reference checks): the median, 90th percentile and largest absolute
      difference, then every benchmark more than 1% away in some way beside the checked processes' own
      spread (max/min - 1). Markdown to stdout without --markdown.
)",
       {{"--dir", kValue, kNotAFile, "DIR", "the folder order_check.sh wrote"},
        {"--markdown", kValue, kFileOut, "OUT.md", "write the table here, not to stdout"}}},
      {"calibration-report",
       cli::run_calibration_report,
       "the reports of scripts/calibrate.sh",
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
       {{"--verdicts", kValue, kFileIn, "VERDICTS.tsv", "the trials, one a line"},
        {"--gpu", kValue, kNotAFile, "NAME", "the GPU, for the headings"},
        {"--trials", kValue, kNotAFile, "N", "trials per slowdown"},
        {"--processes", kValue, kNotAFile, "N", "processes of the stored mode"},
        {"--repetitions", kValue, kNotAFile, "N", "repetitions of the stored mode"},
        {"--max-remeasure", kValue, kNotAFile, "N", "re-measurements of the stored mode"},
        {"--rounds", kValue, kNotAFile, "N", "rounds of the A/B mode"},
        {"--ab-repetitions", kValue, kNotAFile, "N", "repetitions of the A/B mode"},
        {"--ab-max-remeasure", kValue, kNotAFile, "N", "re-measurements of the A/B mode"},
        {"--markdown", kValue, kFileOut, "OUT.md", "write the report as Markdown"},
        {"--json", kValue, kFileOut, "OUT.json", "write the report as JSON"}}},
      {"name-rules",
       cli::run_name_rules,
       "the name rule as bash or CMake variables",
       R"(  perf_gate name-rules (--shell | --cmake)
      Print the rule of benchmark, family and GPU names (formats/names.h) as bash variables (--shell:
      scripts/lib/name_rules.sh) or CMake variables (--cmake: cmake/GpuperfNameRules.cmake): regular
      expressions and length limits, so that the scripts and KernelFamily.cmake never type the rule again.
      Both files are checked in; unit.name_rules fails when either differs from this output.
)",
       {{"--shell", kSwitch, kNotAFile, "", "print bash: readonly GPUPERF_<KIND>_RULE and GPUPERF_MAX_<KIND>_LENGTH"},
        {"--cmake", kSwitch, kNotAFile, "", "print CMake: set() of the same, without the benchmark name's"}}},
      {"phases",
       cli::run_phases,
       "where a run's time went, from its phase files",
       R"(  perf_gate phases --dir DIR [--markdown OUT.md] [--json OUT.json]
      Where a run's time went, from the phase files its steps wrote in DIR (<build>/perf-results/phases:
      scripts/ci/build.sh, scripts/ci/with_ctest_gpu.sh, perf_gate run; format in
      perf_tests/gate/phases/phase_files.h): the build, then per family the correctness and perf tests
      and the perf test's phases (waiting for the GPU, checking, first look, re-measurements, diagnosis),
      with totals; when tests ran at once, the step's wall time beside their sum. Markdown to stdout
      without --markdown and --json.
)",
       {{"--dir", kValue, kNotAFile, "DIR", "the folder of phase files"},
        {"--markdown", kValue, kFileOut, "OUT.md", "write the report as Markdown"},
        {"--json", kValue, kFileOut, "OUT.json", "write the report as JSON"}}},
      {"metrics",
       cli::run_metrics,
       "a run's medians for Bencher and github-action-benchmark",
       R"(  perf_gate metrics --verdict V.json [V2.json ...] [--bmf OUT.json] [--github-benchmark OUT.json]
      Write each benchmark's median of this run (the reports of perf_gate compare or ab --json, one GPU's;
      a benchmark in several: the last given) for the dashboards a team keeps: --bmf as Bencher Metric
      Format (microseconds as the measure latency in ns, cycles as the measure cycles), --github-benchmark
      as github-action-benchmark's customSmallerIsBetter (the verdict line as its extra). A benchmark with
      no median of this run (MISSING, ERROR) is left out and counted. Exit 0; 2 on bad input.
)",
       {{"--verdict", kValues, kFileIn, "V.json...", "the reports (compare or ab --json)"},
        {"--bmf", kValue, kFileOut, "OUT.json", "write Bencher Metric Format"},
        {"--github-benchmark", kValue, kFileOut, "OUT.json", "write github-action-benchmark's customSmallerIsBetter"}}},
      {"annotations",
       cli::run_annotations,
       "a run's GitHub annotations, one per benchmark not passed",
       R"(  perf_gate annotations --report V.json [V2.json ...]
      Print the GitHub workflow commands that annotate a run (the reports of perf_gate compare or ab
      --json): one per benchmark, SLOW, ERROR and MISSING as ::error::, NOT_JUDGED, AMBIGUOUS and PLATFORM
      as ::warning::, naming the benchmark, the GPU, the change, the tolerance and the reason, every field
      escaped so that none ends the line. A report the gate refuses to read (a name outside the rule, an
      unknown verdict) is one ::error:: saying so, and none of its benchmarks; the others are annotated.
      Exit 0; 2 when a report was refused.
)",
       {{"--report", kValues, kFileIn, "V.json...", "the reports (compare or ab --json)"}}},
      {"pr-comment",
       cli::run_pr_comment,
       "a run's pull-request comment, in Markdown",
       R"(  perf_gate pr-comment --run-url URL [--report V.json [V2.json ...]]
      Print the pull-request comment of a run (the reports of perf_gate compare or ab --json): a hidden
      marker line, one row per report (GPU, families, mode, outcome, counts), every benchmark that was not
      SAME (its change, interval and tolerance, or why it has none), and a link to the run (--run-url: an
      https:// address of letters, digits and . / _ -, else exit 2 and no comment). No --report: the
      comment says nothing was judged. A report the gate refuses to read (a name outside the rule, an
      unknown verdict or outcome) is one row saying so, none of its fields; the others are shown.
      Exit 0; 2 when a report was refused or the URL is not one.
)",
       {{"--run-url", kValue, kNotAFile, "URL", "the run the comment links to (https://...)"},
        {"--report", kValues, kFileIn, "V.json...", "the reports (compare or ab --json)"}}},
      {"history-append",
       cli::run_history_append,
       "keep a run in the history store",
       R"(  perf_gate history-append --store S --verdict V.json [V2.json ...] --results R1.json [R2.json ...]
                           --commit SHA --date YYYY-MM-DDTHH:MM:SSZ --run-key KEY [--runner NAME]
      Keep a run in the history store S (sqlite:PATH or a bare PATH: a SQLite file, created if missing;
      postgresql://...: a PostgreSQL database): per benchmark timed in the results (each file one
      process), its process medians, its final verdict in the reports (perf_gate compare --json, one per
      family; a benchmark in several: the last given) and a hash of its fingerprint; the GPU, driver and
      baseline judged against. KEY is unique per CI job and the same for its retries: a run whose key is
      stored already adds nothing (exit 0 either way). Writers appending at once lose nothing.
)",
       {{"--store", kValue, kFileInOut, "S", "the store: sqlite:PATH, PATH or postgresql://..."},
        {"--verdict", kValues, kFileIn, "V.json...", "the run's reports (compare --json)"},
        {"--results", kValues, kFileIn, "R.json...", "the run's results, one file per process"},
        {"--commit", kValue, kNotAFile, "SHA", "the commit measured"},
        {"--date", kValue, kNotAFile, "YYYY-MM-DDTHH:MM:SSZ", "when it ran"},
        {"--run-key", kValue, kNotAFile, "KEY", "unique per CI job, the same for its retries"},
        {"--runner", kValue, kNotAFile, "NAME", "the runner it ran on"}}},
      {"history-export",
       cli::run_history_export,
       "write a GPU's history as JSON",
       R"(  perf_gate history-export --store S --gpu SLUG --json OUT [--ledger FILE]
      Write the history of GPU SLUG in the store S as JSON (schema_version 1, gate/history/series_json.h):
      per benchmark its points oldest first (commit, date, process medians, their median, verdict, code
      hash, baseline); --ledger: the same-code ledger's file (perf_gate ledger) added as "ledger".
)",
       {{"--store", kValue, kFileIn, "S", "the store: sqlite:PATH, PATH or postgresql://..."},
        {"--gpu", kValue, kNotAFile, "SLUG", "the GPU"},
        {"--json", kValue, kFileOut, "OUT", "write the export"},
        {"--ledger", kValue, kFileIn, "FILE", "add the same-code ledger (perf_gate ledger)"}}},
      {"history-changes",
       cli::run_history_changes,
       "find change points and drift in a GPU's history",
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
       {{"--store", kValue, kFileIn, "S", "the store: sqlite:PATH, PATH or postgresql://..."},
        {"--gpu", kValue, kNotAFile, "SLUG", "the GPU"},
        {"--json", kValue, kFileOut, "OUT", "write the export with the change points"},
        {"--markdown", kValue, kFileOut, "OUT", "write the changes as a report section"},
        {"--baseline", kValue, kFileIn, "FILE", "judge the drift against this baseline"},
        {"--ledger", kValue, kFileIn, "FILE", "add the same-code ledger (perf_gate ledger)"},
        {"--min-effect-pct", kValue, kNotAFile, "X (1)", "the smallest change in percent reported"},
        {"--previous", kValue, kFileIn, "FILE", "the previous --json: list only what is new since"}}},
      {"history-offsets",
       cli::run_history_offsets,
       "each runner's history of a baseline's code",
       R"(  perf_gate history-offsets --store S --baseline FILE --out FILE
      The runners' histories of the baseline's code, for compare and run --runner-history: per GPU UUID
      and benchmark of the baseline's GPU model, that runner's last 30 runs whose code hash for the
      benchmark is the hash of the baseline's fingerprint (a benchmark without one gets none), each run
      its process medians. Prints, per runner, how many benchmarks have the 10 runs a check needs and the
      range of their offsets from the baseline. Written whole or not at all; a GPU job reads the file,
      no database client needed (docs/history.md).
)",
       {{"--store", kValue, kFileIn, "S", "the store: sqlite:PATH, PATH or postgresql://..."},
        {"--baseline", kValue, kFileIn, "FILE", "the baseline whose code is looked for"},
        {"--out", kValue, kFileOut, "FILE", "write the runners' histories"}}},
      {"history-remove",
       cli::run_history_remove,
       "take a run out of the history store",
       R"(  perf_gate history-remove --store S --run-key KEY
      Take the run KEY (its points' run_key in history-export) out of the history store S, with its
      results, in one transaction: a run whose values are wrong (a broken runner, a hand edit) is gone from
      every export. Prints what it removed; exit 2 when S holds no run KEY.
)",
       {{"--store", kValue, kFileInOut, "S", "the store: sqlite:PATH, PATH or postgresql://..."},
        {"--run-key", kValue, kNotAFile, "KEY", "the run to remove"}}},
      {"history-runs",
       cli::run_history_runs,
       "count the runs in the history store",
       R"(  perf_gate history-runs --store S [--key-prefix P]
      Print how many runs the store S holds (every GPU), or with --key-prefix how many whose run key
      starts with P: the CI job's check that a store it uploads holds no fewer runs than the one it
      replaces, and that a workflow run is kept already (P: <repository>/<run id>/).
)",
       {{"--store", kValue, kFileIn, "S", "the store: sqlite:PATH, PATH or postgresql://..."},
        {"--key-prefix", kValue, kNotAFile, "P", "count only the runs whose key starts with P"}}},
  };
  return table;
}

// The command `name`, or UsageError naming the nearest one.
const Command& command_named(const std::string& name) {
  std::vector<std::string> names;
  for (const Command& command : commands()) {
    if (name == command.name) return command;
    names.emplace_back(command.name);
  }
  throw UsageError("unknown command '" + name + "'" + cli::did_you_mean(name, names));
}

// Whether the arguments of a command ask for its help: "--help" before any "--" (after which the
// arguments belong to another program), or "-h" alone.
bool asks_for_help(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[1] == "-h") return true;
  for (std::size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
    if (args[i] == "--help") return true;
  }
  return false;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string command_name;  // the command being parsed: the pointer after an error names its help
  try {
    if (args.empty()) throw UsageError("no command given");
    if (args[0] == "--help" || args[0] == "-h" || (args[0] == "help" && args.size() == 1)) {
      out << cli::command_list_text(commands());
      return formats::kExitPass;
    }
    if (args[0] == "help") {
      if (args.size() > 2) throw UsageError("help takes one command");
      out << cli::command_help_text(command_named(args[1]));
      return formats::kExitPass;
    }
    if (args[0] == "--version") {
      if (args.size() > 1) throw UsageError("--version takes no arguments");
      out << formats::kHarnessVersionLine << "\n";
      return formats::kExitPass;
    }
    const Command& command = command_named(args[0]);
    command_name = command.name;
    if (asks_for_help(args)) {
      out << cli::command_help_text(command);
      return formats::kExitPass;
    }
    const Arguments arguments(command.name, {args.begin() + 1, args.end()}, command.options);
    cli::check_outputs_are_not_inputs(arguments, command.options);
    return command.run(arguments, out, err);
  } catch (const UsageError& e) {
    err << "perf_gate: " << e.what() << "\n" << cli::help_pointer_line(command_name) << "\n";
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
