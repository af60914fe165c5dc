// run, ab-run: the driver's commands (gate/driver/): a perf test against the stored baseline, and two
// builds compared; the options parsed into the procedures' options, the suites made from --format.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "formats/names.h"
#include "gate/cli/commands.h"
#include "gate/driver/ab_run.h"
#include "gate/driver/process.h"
#include "gate/driver/shared_steps.h"
#include "gate/driver/shards.h"
#include "gate/driver/stored_run.h"
#include "gate/driver/suite_format.h"
#include "gate/driver/suite_record.h"
#include "gate/driver/team_fingerprints.h"
#include "gate/driver/team_suite.h"
#include "gate/inputs/baseline.h"

namespace gpuperf::gate::cli {
namespace {

constexpr int kMaxProcesses = 100;
constexpr int kMaxRepetitions = 100000;
constexpr int kMaxRemeasure = 99;      // looks_budget at most 100, the most perf_gate compare takes
constexpr int kMaxLockWaitS = 604800;  // a week [s]
constexpr int kMaxRounds = 1000;
constexpr int kMaxProcessTimeoutS = 604800;  // a week [s]

// --process-timeout SECONDS, else the default for `repetitions` (driver/process.h); 0 for no limit.
int process_timeout_s(const Arguments& args, int repetitions) {
  return args.whole_number("--process-timeout", 0, kMaxProcessTimeoutS)
      .value_or(driver::default_process_timeout_s(repetitions));
}

// The --format given, gpuperf where none is. DriverStop (exit 2) for an unknown one.
driver::SuiteFormat format_of(const Arguments& args) {
  return driver::parse_suite_format(args.has("--format") ? args.value("--format") : "gpuperf");
}

// The folder of this perf_gate, where its capture library is looked for (team_fingerprints.h); "" where
// it cannot be read.
std::string executable_folder() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "" : self.parent_path().string();
}

// A team's suite (gbench, nvbench) takes its benchmarks' family from --family (run) or --suite (ab-run), and
// the arguments after "--" for each of its processes. --filter is a regular expression over our suite's
// names; a team selects what its suite runs with its tool's own option, among the arguments after "--".
std::unique_ptr<driver::Suite> suite_from(const Arguments& args, const std::string& program) {
  const driver::SuiteFormat format = format_of(args);
  const std::vector<std::string> arguments = args.has("--") ? args.list("--") : std::vector<std::string>{};
  if (format == driver::SuiteFormat::kGpuperf) {
    if (!arguments.empty()) throw UsageError("arguments after -- are for a team's suite (--format gbench, nvbench)");
    if (args.has("--fingerprint-library")) {
      throw UsageError("--fingerprint-library is for a team's suite (--format gbench, nvbench): our own suite "
                       "captures its fingerprints in its checking process");
    }
    return driver::make_suite(format, program);
  }
  if (args.has("--filter")) {
    throw UsageError(std::string("--filter selects our suite's cases; a team's suite selects its own benchmarks "
                                 "among the arguments after -- (") +
                     (format == driver::SuiteFormat::kGbench ? "-- --benchmark_filter=REGEX"
                                                              : "nvbench: every benchmark of its binary runs; "
                                                                "-- --axis NAME=VALUES narrows their axes") +
                     ")");
  }
  const std::string family = args.has("--family") ? args.value("--family") : args.value("--suite");
  if (const std::string error = formats::name_error(formats::NameKind::kFamily, family); !error.empty()) {
    throw formats::InputError(std::string(args.has("--family") ? "--family" : "--suite") + " (the suite's name, "
                              "the family of its benchmarks' names): " + error);
  }
  std::unique_ptr<driver::Suite> suite = driver::make_suite(format, program, family, arguments);
  static_cast<driver::TeamSuite&>(*suite).set_fingerprint_library(
      driver::find_fingerprint_library(args.value("--fingerprint-library"), executable_folder()));
  return suite;
}

// A variable of the environment; nullopt where it is unset or empty (as bash's ${NAME:-default}).
std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr || *value == '\0' ? std::nullopt : std::optional<std::string>(value);
}

// --family F, or --shard I/N of our own suite (shards.h).
driver::StoredRunOptions stored_run_options(const Arguments& args) {
  driver::StoredRunOptions options;
  if (args.has("--shard")) {
    if (args.has("--family")) throw UsageError("give --family or --shard, not both");
    if (format_of(args) != driver::SuiteFormat::kGpuperf) {
      throw UsageError("--shard cuts our own suite (--format gpuperf); a team's suite is judged whole, by --family");
    }
    options.shard = driver::parse_shard(args.value("--shard"));
  } else {
    options.family = args.required("--family");
    if (const std::string error = formats::name_error(formats::NameKind::kFamily, options.family); !error.empty()) {
      throw formats::InputError("--family: " + error);
    }
  }
  args.required("--bench");
  options.baselines = args.required("--baselines");
  options.out = args.required("--out");
  options.processes = args.whole_number("--processes", 1, kMaxProcesses).value_or(options.processes);
  options.repetitions = args.whole_number("--repetitions", 1, kMaxRepetitions).value_or(options.repetitions);
  options.max_remeasure = args.whole_number("--max-remeasure", 0, kMaxRemeasure).value_or(options.max_remeasure);
  options.lock_wait_s = args.whole_number("--lock-wait", 0, kMaxLockWaitS).value_or(options.lock_wait_s);
  options.strict = args.has("--strict");
  options.fail_on_platform = args.has("--fail-on-platform");
  options.canary = !args.has("--no-canary");
  options.check_references = !args.has("--no-reference-check");
  options.skip_unchanged = args.has("--skip-unchanged");
  options.diagnosis = !args.has("--no-diagnosis");
  options.same_code_ledger = args.value("--same-code-ledger");
  options.runner_history = args.value("--runner-history");
  options.phases_dir = environment("GPUPERF_PHASES_DIR").value_or("");
  options.git_commit = environment("GPUPERF_GIT_COMMIT");
  return options;
}

driver::AbRunOptions ab_run_options(const Arguments& args) {
  driver::AbRunOptions options;
  args.required("--a");
  args.required("--b");
  options.out = args.required("--out");
  options.rounds = args.whole_number("--rounds", 1, kMaxRounds).value_or(options.rounds);
  options.repetitions = args.whole_number("--repetitions", 1, kMaxRepetitions).value_or(options.repetitions);
  if (args.has("--filter")) options.filter = args.value("--filter");
  options.tolerance_pct = args.number("--tolerance-pct", 0.0, kMaxTolerancePct).value_or(options.tolerance_pct);
  options.max_remeasure = args.whole_number("--max-remeasure", 0, kMaxRemeasure).value_or(options.max_remeasure);
  options.lock_wait_s = args.whole_number("--lock-wait", 0, kMaxLockWaitS).value_or(options.lock_wait_s);
  options.check_references = !args.has("--no-reference-check");
  options.diagnosis = !args.has("--no-diagnosis");
  options.same_code_ledger = args.value("--same-code-ledger");
  return options;
}

// --record: the suite's baseline instead of a test against it (driver/suite_record.h), 10 processes unless
// --processes says; our own suite (--format gpuperf) whole, a team's by its name (--family).
driver::RecordRunOptions record_run_options(const Arguments& args) {
  for (const char* option : {"--max-remeasure", "--strict", "--no-canary", "--no-reference-check", "--skip-unchanged",
                             "--same-code-ledger", "--no-diagnosis", "--shard", "--runner-history",
                             "--fail-on-platform"}) {
    if (args.has(option)) {
      throw UsageError(std::string(option) + " is an option of a perf test: leave it out of --record, which records "
                       "a baseline");
    }
  }
  const bool whole_suite = format_of(args) == driver::SuiteFormat::kGpuperf;
  if (whole_suite && args.has("--family")) {
    throw UsageError("--record of our own suite (--format gpuperf) records every family: the GPU's baseline, "
                     "DIR/<gpu slug>.json, holds them all - leave --family out");
  }
  driver::RecordRunOptions options;
  if (!whole_suite) options.family = args.required("--family");  // checked by suite_from
  args.required("--bench");
  options.baselines = args.required("--baselines");
  options.out = args.required("--out");
  options.processes = args.whole_number("--processes", 1, kMaxProcesses).value_or(options.processes);
  options.repetitions = args.whole_number("--repetitions", 1, kMaxRepetitions).value_or(options.repetitions);
  options.lock_wait_s = args.whole_number("--lock-wait", 0, kMaxLockWaitS).value_or(options.lock_wait_s);
  options.commit = environment("GPUPERF_GIT_COMMIT").value_or("");
  return options;
}

}  // namespace

int run_stored_test(const Arguments& args, std::ostream& out, std::ostream& err) {
  try {
    if (args.has("--record")) {
      const driver::RecordRunOptions options = record_run_options(args);
      const driver::ProcessTimeLimit limit(process_timeout_s(args, options.repetitions));
      const std::unique_ptr<driver::Suite> suite = suite_from(args, args.value("--bench"));
      return driver::record_suite_baseline(options, *suite, out, err);
    }
    const driver::StoredRunOptions options = stored_run_options(args);
    const driver::ProcessTimeLimit limit(process_timeout_s(args, options.repetitions));
    const std::unique_ptr<driver::Suite> suite = suite_from(args, args.value("--bench"));
    return driver::run_against_baseline(options, *suite, out, err);
  } catch (const driver::DriverStop& stop) {
    return driver::report_stop(stop, err);
  }
}

int run_ab_test(const Arguments& args, std::ostream& out, std::ostream& err) {
  const driver::AbRunOptions options = ab_run_options(args);
  const driver::ProcessTimeLimit limit(process_timeout_s(args, options.repetitions));
  try {
    const std::unique_ptr<driver::Suite> a = suite_from(args, args.value("--a"));
    const std::unique_ptr<driver::Suite> b = suite_from(args, args.value("--b"));
    return driver::run_ab(options, *a, *b, out, err);
  } catch (const driver::DriverStop& stop) {
    return driver::report_stop(stop, err);
  }
}

}  // namespace gpuperf::gate::cli
