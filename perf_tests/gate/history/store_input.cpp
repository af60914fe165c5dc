#include "gate/history/store_input.h"

#include <regex>
#include <set>

#include "formats/escape.h"
#include "formats/fnv1a.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "gate/judging/code_change.h"
#include "gate/judging/outcome.h"
#include "gate/judging/verdict.h"
#include "gate/reports/reports.h"

namespace gpuperf::gate::history {
namespace {

constexpr const char* kReportHint = "give the --json report of perf_gate compare (perf-results/<family>.verdict.json)";

void check_label(const char* option, const std::string& value, const std::regex& rule, std::size_t max_length,
                 const char* rule_words) {
  if (value.size() <= max_length && std::regex_match(value, rule)) return;
  throw formats::InputError(std::string(option) + " '" + formats::escape_console(value.substr(0, max_length)) +
                            (value.size() > max_length ? "...'" : "'") + " is not valid: " + rule_words);
}

std::set<std::string> verdict_names() {
  std::set<std::string> names;
  for (int v = 0; v < kVerdictCount; ++v) names.insert(verdict_name(static_cast<Verdict>(v)));
  return names;
}

// "baseline recorded 2026-11-23T23:24:59Z at commit b8b76be" (judging/stored_mode.cpp): the date.
std::string recorded_date(const std::string& against) {
  static const std::regex form(R"(^baseline recorded (\S+) at commit .*)");
  std::smatch match;
  return std::regex_match(against, match, form) ? match[1].str() : "";
}

struct Reports {
  std::string gpu_slug;
  std::string baseline_recorded;
  std::string harness_version;
  std::map<std::string, std::string> verdicts;  // by benchmark name; a later report's wins
};

void read_report(const std::string& text, const std::string& source, Reports& reports) {
  const nlohmann::json json = formats::parse_json_document(text, source);
  const formats::ObjectReader top(json, source, "", kReportHint);
  top.schema_version(kReportSchemaVersion);
  const std::string mode = top.string("mode");
  if (mode != "compare") {
    top.fail("mode", "is '" + formats::escape_console(mode) +
                         "', expected 'compare': the history keeps runs judged against the stored baseline");
  }
  const std::string slug = top.object("gpu").non_empty_string("slug");
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, slug); !error.empty()) {
    top.object("gpu").fail("slug", error);
  }
  if (!reports.gpu_slug.empty() && slug != reports.gpu_slug) {
    top.object("gpu").fail("slug", "is " + slug + ", another GPU than the other reports' (" + reports.gpu_slug +
                                       "): a run is one GPU's");
  }
  reports.gpu_slug = slug;
  if (const std::optional<std::string> against = top.optional_string("against")) {
    const std::string date = recorded_date(*against);
    if (!date.empty()) reports.baseline_recorded = date;
  }
  if (const std::optional<std::string> harness = top.optional_string("harness_version")) {
    reports.harness_version = *harness;
  }
  static const std::set<std::string> known = verdict_names();
  const nlohmann::json& benchmarks = top.array("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const formats::ObjectReader row = top.element("benchmarks", i, benchmarks[i]);
    const std::string name = row.non_empty_string("name");
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, name); !error.empty()) {
      row.fail("name", error);
    }
    const std::string verdict = row.string("verdict");
    if (known.count(verdict) == 0) {
      row.fail("verdict", "is '" + formats::escape_console(verdict) + "', expected a verdict of perf_gate");
    }
    reports.verdicts[name] = verdict;
  }
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
