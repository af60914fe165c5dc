#include "gate/inputs/results.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>

#include "formats/escape.h"
#include "formats/foreign_names.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/measuring_method.h"
#include "formats/results_context.h"
#include "gate/inputs/gbench_results.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

using nlohmann::json;
using formats::ObjectReader;

constexpr const char* kRerunHint = "re-run the perf binary with --benchmark_out_format=json";
constexpr const char* kSuiteRerunHint = "re-run the suite with --benchmark_out=FILE --benchmark_out_format=json";
// A name that breaks formats/names.h's rule reaches no report: the file did not come from gpuperf_bench.
constexpr const char* kNameHint =
    "gpuperf_bench writes only names its registry accepts: re-run it, and check what wrote this file";

struct TimeUnit {
  const char* name;
  double microseconds;  // one of this unit [microseconds]
};
constexpr TimeUnit kTimeUnits[] = {{"ns", 1e-3}, {"us", 1.0}, {"ms", 1e3}, {"s", 1e6}};

// The Google Benchmark time unit named `unit`; nullptr when it is none.
const TimeUnit* time_unit_named(const std::string& unit) {
  for (const TimeUnit& u : kTimeUnits) {
    if (unit == u.name) return &u;
  }
  return nullptr;
}

// How one file is read (ResultsDialect), and what its messages tell the reader to do.
struct Reading {
  explicit Reading(const ResultsDialect& dialect)
      : family(dialect.suite_family), rerun_hint(family.empty() ? kRerunHint : kSuiteRerunHint) {}
  bool ours() const { return family.empty(); }

  std::string family;  // another suite's; "" for our perf binary's files
  const char* rerun_hint;
  std::map<std::string, std::string> run_name_of;  // another suite's: the run name each benchmark name came from
};

constexpr const char* kTimingHint = "check the timing code of the perf binary";

// A text of the perf binary's own (an error or skip message): "(no message)" when it gave none.
std::string optional_message(const ObjectReader& entry, const char* key) {
  const json* value = entry.find(key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string("(no message)");
}

GpuContext parse_context(const json& doc, const std::string& source) {
  const auto it = doc.find("context");
  if (it == doc.end()) return {};
  if (!it->is_object()) {
    throw formats::InputError(source + ": 'context' is " + formats::describe_json_type(*it) + ", expected an object - " + kRerunHint);
  }
  const ObjectReader c(*it, source, "context", kRerunHint);
  GpuContext gpu;
  static_cast<formats::GpuIdentity&>(gpu) = formats::gpu_identity_from_context(c);
  gpu.git_commit = formats::context_value(c, formats::kContextGitCommit);
  const std::string& gpu_name = gpu.name;
  if (!gpu_name.empty()) {  // absent in files of other tools: the baseline's name is used then
    const std::string error = formats::name_error(formats::NameKind::kGpu, gpu_name);
    if (!error.empty()) throw formats::InputError(source + ": context.gpu_name: " + error + " - " + kNameHint);
  }
  const std::string& gpu_slug = gpu.slug;
  if (!gpu_slug.empty()) {  // it names the baseline file: never a path
    const std::string error = formats::name_error(formats::NameKind::kGpuSlug, gpu_slug);
    if (!error.empty()) throw formats::InputError(source + ": context.gpu_slug: " + error + " - " + kNameHint);
  }
  return gpu;
}

// How our perf binary measured: context.measuring_method (parse_context has checked the context's type).
int results_file_measuring_method(const json& doc, const std::string& source) {
  const auto it = doc.find("context");
  if (it == doc.end()) return formats::kMeasuringMethodUnrecorded;
  return formats::measuring_method_from_context(ObjectReader(*it, source, "context", kRerunHint));
}

// One repetition: its sample and unit. Cycle-metric benchmarks report `cycles`; the others real_time,
// converted to microseconds so that files written with different time units compare.
struct Sample {
  double value;  // [unit]
  std::string unit;
};

// Each is checked once converted (formats::why_not_sample): 1e303 s is no number of microseconds.
Sample parse_sample(const ObjectReader& entry, const Reading& reading) {
  const ObjectReader timing = entry.with_hint(reading.ours() ? kTimingHint : "check the suite's timing code");
  if (reading.ours() && entry.raw().contains("cycles")) {
    return {timing.sample("cycles", formats::sample_unit_as_written(formats::kUnitCycles)), formats::kUnitCycles};
  }
  const std::string unit = entry.string("time_unit");
  const TimeUnit* time_unit = time_unit_named(unit);
  if (time_unit == nullptr) entry.fail("time_unit", "is '" + formats::escape_console(unit) + "', not one of ns, us, ms, s");
  return {timing.sample("real_time", {time_unit->name, time_unit->microseconds, formats::kUnitMicroseconds}),
          formats::kUnitMicroseconds};
}

// A clock counter of one sample, when NVML read it [MHz].
void add_clock(const ObjectReader& entry, const char* key, std::vector<double>& out) {
  const std::optional<double> value = entry.optional_number(key);
  if (value && std::isfinite(*value) && *value > 0.0) out.push_back(*value);
}

// The benchmark name of a row of our perf binary's file.
std::string our_benchmark_name(const ObjectReader& row, const std::string& run_name) {
  const std::string name = benchmark_name_from_run_name(run_name);
  if (name.empty()) row.fail("run_name", "is '" + formats::escape_console(run_name) + "', which names no benchmark");
  if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, name); !error.empty()) {
    row.with_hint(kNameHint).fail_at(row.path() + ":", error);
  }
  return name;
}

// The benchmark name of a row of another suite's file (formats/foreign_names.h). Two runs that differ only
// in their run settings ("BM_x/1/manual_time", "BM_x/1/real_time") would map onto one name and have their
// samples pooled: refused.
std::string suite_benchmark_name(const ObjectReader& row, const std::string& run_name, Reading& reading) {
  const formats::MappedName mapped = formats::gbench_to_our_name(reading.family, run_name);
  if (!mapped.ok()) row.with_hint(mapped.remedy).fail_at(row.path() + ":", mapped.error);
  const auto [first, inserted] = reading.run_name_of.emplace(mapped.name, run_name);
  if (!inserted && first->second != run_name) {
    row.with_hint("give them different names or arguments in the suite")
        .fail("run_name", "is '" + formats::escape_console(run_name) + "', and an earlier run's is '" +
                              formats::escape_console(first->second) + "': both map onto the benchmark name '" +
                              mapped.name + "' (docs/suites.md)");
  }
  return mapped.name;
}

// `entry` is benchmarks[index] of the file, an iteration row.
void add_iteration(const ObjectReader& row, ResultsFile& file, Reading& reading) {
  std::map<std::string, BenchmarkSamples>& out = file.benchmarks;
  const std::string run_name = row.with_hint("use Google Benchmark >= 1.5, which writes run_name").string("run_name");
  const std::string name =
      reading.ours() ? our_benchmark_name(row, run_name) : suite_benchmark_name(row, run_name, reading);
  // Every later message names the benchmark too: "benchmarks[3] ('reduction/x/n:1').real_time is NaN".
  const ObjectReader entry(row.raw(), row.source(), row.path() + " ('" + name + "')", row.hint());
  BenchmarkSamples& b = out[name];
  ++b.repetitions;
  if (gbench_flag(entry, "error_occurred")) {
    // The binary's own verdict (failed correctness check, CUDA error): its timings mean nothing.
    b.error = true;
    if (b.error_message.empty()) b.error_message = optional_message(entry, "error_message");
    return;
  }
  if (gbench_flag(entry, "skipped")) {
    b.skipped = true;
    if (b.skip_message.empty()) b.skip_message = optional_message(entry, "skip_message");
    return;
  }
  const Sample sample = parse_sample(entry, reading);
  if (!reading.ours()) {  // none of the harness's counters: the suite's own may share their names
    b.unit = sample.unit;
    b.samples_are_summaries = true;
    b.samples.push_back(sample.value);
    return;
  }
  if (!b.unit.empty() && b.unit != sample.unit) {
    entry.with_hint("a benchmark must report cycles in every repetition or in none; fix the perf binary")
        .fail_here("reports " + sample.unit + " in one repetition and " + b.unit + " in another");
  }
  b.unit = sample.unit;
  b.bytes = std::max(b.bytes, entry.optional_non_negative("bytes").value_or(0.0));
  b.flops = std::max(b.flops, entry.optional_non_negative("flops").value_or(0.0));
  if (const std::optional<double> injected = entry.optional_number("injected_slowdown_pct")) {
    if (std::isfinite(*injected)) b.injected_slowdown_pct = std::max(b.injected_slowdown_pct, *injected);
  }
  if (entry.optional_flag("throttled")) {
    ++b.throttled;
    b.power_capped += entry.optional_flag("power_capped") ? 1 : 0;
    b.shared_gpu += entry.optional_flag("other_processes") ? 1 : 0;
  } else {
    b.samples.push_back(sample.value);
    // A throttled sample's clock says what the throttling did, which the verdicts report already.
    add_clock(entry, "sm_clock_mhz", file.sm_clock_mhz);
    add_clock(entry, "mem_clock_mhz", file.mem_clock_mhz);
  }
}

// The fields of a benchmarks[] entry that the functions above read. Keep it complete: a field missing
// here reads as absent on the fast path below.
constexpr std::string_view kEntryFields[] = {
    "run_name",  "run_type",     "error_occurred", "error_message", "skipped",
    "skip_message", "cycles",    "real_time",      "time_unit",     "bytes",
    "flops",     "injected_slowdown_pct", "throttled", "power_capped", "other_processes",
    "sm_clock_mhz", "mem_clock_mhz"};

bool is_entry_field(std::string_view key) {
  for (std::string_view field : kEntryFields) {
    if (key == field) return true;
  }
  return false;
}

// Builds the document as nlohmann's own DOM parser does, except that it stops at a key an object repeats
// (parse_results_document then lets parse_json_document refuse it), and that in each object of the top-level "benchmarks" array it keeps only kEntryFields: a perf
// binary writes some 20 fields per repetition, and building the others dominated the reading time of a
// full suite (about 2 s for 3 files of 1000 benchmarks x 30 repetitions on a 2-core runner; ~4x less).
class ResultsDocumentBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  explicit ResultsDocumentBuilder(json& root) : root_(root) {}

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(number_integer_t v) { return value(v); }
  bool number_unsigned(number_unsigned_t v) { return value(v); }
  bool number_float(number_float_t v, const string_t& /*text*/) { return value(v); }
  bool string(string_t& v) { return value(std::move(v)); }
  bool binary(binary_t& v) { return value(json::binary(std::move(v))); }

  bool start_object(std::size_t /*size*/) {
    object_keys_from_.push_back(keys_.size());
    return open(json::value_t::object);
  }
  bool start_array(std::size_t /*size*/) { return open(json::value_t::array); }
  bool end_object() {
    keys_.resize(object_keys_from_.back());
    object_keys_from_.pop_back();
    return close();
  }
  bool end_array() { return close(); }

  bool key(string_t& key) {
    // A repeated key, in a skipped object too, stops the fast path: parse_json_document refuses it by name.
    const auto from = keys_.begin() + static_cast<std::ptrdiff_t>(object_keys_from_.back());
    if (std::find(from, keys_.end(), key) != keys_.end()) return false;
    keys_.push_back(key);
    if (skipping_ > 0) return true;
    // Depth 3: root object, its "benchmarks" array, one entry.
    if (stack_.size() == 3 && stack_[1] == benchmarks_ && !is_entry_field(key)) {
      skip_next_ = true;
      return true;
    }
    if (stack_.size() == 1 && key == "benchmarks") pending_benchmarks_ = true;
    slot_ = &(*stack_.back())[key];
    return true;
  }

  // Any error: the caller parses the text again the slow way, which reports it (or reads NaN).
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const nlohmann::detail::exception&) {
    return false;
  }

 private:
  template <typename Value>
  bool value(Value&& v) {
    if (skip_value()) return true;
    place(json(std::forward<Value>(v)));
    return true;
  }

  bool open(json::value_t type) {
    if (skipping_ > 0 || skip_next_) {
      skip_next_ = false;
      ++skipping_;
      return true;
    }
    const bool benchmarks = pending_benchmarks_ && stack_.size() == 1;
    json* opened = place(json(type));
    if (benchmarks) benchmarks_ = type == json::value_t::array ? opened : nullptr;
    stack_.push_back(opened);
    return true;
  }

  bool close() {
    if (skipping_ > 0) {
      --skipping_;
      return true;
    }
    stack_.pop_back();
    return true;
  }

  // Whether the value just read belongs to a skipped field (a scalar one ends the skip).
  bool skip_value() {
    if (skipping_ > 0) return true;
    if (!skip_next_) return false;
    skip_next_ = false;
    return true;
  }

  json* place(json&& v) {
    if (stack_.size() == 1) pending_benchmarks_ = false;
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    if (stack_.back()->is_array()) {
      stack_.back()->push_back(std::move(v));
      return &stack_.back()->back();
    }
    *slot_ = std::move(v);
    return slot_;
  }

  json& root_;
  std::vector<json*> stack_;
  json* slot_ = nullptr;           // the member the next value of the current object goes to
  json* benchmarks_ = nullptr;     // the root's "benchmarks" array, once open
  bool pending_benchmarks_ = false;  // the root's next value is its "benchmarks"
  bool skip_next_ = false;         // the next value belongs to a field outside kEntryFields
  int skipping_ = 0;               // depth inside a skipped object or array
  std::vector<std::string> keys_;  // the keys read so far of every open object, outermost first
  std::vector<std::size_t> object_keys_from_;  // where each open object's keys start in keys_
};

// The document of a results file. Valid JSON (the usual case) goes through ResultsDocumentBuilder; text it
// rejects goes through parse_json_document, which reads Google Benchmark's bare NaN and Infinity and
// words every error. Both give the same document where it matters: valid JSON has no bare non-finite
// token for parse_json_document to quote.
json parse_results_document(const std::string& text, const std::string& source) {
  json doc;
  ResultsDocumentBuilder builder(doc);
  if (json::sax_parse(text, &builder)) return doc;
  return formats::parse_json_document(text, source);
}

// The "fingerprints" object, each entry read on its own: one that cannot be read becomes a fingerprint not
// captured, whose status says why, so that a damaged fingerprint costs the code comparison, never the timing.
std::map<std::string, formats::Fingerprint> parse_fingerprints(const json& doc, const std::string& source) {
  std::map<std::string, formats::Fingerprint> fingerprints;
  const auto list = doc.find("fingerprints");
  if (list == doc.end() || !list->is_object()) return fingerprints;
  for (const auto& [name, value] : list->items()) {
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, name); !error.empty()) {
      throw formats::InputError(source + ": fingerprints: " + error + " - " + kNameHint);
    }
    try {
      fingerprints[name] = formats::read_fingerprint(ObjectReader(value, source, "fingerprints" + formats::quoted_key(name),
                                                                  "capture them again: gpuperf_bench --fingerprint-only"));
    } catch (const formats::InputError& e) {
      formats::Fingerprint unreadable;
      unreadable.capture_status = std::string("unreadable: ") + e.what();
      fingerprints[name] = std::move(unreadable);
    }
  }
  return fingerprints;
}

}  // namespace

std::string benchmark_name_from_run_name(const std::string& run_name) {
  return formats::gbench_run_name_without_settings(run_name, false);
}

ResultsFile parse_results(const std::string& text, const std::string& source) { return parse_results(text, source, {}); }

ResultsFile parse_results(const std::string& text, const std::string& source, const ResultsDialect& dialect) {
  Reading reading(dialect);
  const json doc = parse_results_document(text, source);
  if (!doc.is_object()) {
    throw formats::InputError(source + ": the top level is " + formats::describe_json_type(doc) +
                     ", expected an object with 'context' and 'benchmarks' - is this a Google Benchmark JSON file? " +
                     reading.rerun_hint);
  }
  ResultsFile file;
  file.source = source;
  // Another suite's context is Google Benchmark's own (host, CPUs, caches): its GPU comes from elsewhere.
  if (reading.ours()) file.gpu = parse_context(doc, source);
  if (reading.ours()) file.measuring_method = results_file_measuring_method(doc, source);
  if (!reading.ours()) file.no_fingerprints_because = "a Google Benchmark suite";
  const auto list = doc.find("benchmarks");
  if (list == doc.end()) {
    throw formats::InputError(source + ": has no 'benchmarks' array - is this a Google Benchmark JSON file? " +
                              reading.rerun_hint);
  }
  if (!list->is_array()) {
    throw formats::InputError(source + ": 'benchmarks' is " + formats::describe_json_type(*list) + ", expected an array - " +
                              reading.rerun_hint);
  }
  if (reading.ours()) file.fingerprints = parse_fingerprints(doc, source);
  if (list->empty() && file.fingerprints.empty()) {
    throw formats::InputError(source + ": the 'benchmarks' array is empty: no samples at all - " +
                              (reading.ours() ? "the perf binary ran no benchmark; check its --benchmark_filter and that it found a GPU"
                                              : "the suite ran no benchmark; check its --benchmark_filter"));
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const ObjectReader entry((*list)[i], source, "benchmarks[" + std::to_string(i) + "]", reading.rerun_hint);
    const std::string run_type = entry.string("run_type");
    if (run_type == "aggregate") continue;  // mean/median/stddev rows: the gate uses the samples themselves
    if (run_type != "iteration") {
      entry.fail("run_type", "is '" + formats::escape_console(run_type) + "', neither iteration nor aggregate");
    }
    add_iteration(entry, file, reading);
  }
  if (file.benchmarks.empty() && !list->empty()) {
    throw formats::InputError(source + ": holds only aggregate rows, no samples at all - " +
                              (reading.ours() ? "run the perf binary with --benchmark_repetitions=N and without "
                                                "--benchmark_report_aggregates_only"
                                              : "run the suite without --benchmark_report_aggregates_only"));
  }
  return file;
}

GpuContext gpu_context_of(const formats::GpuIdentity& gpu, const std::string& source) {
  GpuContext context;
  static_cast<formats::GpuIdentity&>(context) = gpu;
  if (context.slug.empty()) context.slug = formats::gpu_slug(context.name);
  const auto check = [&](formats::NameKind kind, const std::string& value) {
    if (value.empty()) return;
    if (const std::string error = formats::name_error(kind, value); !error.empty()) {
      throw formats::InputError(source + ": the GPU it ran on: " + error +
                                " - check what named the GPU (nvidia-smi --query-gpu=name)");
    }
  };
  check(formats::NameKind::kGpu, context.name);
  check(formats::NameKind::kGpuSlug, context.slug);
  return context;
}

ResultsFile load_results(const std::string& path) {
  return parse_results(formats::read_text_file(path, "check the path; did the perf run write its --benchmark_out file?"), path);
}

std::vector<ResultsFile> load_results_files(const std::vector<std::string>& paths) {
  std::vector<ResultsFile> files;
  files.reserve(paths.size());
  for (const std::string& path : paths) files.push_back(load_results(path));
  return files;
}

void pool_into(BenchmarkSamples& into, const BenchmarkSamples& more, const std::string& name,
               const std::string& source) {
  if (!into.unit.empty() && !more.unit.empty() && into.unit != more.unit) {
    throw formats::InputError(source + ": benchmark '" + name + "' is in " + more.unit + " here but in " + into.unit +
                     " in an earlier results file - pass results of the same perf binary only");
  }
  if (into.unit.empty()) into.unit = more.unit;
  into.samples.insert(into.samples.end(), more.samples.begin(), more.samples.end());
  into.throttled += more.throttled;
  into.power_capped += more.power_capped;
  into.shared_gpu += more.shared_gpu;
  into.repetitions += more.repetitions;
  if (more.error && !into.error) {
    into.error = true;
    into.error_message = more.error_message;
  }
  if (more.skipped && !into.skipped) {
    into.skipped = true;
    into.skip_message = more.skip_message;
  }
  into.bytes = std::max(into.bytes, more.bytes);
  into.flops = std::max(into.flops, more.flops);
  into.injected_slowdown_pct = std::max(into.injected_slowdown_pct, more.injected_slowdown_pct);
  into.samples_are_summaries = into.samples_are_summaries || more.samples_are_summaries;
}

std::map<std::string, BenchmarkSamples> pool_results(const std::vector<ResultsFile>& files) {
  common_gpu_slug(files);
  common_measuring_method(files);
  std::map<std::string, BenchmarkSamples> pooled;
  for (const ResultsFile& file : files) {
    for (const auto& [name, samples] : file.benchmarks) pool_into(pooled[name], samples, name, file.source);
  }
  return pooled;
}

std::optional<double> process_median(const ResultsFile& file, const std::string& name, int min_samples) {
  const auto it = file.benchmarks.find(name);
  if (it == file.benchmarks.end()) return std::nullopt;
  const int needed = it->second.samples_are_summaries ? 1 : min_samples;
  if (static_cast<int>(it->second.samples.size()) < needed) return std::nullopt;
  return median(it->second.samples);
}

std::vector<double> process_medians(const std::vector<ResultsFile>& files, const std::string& name, int min_samples) {
  std::vector<double> medians;
  for (const ResultsFile& file : files) {
    if (const std::optional<double> m = process_median(file, name, min_samples)) medians.push_back(*m);
  }
  return medians;
}

std::map<std::string, formats::Fingerprint> pool_fingerprints(const std::vector<ResultsFile>& files) {
  std::map<std::string, formats::Fingerprint> pooled;
  for (const ResultsFile& file : files) {
    for (const auto& [name, fingerprint] : file.fingerprints) {
      const auto [it, inserted] = pooled.emplace(name, fingerprint);
      const bool captured = fingerprint.capture_status == formats::kCapturedByCupti;
      if (!inserted && captured && it->second.capture_status != formats::kCapturedByCupti) it->second = fingerprint;
    }
  }
  return pooled;
}

std::string common_gpu_slug(const std::vector<ResultsFile>& files) {
  if (files.empty()) return "";
  const std::string& slug = files.front().gpu.slug;
  for (const ResultsFile& file : files) {
    if (file.gpu.slug != slug) {
      throw formats::InputError("results from different GPUs: '" + files.front().source + "' is from '" + slug + "', '" +
                       file.source + "' from '" + file.gpu.slug + "' - pass results measured on one GPU model only");
    }
  }
  return slug;
}

int common_measuring_method(const std::vector<ResultsFile>& files) {
  const ResultsFile* first = nullptr;  // the first file of our perf binary
  for (const ResultsFile& file : files) {
    if (file.measuring_method == 0) continue;  // a team suite's: its method is its own
    if (first == nullptr) {
      first = &file;
    } else if (file.measuring_method != first->measuring_method) {
      const std::string a = std::to_string(first->measuring_method);
      const std::string b = std::to_string(file.measuring_method);
      throw formats::InputError("results measured with methods " + a + " and " + b + ": '" + first->source +
                                "' with " + a + ", '" + file.source + "' with " + b +
                                " (context.measuring_method) - run them again with one build of the perf binary");
    }
  }
  return first == nullptr ? 0 : first->measuring_method;
}

std::string common_gpu_uuid(const std::vector<ResultsFile>& files) {
  if (files.empty()) return "";
  const std::string& uuid = files.front().gpu.uuid;
  for (const ResultsFile& file : files) {
    if (file.gpu.uuid != uuid) return "";
  }
  return uuid;
}

}  // namespace gpuperf::gate
