#include "gate/cli/cli.h"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "formats/atomic_file.h"
#include "formats/case_listing.h"
#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/version.h"
#include "gate/analysis/calibration.h"
#include "gate/analysis/calibration_report.h"
#include "gate/analysis/order_table.h"
#include "gate/analysis/order_table_report.h"
#include "gate/fleet/measurements.h"
#include "gate/fleet/render.h"
#include "gate/fleet/table.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/platform.h"
#include "gate/inputs/results.h"
#include "gate/judging/ab_mode.h"
#include "gate/judging/code_check.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/ledger/same_code_ledger.h"
#include "gate/ncu/profile.h"
#include "gate/ncu/stored_profiles.h"
#include "gate/recording/record.h"
#include "gate/reports/reports.h"

namespace gpuperf::gate {

const char* const kUsage = R"(usage:
  perf_gate compare --baseline FILE --results R1.json [R2.json ...] [--family F | --filter REGEX]
                    [--strict] [--skip-unchanged] [--looks K] [--alpha A] [--markdown OUT.md]
                    [--json OUT.json] [--remeasure-list OUT.txt]
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
  perf_gate unchanged --baseline FILE --results R.json [...] [--family F | --filter REGEX] --list OUT.txt
      Write the selected benchmarks whose fingerprint in the results (gpuperf_bench --fingerprint-only)
      equals the baseline's, on the same GPU model, driver and CUDA runtime: what need not be re-timed.
  perf_gate record --results R1.json [R2.json ...] --out FILE [--previous FILE] [--commit SHA]
                   [--default-tolerance-pct X] [--same-gpu-tolerance-pct X]
      Write a baseline (each results file is one process: its median per benchmark is kept; their GPU
      UUIDs are listed); keep defaults, families and hand-written per-benchmark tolerances of
      --previous; print what moved and how the platform differs from --previous. The file keeps the
      median SM and memory clocks of the samples and is replaced atomically. --same-gpu-tolerance-pct
      (> 0): the default for results from a listed GPU. Without --previous (a GPU's first baseline) the
      defaults are 4% and 2% on the recording GPU.
  perf_gate migrate --baseline FILE --out FILE
      Rewrite a baseline of an older schema_version in the current one (the numbers unchanged).
  perf_gate ab --a A1.json [A2.json ...] --b B1.json [B2.json ...] [--tolerance-pct X (default 1.0)]
               [--family F | --filter REGEX] [--looks K] [--alpha A] [--markdown OUT.md] [--json OUT.json]
               [--remeasure-list OUT.txt]
      Compare build B with build A measured on one GPU, runs interleaved A1 B1 A2 B2 ...: pair i is
      (A_i, B_i); a benchmark absent from a pair is left out of it. Same verdicts, budget and exit codes
      as compare; the budget is split over every benchmark of A and B. The reports name how B's
      platform differs from A's. No memory canary: both builds run on one machine in interleaved
      rounds, so a shift of the machine moves A and B alike.
  perf_gate ledger --ledger FILE --report VERDICT.json [--markdown REPORT.md]
      Add the report's timed verdicts on unchanged code (identical fingerprints) to the running count
      of its GPU model and mode in FILE (created if missing; updated under a lock, atomically): any SLOW
      or FAST among them is a false alarm of the gate. Prints the count with the observed false-alarm
      rate (of verdicts, and of reports), appends that line to REPORT.md and writes the count into
      VERDICT.json ("same_code_ledger"). A report counted before (a retried step) changes
      nothing: the ledger remembers the reports it counted.
  perf_gate ncu-metrics
      Print the Nsight Compute metrics the diagnosis collects, as the argument of ncu --metrics.
  perf_gate ncu-diff (--before A.csv | --before-stored FILE --benchmark NAME) --after B.csv [--title TEXT]
                     [--before-label L] [--after-label L] [--markdown OUT.md] [--json OUT.json]
      Set two Nsight Compute profiles of one benchmark side by side (ncu --csv --page raw --print-units
      base --metrics <ncu-metrics>): duration, DRAM and L2 throughput, achieved occupancy, registers,
      shared bank conflicts, instructions, the top 3 stall reasons. Markdown to stdout without --markdown.
      --before-stored: NAME's profile in the profiles stored beside a baseline (ncu-store).
  perf_gate ncu-store --profiles FILE --gpu SLUG --benchmark NAME --csv X.csv
      Store NAME's profile (ncu's --csv output, as for ncu-diff) in FILE, the profiles kept beside the
      baseline of GPU SLUG (baselines/<slug>.ncu.json; created if missing, updated under a lock,
      replaced atomically).
  perf_gate gpu --results R.json
      Print the GPU slug the results were measured on (names the baseline: baselines/<slug>.json).
  perf_gate report --cases CASES.json (--baseline FILE ... | --results R.json ...)... [--markdown OUT.md]
                   [--json OUT.json] [--chart mermaid|none]
      The fleet report: every perf case of the registry listing (gpuperf_bench --list-cases > CASES.json)
      on every GPU given, one table per family in registry order. Per GPU: time, GB/s or TFLOP/s, % of
      that GPU's own ceiling (the case's compared_with measured on the same GPU) and the speedup over the
      seed's naive variant (its speedup_over); with 2+ GPUs the time on the first GPU over the time on each
      other one (above 1: faster there). A --baseline is one GPU; --results files (each one process) are
      grouped by their GPU slug, a benchmark's time being the median of the files' medians. GPUs in the
      order given. --chart mermaid (default): a Mermaid bar chart per family in the Markdown. Without
      --markdown and --json the Markdown goes to stdout. Formats and rules: perf_tests/gate/fleet_report.md.
  perf_gate order-table --dir DIR [--markdown OUT.md]
      The table of scripts/order_check.sh from the files it wrote in DIR (<way>.round<r>.json, each one
      process): per way, how far each benchmark's median over rounds of its process medians is from the
      way "checked" (registry order, reference checks): the median, 90th percentile and largest absolute
      difference, then every benchmark more than 1% away in some way beside the checked processes' own
      spread (max/min - 1). Markdown to stdout without --markdown.
  perf_gate calibration-report --verdicts VERDICTS.tsv --gpu NAME --trials N --processes N --repetitions N
                               --max-remeasure N --rounds N --ab-repetitions N --ab-max-remeasure N
                               [--markdown OUT.md] [--json OUT.json]
      The reports of scripts/calibrate.sh from its trials (VERDICTS.tsv: mode, slowdown %, benchmark,
      first verdict, final verdict, tolerance; one line a trial): per mode (stored, ab) and benchmark,
      caught (final SLOW) / trials per slowdown, caught at the first look where it differs, trials left
      AMBIGUOUS, the smallest slowdown from which every larger one was caught in >= 95% of trials, and
      the false alarms on clean (+0%) runs. The numbers name the settings in the headings. Markdown to
      stdout without --markdown and --json.
  perf_gate --version
      Print the harness's release, "gpuperf MAJOR.MINOR.PATCH" (semantic versioning), which every
      report and recorded baseline names (harness_version), and exit 0.

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
  meanwhile through FILE.lock, which stays beside it.
)";

namespace {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

// What a subcommand accepts: options taking one value, options taking one or more, and switches.
struct CommandSpec {
  std::set<std::string> single;
  std::set<std::string> lists;
  std::set<std::string> switches;
};

const std::map<std::string, CommandSpec>& command_specs() {
  static const std::map<std::string, CommandSpec> specs = {
      {"compare",
       {{"--baseline", "--family", "--filter", "--markdown", "--json", "--remeasure-list", "--alpha", "--looks"},
        {"--results"},
        {"--strict", "--skip-unchanged"}}},
      {"record",
       {{"--out", "--previous", "--commit", "--default-tolerance-pct", "--same-gpu-tolerance-pct"}, {"--results"}, {}}},
      {"migrate", {{"--baseline", "--out"}, {}, {}}},
      {"ab",
       {{"--tolerance-pct", "--family", "--filter", "--markdown", "--json", "--remeasure-list", "--alpha", "--looks"},
        {"--a", "--b"},
        {}}},
      {"gpu", {{}, {"--results"}, {}}},
      {"ledger", {{"--ledger", "--report", "--markdown"}, {}, {}}},
      {"ncu-metrics", {{}, {}, {}}},
      {"ncu-diff",
       {{"--before", "--before-stored", "--benchmark", "--after", "--title", "--before-label", "--after-label",
         "--markdown", "--json"},
        {},
        {}}},
      {"ncu-store", {{"--profiles", "--gpu", "--benchmark", "--csv"}, {}, {}}},
      {"unchanged", {{"--baseline", "--family", "--filter", "--list"}, {"--results"}, {}}},
      {"report", {{"--cases", "--markdown", "--json", "--chart"}, {"--baseline", "--results"}, {}}},
      {"order-table", {{"--dir", "--markdown"}, {}, {}}},
      {"calibration-report",
       {{"--verdicts", "--gpu", "--trials", "--processes", "--repetitions", "--max-remeasure", "--rounds",
         "--ab-repetitions", "--ab-max-remeasure", "--markdown", "--json"},
        {},
        {}}},
  };
  return specs;
}

class Arguments {
 public:
  Arguments(const std::vector<std::string>& args, const CommandSpec& spec) {
    for (std::size_t i = 1; i < args.size();) {
      const std::string& option = args[i++];
      if (spec.switches.count(option) != 0) {
        switches_.insert(option);
        continue;
      }
      const bool single = spec.single.count(option) != 0;
      if (!single && spec.lists.count(option) == 0) throw UsageError("unknown option '" + option + "' for " + args[0]);
      std::vector<std::string>& values = values_[option];
      if (single && !values.empty()) throw UsageError(option + " given twice");
      while (i < args.size() && args[i].rfind("--", 0) != 0) {
        values.push_back(args[i++]);
        if (single) break;
      }
      if (values.empty()) throw UsageError(option + " needs a value");
    }
  }

  bool has(const std::string& option) const { return values_.count(option) != 0 || switches_.count(option) != 0; }
  std::string value(const std::string& option) const { return has(option) ? values_.at(option).front() : ""; }
  const std::vector<std::string>& list(const std::string& option) const {
    const auto it = values_.find(option);
    if (it == values_.end()) throw UsageError(option + " is required");
    return it->second;
  }
  std::string required(const std::string& option) const {
    if (!has(option)) throw UsageError(option + " is required");
    return value(option);
  }
  std::optional<double> number(const std::string& option, double low, double high) const {
    if (!has(option)) return std::nullopt;
    const std::string text = value(option);
    double parsed = 0.0;
    std::size_t used = 0;
    try {
      parsed = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || !std::isfinite(parsed) || parsed < low || parsed > high) {
      std::ostringstream message;
      message << option << " '" << text << "' must be a number in [" << low << ", " << high << "]";
      throw UsageError(message.str());
    }
    return parsed;
  }

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> switches_;
};

constexpr double kMinAlpha = 1e-12;
constexpr double kMaxAlpha = 0.5;
constexpr int kMaxLooks = 100;
// The longest --filter [characters]: far beyond any name the registry has (kMaxBenchmarkNameLength), and
// short enough that std::regex, which matches recursively, cannot nest deep enough to overflow the stack
// on a name of that length.
constexpr std::size_t kMaxFilterLength = 256;

int looks_from(const Arguments& args) {
  const std::optional<double> looks = args.number("--looks", 1, kMaxLooks);
  if (looks && *looks != static_cast<int>(*looks)) throw UsageError("--looks must be a whole number");
  return looks ? static_cast<int>(*looks) : 1;
}

Selection selection_from(const Arguments& args) {
  if (args.has("--family") && args.has("--filter")) throw UsageError("give --family or --filter, not both");
  if (args.has("--family")) return Selection::family(args.value("--family"));
  if (args.has("--filter")) {
    const std::string filter = args.value("--filter");
    if (filter.size() > kMaxFilterLength) {
      throw UsageError("--filter is " + std::to_string(filter.size()) + " characters long; at most " +
                       std::to_string(kMaxFilterLength) + " are accepted (a benchmark name has at most " +
                       std::to_string(kMaxBenchmarkNameLength) + ") - use --family or a shorter expression");
    }
    return Selection::filter(filter);
  }
  return {};
}

// The output options of a command that are given, checked (check_output_path, each file once) before
// anything is read or computed: a bad one fails the call at once, with nothing written.
std::vector<std::string> checked_outputs(const Arguments& args, std::initializer_list<const char*> options) {
  std::vector<std::string> paths;
  formats::OutputFiles probe;
  for (const char* option : options) {
    if (!args.has(option)) continue;
    paths.push_back(args.value(option));
    probe.add(paths.back(), "");
  }
  return paths;
}

constexpr std::initializer_list<const char*> kReportOutputs = {"--markdown", "--json", "--remeasure-list"};

void write_requested_reports(const Arguments& args, const Comparison& comparison) {
  formats::OutputFiles files;
  if (args.has("--markdown")) {
    std::ostringstream markdown;
    write_markdown_report(comparison, markdown);
    files.add(args.value("--markdown"), markdown.str());
  }
  if (args.has("--json")) files.add(args.value("--json"), json_report(comparison));
  if (args.has("--remeasure-list")) files.add(args.value("--remeasure-list"), remeasure_list(comparison));
  files.write();
}

int finish(const Arguments& args, const Comparison& comparison, std::ostream& out) {
  write_requested_reports(args, comparison);
  write_console_report(comparison, out);
  return exit_code(comparison);
}

int run_compare(const Arguments& args, std::ostream& out) {
  CompareOptions options;
  options.selection = selection_from(args);
  options.run_alpha = args.number("--alpha", kMinAlpha, kMaxAlpha).value_or(kDefaultRunAlpha);
  options.looks = looks_from(args);
  options.strict = args.has("--strict");
  options.skip_unchanged = args.has("--skip-unchanged");
  checked_outputs(args, kReportOutputs);
  const Baseline baseline = load_baseline(args.required("--baseline"));
  const std::vector<ResultsFile> results = load_results_files(args.list("--results"));
  return finish(args, compare_with_baseline(baseline, results, options), out);
}

NcuProfile load_ncu_profile(const std::string& path) {
  return parse_ncu_csv(formats::read_text_file(path, "did ncu write its --csv output there?"), path);
}

NcuBaseline load_ncu_baseline(const std::string& path) {
  return ncu_baseline_from_text(formats::read_text_file(path, "record the profiles with scripts/record_ncu.sh"), path);
}

NcuProfile before_profile(const Arguments& args) {
  if (args.has("--before") == args.has("--before-stored")) throw UsageError("give --before or --before-stored");
  if (args.has("--before")) return load_ncu_profile(args.value("--before"));
  const std::string path = args.value("--before-stored");
  const std::string benchmark = args.required("--benchmark");
  const NcuBaseline stored = load_ncu_baseline(path);
  const auto profile = stored.benchmarks.find(benchmark);
  if (profile == stored.benchmarks.end()) {
    throw formats::InputError(path + " holds no profile of " + benchmark +
                     " - record it with scripts/record_ncu.sh (it was added after the recording?)");
  }
  return profile->second;
}

int run_ncu_store(const Arguments& args, std::ostream& out) {
  const std::string path = args.required("--profiles");
  const std::string slug = args.required("--gpu");
  const std::string benchmark = args.required("--benchmark");
  // Both reach the file and every report that reads it: held to the names' rule (formats/names.h).
  if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, benchmark); !error.empty()) {
    throw UsageError("--benchmark: " + error);
  }
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, slug); !error.empty()) {
    throw UsageError("--gpu: " + error);
  }
  checked_outputs(args, {"--profiles"});
  const NcuProfile profile = load_ncu_profile(args.required("--csv"));
  NcuBaseline stored;
  stored.gpu_slug = slug;
  // Read, add and write under the file's lock: parallel stores into one file each keep their profile.
  const formats::FileLock lock(path);
  if (formats::input_file_exists(path)) {
    stored = load_ncu_baseline(path);
    if (stored.gpu_slug != slug) {
      throw formats::InputError(path + " holds profiles of " + stored.gpu_slug + ", not " + slug +
                       " - each GPU's profiles go beside its own baseline");
    }
  }
  stored.benchmarks[benchmark] = profile;
  formats::write_file_atomically(path, ncu_baseline_to_text(stored));
  out << "stored the profile of " << benchmark << " (" << profile.kernels.size() << " kernel launches) in " << path
      << "\n";
  return formats::kExitPass;
}

int run_ncu_diff(const Arguments& args, std::ostream& out) {
  checked_outputs(args, {"--markdown", "--json"});
  const NcuProfile before = before_profile(args);
  const NcuProfile after = load_ncu_profile(args.required("--after"));
  const std::string before_label = args.has("--before-label") ? args.value("--before-label") : "before";
  const std::string after_label = args.has("--after-label") ? args.value("--after-label") : "after";
  std::string markdown = args.has("--title") ? "#### " + args.value("--title") + "\n\n" : "";
  markdown += markdown_diff_table(diff_profiles(before, after), before_label, after_label);
  formats::OutputFiles files;
  if (args.has("--json")) {
    const nlohmann::json doc = {{"before", before}, {"after", after}};
    files.add(args.value("--json"), doc.dump(2) + "\n");
  }
  if (args.has("--markdown")) files.add(args.value("--markdown"), markdown);
  files.write();
  if (!args.has("--markdown")) out << markdown;
  return formats::kExitPass;
}

int run_ledger(const Arguments& args, std::ostream& out, std::ostream& err) {
  const std::string ledger_path = args.required("--ledger");
  const std::string report_path = args.required("--report");
  const std::string hint = "give the --json report of perf_gate compare or ab";
  const std::vector<std::string> outputs = checked_outputs(args, {"--ledger", "--report", "--markdown"});
  // Every file this call reads and rewrites stays locked from its read to its write.
  const formats::FileLocks locks(outputs);
  // Rewritten below with its keys in their order.
  nlohmann::ordered_json report = formats::parse_ordered_json_document(formats::read_text_file(report_path, hint), report_path);
  const nlohmann::json sorted_report = nlohmann::json::parse(report.dump());
  const SameCodeVerdicts verdicts = same_code_verdicts(sorted_report, report_path);
  const std::string id = report_id(sorted_report);
  SameCodeLedger ledger;
  if (formats::input_file_exists(ledger_path)) ledger = ledger_from_text(formats::read_text_file(ledger_path, "is it readable?"), ledger_path);
  const bool repeated = counted_before(ledger, id);
  if (!repeated) add_to_ledger(ledger, verdicts, utc_now_iso8601(), id);
  const auto gpu = ledger.tallies.find(verdicts.gpu_slug);
  if (gpu == ledger.tallies.end() || gpu->second.count(verdicts.mode) == 0) {
    formats::write_file_atomically(ledger_path, ledger_to_text(ledger));  // created if missing, as a count of nothing
    out << "same code: nothing counted yet for " << formats::escape_console(verdicts.gpu_name) << " (" << verdicts.mode << "): " << report_path
        << " holds no timed verdict on unchanged code\n";
    return formats::kExitPass;
  }
  const SameCodeTally& tally = gpu->second.at(verdicts.mode);
  const std::string line = ledger_line(tally, verdicts.mode);
  if (repeated) {
    // A retried CI step: counting it again would inflate the count; its report and Markdown have the line.
    err << "perf_gate: " << report_path << " was counted in " << ledger_path
        << " already (the same report); nothing changed\n";
    out << line << "\n";
    return formats::kExitPass;
  }
  report["same_code_ledger"] = tally_json(tally);
  formats::OutputFiles files;
  files.add(ledger_path, ledger_to_text(ledger));
  files.add(report_path, report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (args.has("--markdown")) {
    const std::string markdown = args.value("--markdown");
    files.add(markdown, formats::read_text_file(markdown, "write it with perf_gate --markdown first") + "\n" + line + "\n");
  }
  files.write();
  out << line << "\n";
  return formats::kExitPass;
}

int run_unchanged(const Arguments& args, std::ostream& out) {
  const Selection selection = selection_from(args);
  const std::string list_path = args.required("--list");
  checked_outputs(args, {"--list"});
  const Baseline baseline = load_baseline(args.required("--baseline"));
  const std::vector<ResultsFile> results = load_results_files(args.list("--results"));
  const std::set<std::string> unchanged = unchanged_benchmarks(baseline, results, selection);
  std::string list;
  for (const std::string& name : unchanged) list += name + "\n";
  formats::write_file_atomically(list_path, list);
  int selected = 0;
  for (const auto& entry : pool_fingerprints(results)) selected += selection.matches(entry.first) ? 1 : 0;
  out << unchanged.size() << " of " << selected
      << " fingerprinted benchmarks unchanged (the baseline's code, GPU model, driver and CUDA runtime): not re-timed";
  if (const std::string why = why_platform_prevents_skipping(baseline, results); !why.empty()) out << "; " << why;
  out << "\n";
  return formats::kExitPass;
}

int run_ab(const Arguments& args, std::ostream& out) {
  AbOptions options;
  options.selection = selection_from(args);
  options.run_alpha = args.number("--alpha", kMinAlpha, kMaxAlpha).value_or(kDefaultRunAlpha);
  options.looks = looks_from(args);
  options.tolerance_pct = args.number("--tolerance-pct", 0.0, kMaxTolerancePct).value_or(kDefaultAbTolerancePct);
  checked_outputs(args, kReportOutputs);
  const std::vector<ResultsFile> a = load_results_files(args.list("--a"));
  const std::vector<ResultsFile> b = load_results_files(args.list("--b"));
  return finish(args, compare_ab(a, b, options), out);
}

int run_record(const Arguments& args, std::ostream& out) {
  RecordOptions options;
  options.commit = args.value("--commit");
  options.default_tolerance_pct = args.number("--default-tolerance-pct", 0.0, kMaxTolerancePct);
  options.same_gpu_tolerance_pct = args.number("--same-gpu-tolerance-pct", 0.0, kMaxTolerancePct);
  // The baseline reader refuses zero (it would fail any significant change): refuse it before recording.
  if (options.same_gpu_tolerance_pct && *options.same_gpu_tolerance_pct == 0.0) {
    throw UsageError("--same-gpu-tolerance-pct must be greater than 0");
  }
  const std::string path = args.required("--out");
  checked_outputs(args, {"--out"});
  const std::vector<ResultsFile> runs = load_results_files(args.list("--results"));
  // --previous is usually the file --out replaces: read and written under its lock, so that two recordings
  // of one GPU model at once each leave a whole file.
  const formats::FileLock lock(path);
  std::optional<Baseline> previous;
  if (args.has("--previous")) previous = load_baseline(args.value("--previous"));
  const Baseline baseline = record_baseline(runs, previous ? &*previous : nullptr, options);
  formats::write_file_atomically(path, baseline_to_text(baseline));
  out << "wrote " << path << ": " << baseline.benchmarks.size() << " benchmarks of " << baseline.gpu.name << " ("
      << baseline.gpu.slug << "), " << baseline.recorded.runs << " runs, commit " << baseline.recorded.commit << "\n";
  if (previous) {
    out << "what moved versus " << args.value("--previous") << " (largest change first):\n";
    write_moves(baseline_moves(*previous, baseline), out);
    // What may have moved them: the runs against the platform of the previous file.
    const std::string changed = describe_changes(platform_changes(platform_of(*previous), platform_of(runs)));
    if (!changed.empty()) out << "platform versus " << args.value("--previous") << ": " << changed << "\n";
  }
  return formats::kExitPass;
}

int run_migrate(const Arguments& args, std::ostream& out) {
  const std::string from = args.required("--baseline");
  const std::string to = args.required("--out");
  checked_outputs(args, {"--out"});
  const formats::FileLock lock(to);
  const Baseline baseline = load_baseline(from);
  formats::write_file_atomically(to, baseline_to_text(baseline));
  out << "wrote " << to << ": " << from << " in schema_version " << kBaselineSchemaVersion << "\n";
  return formats::kExitPass;
}

int run_gpu(const Arguments& args, std::ostream& out) {
  const std::vector<std::string>& paths = args.list("--results");
  if (paths.size() != 1) throw UsageError("gpu takes exactly one --results file");
  const ResultsFile results = load_results(paths.front());
  if (results.gpu.slug.empty()) {
    throw formats::InputError(paths.front() +
                     ": context has no gpu_slug - write the results with the project's perf "
                     "binary, which records it");
  }
  out << results.gpu.slug << "\n";
  return formats::kExitPass;
}

// The --baseline and --results files of `args` in the order given, each with its option: the report's GPU
// columns follow it, which the per-option lists of Arguments do not keep.
std::vector<std::pair<std::string, std::string>> report_inputs(const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, std::string>> inputs;
  std::string option;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i].rfind("--", 0) == 0) {
      option = args[i] == "--baseline" || args[i] == "--results" ? args[i] : "";
    } else if (!option.empty()) {
      inputs.emplace_back(option, args[i]);
    }
  }
  return inputs;
}

FleetChart chart_from(const Arguments& args) {
  const std::string chart = args.has("--chart") ? args.value("--chart") : "mermaid";
  if (chart == "mermaid") return FleetChart::kMermaid;
  if (chart == "none") return FleetChart::kNone;
  throw UsageError("--chart '" + chart + "' must be mermaid or none");
}

int run_report(const std::vector<std::string>& raw, const Arguments& args, std::ostream& out) {
  const std::string cases = args.required("--cases");
  const FleetChart chart = chart_from(args);
  checked_outputs(args, {"--markdown", "--json"});
  const std::vector<std::pair<std::string, std::string>> inputs = report_inputs(raw);
  if (inputs.empty()) {
    throw UsageError("report needs what to tabulate: one --baseline FILE per GPU and/or --results FILES");
  }
  const formats::CaseListing listing = formats::load_case_listing(cases);
  std::vector<FleetInput> loaded;
  for (const auto& [option, path] : inputs) {
    if (option == "--baseline") {
      loaded.emplace_back(BaselineInput{path, load_baseline(path)});
    } else {
      loaded.emplace_back(load_results(path));
    }
  }
  const FleetReport report = build_fleet_report(listing, fleet_gpus(std::move(loaded)));
  // Both renderings first: a failure leaves no file written.
  std::ostringstream markdown;
  write_fleet_markdown(report, chart, markdown);
  const std::string json = fleet_json_report(report);
  if (!args.has("--markdown") && !args.has("--json")) {
    out << markdown.str();
    return formats::kExitPass;
  }
  formats::OutputFiles files;
  if (args.has("--markdown")) files.add(args.value("--markdown"), markdown.str());
  if (args.has("--json")) files.add(args.value("--json"), json);
  files.write();
  std::size_t rows = 0;
  for (const FleetFamily& family : report.families) rows += family.rows.size();
  out << "fleet report: " << rows << " benchmarks in " << report.families.size()
      << (report.families.size() == 1 ? " family on " : " families on ")
      << report.gpus.size() << (report.gpus.size() == 1 ? " GPU" : " GPUs");
  for (std::size_t i = 0; i < report.gpus.size(); ++i) out << (i == 0 ? " (" : ", ") << report.gpus[i].slug;
  out << ")";
  if (!report.unlisted.empty()) out << "; " << report.unlisted.size() << " measured but not in " << cases;
  out << "\n";
  return formats::kExitPass;
}

int run_order_table(const Arguments& args, std::ostream& out) {
  const std::string dir = args.required("--dir");
  checked_outputs(args, {"--markdown"});
  const std::vector<std::string> paths = analysis::list_order_run_files(dir);
  if (paths.empty()) {
    throw formats::InputError("no <way>.round<r>.json files in " + dir + " - give the --out folder of scripts/order_check.sh");
  }
  std::vector<ResultsFile> results = load_results_files(paths);
  std::vector<analysis::OrderRun> runs;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const analysis::OrderRunName name =
        *analysis::parse_order_run_name(std::filesystem::path(paths[i]).filename().string());
    runs.push_back({name.way, name.round, std::move(results[i])});
  }
  const std::string markdown = analysis::order_table_markdown(analysis::build_order_table(runs));
  if (!args.has("--markdown")) {
    out << markdown;
    return formats::kExitPass;
  }
  formats::write_file_atomically(args.value("--markdown"), markdown);
  out << "order table: " << runs.size() << " processes in " << dir << ", written to " << args.value("--markdown")
      << "\n";
  return formats::kExitPass;
}

int run_calibration_report(const Arguments& args, std::ostream& out) {
  // A count of the script's: a whole number in [low, 1e6].
  const auto whole = [&args](const char* option, int low) {
    const double value = *args.number(option, low, 1e6);
    if (value != static_cast<int>(value)) throw UsageError(std::string(option) + " must be a whole number");
    return static_cast<int>(value);
  };
  for (const char* option : {"--verdicts", "--gpu", "--trials", "--processes", "--repetitions", "--max-remeasure",
                             "--rounds", "--ab-repetitions", "--ab-max-remeasure"}) {
    args.required(option);
  }
  analysis::CalibrationSettings settings;
  settings.gpu_name = args.value("--gpu");
  if (const std::string error = formats::name_error(formats::NameKind::kGpu, settings.gpu_name); !error.empty()) {
    throw UsageError("--gpu: " + error);
  }
  settings.trials_per_cell = whole("--trials", 1);
  settings.processes = whole("--processes", 1);
  settings.repetitions = whole("--repetitions", 1);
  settings.max_remeasure = whole("--max-remeasure", 0);
  settings.ab_rounds = whole("--rounds", 1);
  settings.ab_repetitions = whole("--ab-repetitions", 1);
  settings.ab_max_remeasure = whole("--ab-max-remeasure", 0);
  checked_outputs(args, {"--markdown", "--json"});
  const std::string path = args.value("--verdicts");
  const analysis::CalibrationReport report = analysis::build_calibration_report(
      analysis::parse_calibration_trials(formats::read_text_file(path, "write it with scripts/calibrate.sh"), path), settings);
  const std::string markdown = analysis::calibration_markdown(report);
  if (!args.has("--markdown") && !args.has("--json")) {
    out << markdown;
    return formats::kExitPass;
  }
  formats::OutputFiles files;
  if (args.has("--markdown")) files.add(args.value("--markdown"), markdown);
  if (args.has("--json")) files.add(args.value("--json"), analysis::calibration_json(report));
  files.write();
  out << "calibration report: " << report.cells.size() << " cells of " << report.modes.size()
      << (report.modes.size() == 1 ? " mode" : " modes") << " from " << path << "\n";
  return formats::kExitPass;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    if (args.empty()) throw UsageError("no command given");
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      out << kUsage;
      return formats::kExitPass;
    }
    if (args[0] == "--version") {
      if (args.size() > 1) throw UsageError("--version takes no arguments");
      out << formats::kHarnessVersionLine << "\n";
      return formats::kExitPass;
    }
    const auto spec = command_specs().find(args[0]);
    if (spec == command_specs().end()) throw UsageError("unknown command '" + args[0] + "'");
    const Arguments arguments(args, spec->second);
    if (args[0] == "compare") return run_compare(arguments, out);
    if (args[0] == "unchanged") return run_unchanged(arguments, out);
    if (args[0] == "ncu-diff") return run_ncu_diff(arguments, out);
    if (args[0] == "ncu-store") return run_ncu_store(arguments, out);
    if (args[0] == "ledger") return run_ledger(arguments, out, err);
    if (args[0] == "ncu-metrics") {
      out << ncu_metrics_argument() << "\n";
      return formats::kExitPass;
    }
    if (args[0] == "ab") return run_ab(arguments, out);
    if (args[0] == "record") return run_record(arguments, out);
    if (args[0] == "migrate") return run_migrate(arguments, out);
    if (args[0] == "report") return run_report(args, arguments, out);
    if (args[0] == "order-table") return run_order_table(arguments, out);
    if (args[0] == "calibration-report") return run_calibration_report(arguments, out);
    return run_gpu(arguments, out);
  } catch (const UsageError& e) {
    err << "perf_gate: " << e.what() << "\n\n" << kUsage;
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
