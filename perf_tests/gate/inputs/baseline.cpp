#include "gate/inputs/baseline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>
#include <utility>

#include "formats/escape.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/measuring_method.h"
#include "formats/names.h"
#include "formats/nearest_name.h"
#include "gate/inputs/results.h"
#include "gate/inputs/runner_history.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

using nlohmann::json;

constexpr const char* kFixHint =
    "fix the file by hand, or re-record it: scripts/update_baseline.sh (see baselines/README.md)";

// A number as a message shows it: "1000", "1e+308", "46.3".
std::string format_value(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

using formats::ObjectReader;

// The keys each object of a baseline may hold (baselines/README.md, "Schema"); every other is refused by
// require_baseline_keys. The fingerprint's own keys are formats/fingerprint.h's to check.
constexpr std::initializer_list<const char*> kBaselineTopKeys = {"schema_version", "gpu",      "recorded",
                                                                 "defaults",       "families", "benchmarks"};
constexpr std::initializer_list<const char*> kBaselineGpuKeys = {
    "name", "slug", "compute_capability", "sm_count", "memory_mib", "driver", "cuda_runtime", "sm_clock_mhz", "mem_clock_mhz"};
constexpr std::initializer_list<const char*> kBaselineRecordedKeys = {
    "date", "commit", "harness_version", "runs", "samples_per_run", "gpu_uuids", "measuring_method",
    "machine_groups"};
constexpr std::initializer_list<const char*> kBaselineDefaultsKeys = {"tolerance_pct", "same_gpu_tolerance_pct"};
constexpr std::initializer_list<const char*> kBaselineFamilyKeys = {"tolerance_pct"};
constexpr std::initializer_list<const char*> kBaselineEntryKeys = {"unit",  "median",        "process_medians", "bytes",
                                                                   "flops", "tolerance_pct", "fingerprint",
                                                                   "machine_medians"};
// Schema 1 pooled the samples and kept their spread (which schema 2 computes from process_medians).
constexpr std::initializer_list<const char*> kBaselineSchema1EntryKeys = {"unit",  "median",        "samples", "spread_pct",
                                                                          "bytes", "flops",         "tolerance_pct"};

constexpr const char* kUnknownKeyHint =
    "rename or remove it (baselines/README.md lists the fields); a file written by a newer perf_gate needs that "
    "perf_gate";

// A key the gate does not know is an error, never ignored: a misspelt optional key ("tolerence_pct") read as
// absent, and one typo moved a same-GPU tolerance from 2% to 4%. The message names the nearest known key.
void require_baseline_keys(const ObjectReader& object, std::initializer_list<const char*> known) {
  const std::vector<std::string> names(known.begin(), known.end());
  for (const auto& [key, value] : object.raw().items()) {
    if (std::find(names.begin(), names.end(), key) != names.end()) continue;
    std::string what = "is not a field the gate knows here";
    if (const std::optional<std::string> nearest = formats::nearest_name(key, names)) {
      what += ": did you mean `" + *nearest + "`?";
    } else {
      std::string listed;
      for (const std::string& name : names) listed += (listed.empty() ? "" : ", ") + name;
      what += " (it knows " + listed + ")";
    }
    object.with_hint(kUnknownKeyHint).fail_at(object.field(formats::escape_console(key)), what);
  }
}

// Tolerances a file may hold but that are unlikely meant (warned of, never refused) [percent]: below the
// 0.1% that processes on one GPU agree to, a tolerance fails on noise and is most often a fraction
// written for a percentage (0.02 meant 2%); above 50%, a benchmark may take half as long again and pass.
constexpr double kLowestPlausibleTolerancePct = 0.1;
constexpr double kHighestPlausibleTolerancePct = 50.0;

// What a tolerance outside the plausible range likely means, for the warning; "" when it is plausible.
std::string implausible_tolerance_meaning(double pct) {
  if (pct == 0.0) return "0%: every significant change fails, however small";
  if (pct < kLowestPlausibleTolerancePct) {
    return "below " + format_value(kLowestPlausibleTolerancePct) + "%: if it is a fraction, write it in percent (" +
           format_value(pct) + " as a fraction is " + format_value(pct * 100.0) + "%)";
  }
  if (pct > kHighestPlausibleTolerancePct) {
    return "above " + format_value(kHighestPlausibleTolerancePct) + "%: a benchmark may slow down by more than half and pass";
  }
  return "";
}

// The tolerances of one file that implausible_tolerance_meaning warns of, as "<path> is <value>".
using ImplausibleTolerances = std::vector<std::pair<std::string, double>>;

// An optional tolerance [percent], checked by why_not_tolerance_pct; `positive`: zero refused too. An
// implausible one is added to `implausible`.
std::optional<double> tolerance(const ObjectReader& object, const char* key, ImplausibleTolerances& implausible,
                                bool positive = false) {
  const std::optional<double> value = object.optional_number(key);
  if (!value) return std::nullopt;
  const std::string why = *value == 0.0 && positive ? "zero" : why_not_tolerance_pct(*value);
  if (!why.empty()) {
    object.fail(key, "is " + why + ", expected a " + (positive ? "positive, finite number" : "finite number >= 0") +
                         " of at most " + format_value(kMaxTolerancePct) + " (percent)");
  }
  if (!implausible_tolerance_meaning(*value).empty()) implausible.emplace_back(object.field(key), *value);
  return value;
}

// The one warning of a file's implausible tolerances: the first, what it likely means, how many more.
std::string implausible_tolerances_warning(const ImplausibleTolerances& implausible, const std::string& source) {
  const auto& [path, pct] = implausible.front();
  std::string warning = source + ": " + path + " is " + format_value(pct) + " (percent), " + implausible_tolerance_meaning(pct);
  if (implausible.size() > 1) {
    warning += "; " + std::to_string(implausible.size() - 1) + " more tolerance" + (implausible.size() > 2 ? "s" : "") +
               " of the file outside " + format_value(kLowestPlausibleTolerancePct) + "% to " +
               format_value(kHighestPlausibleTolerancePct) + "%";
  }
  return warning + " - check the file's tolerances (baselines/README.md)";
}

// A name the file gives (the GPU's, a family's, a benchmark's) reaches every report: it must keep
// formats/names.h's rule, checked before it is used anywhere, even in a message.
void require_name(formats::NameKind kind, const std::string& name, const std::string& source, const char* where) {
  const std::string error = formats::name_error(kind, name);
  if (!error.empty()) throw formats::InputError(source + ": " + where + ": " + error + " - " + kFixHint);
}

bool is_known_unit(const std::string& unit) { return unit == formats::kUnitMicroseconds || unit == formats::kUnitCycles; }

// Significant digits a written sample keeps: far finer than any timer, and it drops the binary noise of
// unit conversions (9.0651684000000001) that would make every re-record diff look larger than it is.
constexpr int kWrittenSignificantDigits = 7;

double rounded_for_writing(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", kWrittenSignificantDigits, value);
  return std::strtod(text, nullptr);
}

// Schema 1 pooled every process's samples in recording order: split them back where the counts allow.
std::vector<double> process_medians_from_pooled(const std::vector<double>& samples, const BaselineRecorded& recorded) {
  const auto runs = static_cast<std::size_t>(std::max(recorded.runs, 1));
  const auto per_run = static_cast<std::size_t>(std::max(recorded.samples_per_run, 0));
  if (runs == 1 || per_run == 0 || samples.size() != runs * per_run) return {median(samples)};
  std::vector<double> medians;
  for (std::size_t run = 0; run < runs; ++run) {
    medians.push_back(median(std::vector<double>(samples.begin() + static_cast<std::ptrdiff_t>(run * per_run),
                                                 samples.begin() + static_cast<std::ptrdiff_t>((run + 1) * per_run))));
  }
  return medians;
}

// The families of the file's benchmarks (the first part of each name), each once.
std::vector<std::string> families_of(const std::map<std::string, BaselineEntry>& benchmarks) {
  std::vector<std::string> families;
  for (const auto& [name, entry] : benchmarks) {
    const std::string family = name.substr(0, name.find('/'));
    if (families.empty() || families.back() != family) families.push_back(family);
  }
  return families;
}

// A family override is for a family of the file's benchmarks. One that names none, near the name of one,
// is a misspelling: an error naming that family. One that names nothing near is a family whose
// benchmarks left the file (re-recording keeps the overrides): a warning.
void check_family_has_benchmarks(const ObjectReader& override_of_family, const std::string& family,
                                 const std::vector<std::string>& benchmark_families, std::vector<std::string>& warnings) {
  if (std::find(benchmark_families.begin(), benchmark_families.end(), family) != benchmark_families.end()) return;
  if (const std::optional<std::string> nearest = formats::nearest_name(family, benchmark_families)) {
    override_of_family.with_hint("rename it to the family it is meant for (baselines/README.md)")
        .fail_here("names no family of the file's benchmarks: did you mean `" + *nearest + "`?");
  }
  warnings.push_back(override_of_family.source() + ": " + override_of_family.path() +
                     " names no family of the file's benchmarks: its tolerance applies to nothing - remove it, or "
                     "check the family's name");
}

// An entry's machine_medians (BaselineEntry): absent, or two or more GPU UUIDs, each with a level in the
// entry's unit, and the entry's median within [min, max] of them (it is their geometric mean).
std::map<std::string, double> machine_medians_of_entry(const ObjectReader& e, const BaselineEntry& entry,
                                                       const formats::SampleUnit& unit) {
  const std::optional<ObjectReader> levels = e.optional_object("machine_medians");
  if (!levels) return {};
  std::map<std::string, double> machines;
  for (const auto& [uuid, value] : levels->raw().items()) {
    if (const std::string why = why_not_gpu_uuid(uuid); !why.empty()) levels->fail_here("holds " + why);
    machines[uuid] = levels->sample_at(value, levels->field(uuid), unit);
  }
  if (machines.size() < kMinMachinesForSpread) {
    e.fail("machine_medians", "holds " + std::to_string(machines.size()) +
                                  " GPU: the levels of two or more machines, or no key at all (one GPU recorded)");
  }
  const auto [lowest, highest] = std::minmax_element(
      machines.begin(), machines.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  if (entry.median < lowest->second * (1.0 - kMedianWithinProcessMediansSlack) ||
      entry.median > highest->second * (1.0 + kMedianWithinProcessMediansSlack)) {
    e.fail("median", "is " + format_value(entry.median) + " " + entry.unit + ", outside its machine_medians (" +
                         format_value(lowest->second) + " to " + format_value(highest->second) +
                         "): the median is their geometric mean, so the file was edited by hand");
  }
  return machines;
}

// recorded.machine_groups as written: non-empty lists of GPU UUIDs, no UUID in two. Absent: nullopt.
std::optional<std::vector<std::vector<std::string>>> machine_groups_as_written(const ObjectReader& recorded) {
  const json* lists = recorded.optional_array("machine_groups");
  if (lists == nullptr) return std::nullopt;
  std::vector<std::vector<std::string>> groups;
  std::map<std::string, std::size_t> group_of_uuid;
  for (std::size_t i = 0; i < lists->size(); ++i) {
    const std::string where = recorded.field("machine_groups") + "[" + std::to_string(i) + "]";
    const json& list = (*lists)[i];
    if (!list.is_array() || list.empty()) {
      recorded.fail_at(where, "is not a non-empty list of GPU UUIDs (one list per recording session)");
    }
    std::vector<std::string>& group = groups.emplace_back();
    for (std::size_t j = 0; j < list.size(); ++j) {
      const std::string at = where + "[" + std::to_string(j) + "]";
      group.push_back(recorded.string_at(list[j], at));
      if (const std::string why = why_not_gpu_uuid(group.back()); !why.empty()) recorded.fail_at(at, "is " + why);
      const auto [it, added] = group_of_uuid.emplace(group.back(), i);
      if (!added) {
        recorded.fail_at(at, "repeats " + group.back() + ", already in machine_groups[" + std::to_string(it->second) +
                                 "]: a GPU is recorded in one session");
      }
    }
  }
  return groups;
}

// Every GPU of an entry's machine_medians in one of recorded.machine_groups (each is in at most one).
void check_machine_groups_cover_levels(const ObjectReader& recorded, const Baseline& b) {
  std::set<std::string> grouped;
  for (const auto& group : b.recorded.machine_groups) grouped.insert(group.begin(), group.end());
  for (const auto& [name, entry] : b.benchmarks) {
    for (const auto& [uuid, level] : entry.machine_medians) {
      if (grouped.count(uuid) == 0) {
        recorded.fail("machine_groups", "holds no " + uuid + ", a GPU of benchmarks" + formats::quoted_key(name) +
                                            ".machine_medians: every recorded GPU is in one recording session's list");
      }
    }
  }
}

BaselineEntry parse_entry(const ObjectReader& benchmarks, const std::string& name, const json& value, int schema,
                          const BaselineRecorded& recorded, ImplausibleTolerances& implausible) {
  const ObjectReader e = benchmarks.member(name, value);
  require_baseline_keys(e, schema == 1 ? kBaselineSchema1EntryKeys : kBaselineEntryKeys);
  BaselineEntry entry;
  entry.unit = e.string("unit");
  if (!is_known_unit(entry.unit)) {
    e.fail("unit", "is \"" + entry.unit + "\", expected one of the units the gate knows: \"" + formats::kUnitMicroseconds +
                       "\" or \"" + formats::kUnitCycles + "\"");
  }
  // Each in the range every time the gate reads is held to (formats/sample_units.h).
  const formats::SampleUnit unit = formats::sample_unit_as_written(entry.unit);
  entry.median = e.sample("median", unit);
  const char* list_key = schema == 1 ? "samples" : "process_medians";
  const std::vector<double> values = e.samples(list_key, unit);
  if (values.empty()) e.fail(list_key, "is empty: nothing to compare with");
  entry.process_medians = schema == 1 ? process_medians_from_pooled(values, recorded) : values;
  // Schema 1's median pooled the samples; every ratio is now taken against the process medians' centre.
  if (schema == 1) entry.median = geometric_mean(entry.process_medians);
  const auto [lowest, highest] = std::minmax_element(entry.process_medians.begin(), entry.process_medians.end());
  if (entry.median < *lowest * (1.0 - kMedianWithinProcessMediansSlack) ||
      entry.median > *highest * (1.0 + kMedianWithinProcessMediansSlack)) {
    e.fail("median", "is " + format_value(entry.median) + " " + entry.unit + ", outside its process_medians (" +
                         format_value(*lowest) + " to " + format_value(*highest) +
                         "): the median is their geometric mean, so the file was edited by hand");
  }
  entry.bytes = e.optional_non_negative("bytes").value_or(0.0);
  entry.flops = e.optional_non_negative("flops").value_or(0.0);
  entry.tolerance_pct = tolerance(e, "tolerance_pct", implausible);
  entry.machine_medians = machine_medians_of_entry(e, entry, unit);
  if (e.find("fingerprint") != nullptr) {
    try {
      entry.fingerprint = formats::read_fingerprint(e.object("fingerprint"));
    } catch (const formats::InputError& error) {
      entry.fingerprint = formats::Fingerprint{};
      entry.fingerprint->capture_status = std::string("unreadable: ") + error.what();
    }
  }
  return entry;
}

}  // namespace

std::string why_not_tolerance_pct(double pct) {
  if (std::isnan(pct)) return "NaN";
  if (std::isinf(pct)) return pct > 0 ? "infinite" : "-infinite";
  if (pct < 0.0) return "negative";
  if (pct > kMaxTolerancePct) return format_value(pct) + ", above " + format_value(kMaxTolerancePct);
  return "";
}

Baseline parse_baseline(const std::string& text, const std::string& source) {
  const json doc = formats::parse_json_document(text, source);
  const ObjectReader top(doc, source, "", kFixHint);
  Baseline b;

  const json* version = top.find("schema_version");
  const std::string readable = "schema_version " + std::to_string(kOldestReadableBaselineSchema) + " to " +
                               std::to_string(kBaselineSchemaVersion);
  if (version == nullptr) top.fail("schema_version", "is missing (this perf_gate reads " + readable + ")");
  if (!version->is_number_integer() || version->get<long long>() < kOldestReadableBaselineSchema ||
      version->get<long long>() > kBaselineSchemaVersion) {
    throw formats::InputError(source + ": schema_version " + version->dump() + " is not supported; this perf_gate reads " +
                     readable + " - use the perf_gate of the commit that wrote the file, or re-record it: "
                     "scripts/update_baseline.sh");
  }
  const int schema = static_cast<int>(version->get<long long>());
  require_baseline_keys(top, kBaselineTopKeys);
  ImplausibleTolerances implausible;

  const ObjectReader gpu = top.object("gpu");
  require_baseline_keys(gpu, kBaselineGpuKeys);
  b.gpu.name = gpu.optional_string("name").value_or("");
  if (!b.gpu.name.empty()) require_name(formats::NameKind::kGpu, b.gpu.name, source, "gpu.name");
  b.gpu.slug = gpu.non_empty_string("slug");
  require_name(formats::NameKind::kGpuSlug, b.gpu.slug, source, "gpu.slug");
  b.gpu.compute_capability = gpu.optional_string("compute_capability").value_or("");
  b.gpu.sm_count = gpu.optional_integer("sm_count");
  b.gpu.memory_mib = gpu.optional_integer("memory_mib");
  b.gpu.driver = gpu.optional_string("driver").value_or("");
  b.gpu.cuda_runtime = gpu.optional_string("cuda_runtime").value_or("");
  b.gpu.sm_clock_mhz = gpu.optional_positive("sm_clock_mhz");
  b.gpu.mem_clock_mhz = gpu.optional_positive("mem_clock_mhz");

  b.recorded.measuring_method = formats::kMeasuringMethodUnrecorded;
  if (const std::optional<ObjectReader> recorded = top.optional_object("recorded")) {
    require_baseline_keys(*recorded, kBaselineRecordedKeys);
    b.recorded.date = recorded->optional_string("date").value_or("");
    b.recorded.commit = recorded->optional_string("commit").value_or("");
    b.recorded.harness_version = recorded->optional_string("harness_version").value_or("");
    b.recorded.runs = static_cast<int>(recorded->optional_integer("runs").value_or(0));
    b.recorded.samples_per_run = static_cast<int>(recorded->optional_integer("samples_per_run").value_or(0));
    b.recorded.gpu_uuids = recorded->strings("gpu_uuids");
    // A file that names no method was recorded before the method was versioned (measuring_method.h).
    b.recorded.measuring_method = static_cast<int>(
        recorded->optional_integer("measuring_method", 1, 1000).value_or(b.recorded.measuring_method));
  }

  const ObjectReader defaults = top.object("defaults");
  require_baseline_keys(defaults, kBaselineDefaultsKeys);
  const std::optional<double> default_tolerance = tolerance(defaults, "tolerance_pct", implausible);
  if (!default_tolerance) defaults.fail("tolerance_pct", "is missing: every baseline needs a default tolerance");
  b.default_tolerance_pct = *default_tolerance;
  // Positive: it exists to be tighter than the default, and zero would fail any significant change at all.
  b.same_gpu_tolerance_pct = tolerance(defaults, "same_gpu_tolerance_pct", implausible, /*positive=*/true);

  const ObjectReader benchmarks = top.object("benchmarks");
  for (const auto& [name, value] : benchmarks.raw().items()) {
    require_name(formats::NameKind::kBenchmark, name, source, "benchmarks");
    b.benchmarks.emplace(name, parse_entry(benchmarks, name, value, schema, b.recorded, implausible));
  }
  // Without the key (a file of one GPU, or of one host recorded before sessions were kept): one session
  // of the GPUs it names, so that their spread never tightens the tolerance on another host.
  const std::optional<ObjectReader> recorded = top.optional_object("recorded");
  if (const auto groups = recorded ? machine_groups_as_written(*recorded) : std::nullopt) {
    b.recorded.machine_groups = *groups;
    check_machine_groups_cover_levels(*recorded, b);
  } else {
    std::set<std::string> session(b.recorded.gpu_uuids.begin(), b.recorded.gpu_uuids.end());
    for (const auto& [name, entry] : b.benchmarks) {
      for (const auto& [uuid, level] : entry.machine_medians) session.insert(uuid);
    }
    if (!session.empty()) b.recorded.machine_groups = {{session.begin(), session.end()}};
  }

  if (const std::optional<ObjectReader> families = top.optional_object("families")) {
    const std::vector<std::string> benchmark_families = families_of(b.benchmarks);
    for (const auto& [family, value] : families->raw().items()) {
      require_name(formats::NameKind::kFamily, family, source, "families");
      const ObjectReader override_of_family = families->member(family, value);
      require_baseline_keys(override_of_family, kBaselineFamilyKeys);
      check_family_has_benchmarks(override_of_family, family, benchmark_families, b.warnings);
      if (const std::optional<double> pct = tolerance(override_of_family, "tolerance_pct", implausible)) {
        b.family_tolerance_pct[family] = *pct;
      }
    }
  }
  if (!implausible.empty()) b.warnings.push_back(implausible_tolerances_warning(implausible, source));
  return b;
}

Baseline load_baseline(const std::string& path, std::ostream& warnings) {
  Baseline baseline =
      parse_baseline(formats::read_text_file(path, "check the path; a GPU gets its baseline with scripts/update_baseline.sh"), path);
  // Once per file and process: a command that reads the file again (a re-measurement, a recording that
  // keeps its tolerances) repeats nothing.
  static std::mutex warned_mutex;
  static std::set<std::string> warned;
  const std::lock_guard<std::mutex> lock(warned_mutex);
  if (warned.insert(path).second) {
    for (const std::string& warning : baseline.warnings) warnings << "warning: " << warning << "\n";
  }
  return baseline;
}

Baseline load_baseline(const std::string& path) { return load_baseline(path, std::cerr); }

double geometric_mean(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  double log_sum = 0.0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

std::string baseline_to_text(const Baseline& b) {
  using ordered = nlohmann::ordered_json;
  ordered doc;
  doc["schema_version"] = kBaselineSchemaVersion;
  ordered& gpu = doc["gpu"];
  gpu["name"] = b.gpu.name;
  gpu["slug"] = b.gpu.slug;
  gpu["compute_capability"] = b.gpu.compute_capability;
  if (b.gpu.sm_count) gpu["sm_count"] = *b.gpu.sm_count;
  if (b.gpu.memory_mib) gpu["memory_mib"] = *b.gpu.memory_mib;
  gpu["driver"] = b.gpu.driver;
  gpu["cuda_runtime"] = b.gpu.cuda_runtime;
  if (b.gpu.sm_clock_mhz) gpu["sm_clock_mhz"] = *b.gpu.sm_clock_mhz;
  if (b.gpu.mem_clock_mhz) gpu["mem_clock_mhz"] = *b.gpu.mem_clock_mhz;
  // The optional fields are left out when unset: a file without them is rewritten without them (migrate
  // names no harness_version it did not record with).
  ordered& recorded = doc["recorded"] = ordered{{"date", b.recorded.date}, {"commit", b.recorded.commit}};
  if (!b.recorded.harness_version.empty()) recorded["harness_version"] = b.recorded.harness_version;
  recorded["runs"] = b.recorded.runs;
  recorded["samples_per_run"] = b.recorded.samples_per_run;
  if (!b.recorded.gpu_uuids.empty()) recorded["gpu_uuids"] = b.recorded.gpu_uuids;
  // Absent reads as kMeasuringMethodUnrecorded, so only a recorded version is written (0: a team suite's file).
  if (b.recorded.measuring_method > formats::kMeasuringMethodUnrecorded) {
    recorded["measuring_method"] = b.recorded.measuring_method;
  }
  // Only where machine levels are: a file of one GPU is one session without saying so.
  const bool has_machine_levels = std::any_of(b.benchmarks.begin(), b.benchmarks.end(),
                                              [](const auto& named) { return !named.second.machine_medians.empty(); });
  if (has_machine_levels && !b.recorded.machine_groups.empty()) recorded["machine_groups"] = b.recorded.machine_groups;
  doc["defaults"] = ordered{{"tolerance_pct", b.default_tolerance_pct}};
  if (b.same_gpu_tolerance_pct) doc["defaults"]["same_gpu_tolerance_pct"] = *b.same_gpu_tolerance_pct;
  doc["families"] = ordered::object();
  for (const auto& [family, tolerance] : b.family_tolerance_pct) doc["families"][family]["tolerance_pct"] = tolerance;

  // Process medians and fingerprints go in as placeholders and are spliced back compact: one line each.
  std::vector<std::pair<std::string, std::string>> compact_values;  // key, its value's one-line JSON
  ordered& benchmarks = doc["benchmarks"] = ordered::object();
  for (const auto& [name, e] : b.benchmarks) {
    ordered entry;
    entry["unit"] = e.unit;
    entry["median"] = rounded_for_writing(e.median);
    entry["process_medians"] = "@compact" + std::to_string(compact_values.size()) + "@";
    ordered medians = ordered::array();
    for (double m : e.process_medians) medians.push_back(rounded_for_writing(m));
    compact_values.emplace_back("process_medians", medians.dump());
    entry["bytes"] = e.bytes;
    entry["flops"] = e.flops;
    if (e.tolerance_pct) entry["tolerance_pct"] = *e.tolerance_pct;
    if (!e.machine_medians.empty()) {
      ordered levels = ordered::object();
      for (const auto& [uuid, level] : e.machine_medians) levels[uuid] = rounded_for_writing(level);
      entry["machine_medians"] = "@compact" + std::to_string(compact_values.size()) + "@";
      compact_values.emplace_back("machine_medians", levels.dump());
    }
    if (e.fingerprint) {
      entry["fingerprint"] = "@compact" + std::to_string(compact_values.size()) + "@";
      compact_values.emplace_back("fingerprint", nlohmann::json(*e.fingerprint).dump());
    }
    benchmarks[name] = std::move(entry);
  }
  // The placeholders appear in order, and only as the value of their key (an unescaped quote is always a
  // delimiter, so no benchmark name can imitate the pattern).
  const std::string text = doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  std::size_t from = 0;
  for (std::size_t i = 0; i < compact_values.size(); ++i) {
    const auto& [key, value] = compact_values[i];
    const std::string placeholder = "\"" + key + "\": \"@compact" + std::to_string(i) + "@\"";
    const std::size_t at = text.find(placeholder, from);
    if (at == std::string::npos) break;
    out.append(text, from, at - from).append("\"" + key + "\": ").append(value);
    from = at + placeholder.size();
  }
  out.append(text, from, std::string::npos);
  return out + "\n";
}

}  // namespace gpuperf::gate
