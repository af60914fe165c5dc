#include "gate/history/store_input.h"

#include <regex>

#include "formats/escape.h"
#include "formats/fnv1a.h"
#include "formats/input_error.h"
#include "formats/names.h"
#include "gate/judging/code_change.h"
#include "gate/judging/verdict.h"
#include "gate/judging/verdict_report.h"

namespace gpuperf::gate::history {
namespace {

constexpr const char* kReportHint = "give the --json report of perf_gate compare (perf-results/<family>.verdict.json)";

void check_label(const char* option, const std::string& value, const std::regex& rule, std::size_t max_length,
                 const char* rule_words) {
  if (value.size() <= max_length && std::regex_match(value, rule)) return;
  throw formats::InputError(std::string(option) + " '" + formats::escape_console(value.substr(0, max_length)) +
                            (value.size() > max_length ? "...'" : "'") + " is not valid: " + rule_words);
}

struct Reports {
  std::string gpu_slug;
  std::string baseline_recorded;
  std::string harness_version;
  std::map<std::string, std::string> verdicts;  // by benchmark name; a later report's wins
};

// One verdict report (gate/judging/verdict_report.h reads and checks it) added to what the others said.
void read_report(const std::string& text, const std::string& source, Reports& reports) {
  const VerdictReport report = read_verdict_report(text, source);
  if (report.mode != "compare") {
    throw formats::InputError(source + ": mode is '" + report.mode +
                              "', expected 'compare': the history keeps runs judged against the stored baseline - " +
                              kReportHint);
  }
  if (!reports.gpu_slug.empty() && report.gpu_slug != reports.gpu_slug) {
    throw formats::InputError(source + ": gpu.slug is " + report.gpu_slug + ", another GPU than the other reports' (" +
                              reports.gpu_slug + "): a run is one GPU's - " + kReportHint);
  }
  reports.gpu_slug = report.gpu_slug;
  if (!report.baseline_recorded.empty()) reports.baseline_recorded = report.baseline_recorded;
  if (!report.harness_version.empty()) reports.harness_version = report.harness_version;
  for (const VerdictRow& row : report.rows) reports.verdicts[row.name] = row.verdict;
}

}  // namespace

void check_run_key(const std::string& run_key) {
  check_label("--run-key", run_key, std::regex(R"([A-Za-z0-9/_.:-]+)"), kMaxRunKeyLength,
              "a run key is letters, digits and / _ . : - (CI: <repository>/<workflow run id>/<GPU UUID>)");
}

void check_labels(const RunLabels& labels) {
  check_run_key(labels.run_key);
  check_label("--commit", labels.commit, std::regex("[0-9a-f]{7,40}"), 40,
              "a commit is 7 to 40 lower-case hex digits (git rev-parse HEAD)");
  check_label("--date", labels.date, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"), 20,
              "a date is ISO 8601 UTC in this one form: 2026-11-24T17:05:38Z (date -u +%Y-%m-%dT%H:%M:%SZ)");
  if (!labels.runner.empty()) {
    check_label("--runner", labels.runner, std::regex(R"([A-Za-z0-9 _.-]+)"), kMaxRunnerLength,
                "a runner name is letters, digits, space and _ . -");
  }
}

std::string code_hash(const formats::Fingerprint& fingerprint) {
  if (fingerprint.capture_status != formats::kCapturedByCupti) return "";
  // One field a line, each kernel's fields in a fixed order: the text of what compare_code compares.
  std::string text;
  for (const formats::KernelLaunch& k : fingerprint.kernels) {
    text += "kernel " + stable_mangled_name(k.mangled_name);
    for (const int value : {k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1], k.block[2],
                            k.dynamic_shared_memory_bytes, k.registers_per_thread, k.static_shared_memory_bytes,
                            k.local_memory_per_thread_bytes, k.launches}) {
      text += " " + std::to_string(value);
    }
    text += " " + k.sass_hash + "\n";
  }
  for (const auto& [library, version] : fingerprint.libraries) text += "library " + library + " " + version + "\n";
  return formats::hex16(formats::fnv1a64(text));
}

RunRecord run_from_reports(const RunLabels& labels, const std::vector<std::string>& reports,
                           const std::vector<std::string>& report_sources, const std::vector<ResultsFile>& results) {
  check_labels(labels);
  Reports judged;
  for (std::size_t i = 0; i < reports.size(); ++i) read_report(reports[i], report_sources.at(i), judged);
  if (results.empty()) throw formats::InputError("no results file given: give the run's results (--results)");
  RunRecord run;
  run.run_key = labels.run_key;
  run.commit = labels.commit;
  run.date = labels.date;
  run.runner = labels.runner;
  run.gpu_slug = common_gpu_slug(results);
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, run.gpu_slug); !error.empty()) {
    throw formats::InputError(results.front().source + ": " + error);
  }
  if (!judged.gpu_slug.empty() && judged.gpu_slug != run.gpu_slug) {
    throw formats::InputError("the reports judged " + judged.gpu_slug + " but the results were measured on " +
                              run.gpu_slug + ": give one run's reports and results");
  }
  run.gpu_uuid = common_gpu_uuid(results);
  for (const ResultsFile& file : results) {
    if (run.driver.empty()) run.driver = file.gpu.driver;
    if (run.cuda_runtime.empty()) run.cuda_runtime = file.gpu.cuda_runtime;
  }
  run.baseline_recorded = judged.baseline_recorded;
  run.harness_version = judged.harness_version;
  const std::map<std::string, formats::Fingerprint> fingerprints = pool_fingerprints(results);
  for (const ResultsFile& file : results) {
    for (const auto& [name, samples] : file.benchmarks) {
      if (run.benchmarks.count(name) != 0) continue;
      std::vector<double> medians = process_medians(results, name, kMinSamples);
      if (medians.empty()) continue;  // not timed in any process (throttled, an error): no point to keep
      BenchmarkRecord& record = run.benchmarks[name];
      record.process_medians = std::move(medians);
      record.unit = samples.unit;
      const auto verdict = judged.verdicts.find(name);
      if (verdict != judged.verdicts.end()) record.verdict = verdict->second;
      const auto fingerprint = fingerprints.find(name);
      if (fingerprint != fingerprints.end()) record.code_hash = code_hash(fingerprint->second);
    }
  }
  if (run.benchmarks.empty()) {
    throw formats::InputError("no benchmark of the results has a process with " + std::to_string(kMinSamples) +
                              " valid samples: nothing to keep - give the run's timed results (<family>.run*.json)");
  }
  return run;
}

}  // namespace gpuperf::gate::history
