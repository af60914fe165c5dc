#include "gate/inputs/nvbench_results.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>
#include <vector>

#include "formats/escape.h"
#include "formats/foreign_names.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/sample_units.h"

namespace gpuperf::gate {
namespace {

namespace fs = std::filesystem;
using formats::ObjectReader;
using nlohmann::json;

constexpr const char* kRerunHint = "re-run the suite with --json FILE (or --jsonbin FILE)";
constexpr const char* kSampleTimesHint =
    "the sample times must lie in the JSON's folder, where nvbench --jsonbin writes them (<json>-bin/N.bin): "
    "keep that folder beside the JSON";
constexpr long long kReadsJsonMajor = 1;  // nvbench's json_printer::get_json_file_version() is 1.0.0
constexpr double kMicrosecondsPerSecond = 1e6;
constexpr double kHertzPerMegahertz = 1e6;
constexpr std::size_t kFloat32Bytes = 4;
static_assert(sizeof(float) == kFloat32Bytes && std::numeric_limits<float>::is_iec559,
              "nvbench's sample times are IEEE 754 binary32");

// Text from the file in a message: escaped, and only its start when it is long.
std::string shown(const std::string& text) {
  constexpr std::size_t kShownCharacters = 80;
  if (text.size() <= kShownCharacters) return formats::escape_console(text);
  return formats::escape_console(std::string_view(text).substr(0, kShownCharacters)) + "...";
}

// nvbench writes every int64 and float64 value as text (write_named_values in json_printer.cu: a JSON
// number would lose an int64's digits); a JSON number from another writer reads the same.
std::optional<double> parse_double(const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::optional<long long> parse_integer(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

// The summary of `state` tagged `tag`, its path naming the tag; nullopt when the state has none.
std::optional<ObjectReader> find_summary(const ObjectReader& state, const char* tag) {
  const json* list = state.optional_array("summaries");
  if (list == nullptr) return std::nullopt;
  for (std::size_t k = 0; k < list->size(); ++k) {
    const ObjectReader summary = state.element("summaries", k, (*list)[k]);
    if (summary.string("tag") == tag) {
      return ObjectReader(summary.raw(), summary.source(), summary.path() + " ('" + tag + "')", summary.hint());
    }
  }
  return std::nullopt;
}

// The value named `name` in a summary's data, as text; nullopt when it has none.
std::optional<std::string> data_text(const ObjectReader& summary, const char* name) {
  const json* data = summary.optional_array("data");
  if (data == nullptr) return std::nullopt;
  for (std::size_t k = 0; k < data->size(); ++k) {
    const ObjectReader item = summary.element("data", k, (*data)[k]);
    if (item.string("name") != name) continue;
    const json& value = item.require("value");
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number()) return value.dump();
    item.fail("value", "is " + formats::describe_json_type(value) + ", expected a number written as text");
  }
  return std::nullopt;
}

// nvbench's times are seconds; the gate judges microseconds, and checks each time once converted
// (formats::why_not_sample).
constexpr formats::SampleUnit kNvbenchSeconds{"s", kMicrosecondsPerSecond, formats::kUnitMicroseconds};

// The summary's "value", a number of seconds, in microseconds (a time the gate judges).
double microseconds_value(const ObjectReader& summary) {
  const std::optional<std::string> text = data_text(summary, "value");
  if (!text) summary.fail("data", "has no 'value'");
  const std::optional<double> seconds = parse_double(*text);
  if (!seconds) summary.fail("data", "'value' is '" + shown(*text) + "', expected a number of seconds");
  if (const std::string why = formats::why_not_sample(*seconds, kNvbenchSeconds); !why.empty()) {
    summary.fail("data", "'value' is " + why + ", " + formats::sample_expectation(kNvbenchSeconds));
  }
  return *seconds * kNvbenchSeconds.scale;
}

// The summary's "value" where it is a finite number, for information (nvbench writes a sentinel where it
// could not estimate a noise); nullopt otherwise.
std::optional<double> informational_value(const ObjectReader& summary) {
  const std::optional<std::string> text = data_text(summary, "value");
  const std::optional<double> value = text ? parse_double(*text) : std::nullopt;
  if (!value || !std::isfinite(*value) || *value < 0.0) return std::nullopt;
  return value;
}

bool has_parent_step(const fs::path& path) {
  for (const fs::path& part : path) {
    if (part == "..") return true;
  }
  return false;
}

// Whether the canonical path `file` lies in the canonical folder `folder`.
bool lies_in(const fs::path& file, const fs::path& folder) {
  auto part = file.begin();
  for (const fs::path& step : folder) {
    if (part == file.end() || *part != step) return false;
    ++part;
  }
  return part != file.end();
}

// The file a sample-times summary names, which must lie in the JSON's folder.
fs::path sample_times_path(const ObjectReader& summary, const std::string& filename, const std::string& json_path) {
  const ObjectReader where = summary.with_hint(kSampleTimesHint);
  const fs::path json_file(json_path);
  const fs::path folder = json_file.has_parent_path() ? json_file.parent_path() : fs::path(".");
  const fs::path named(filename);
  std::optional<fs::path> relative;
  if (!filename.empty() && named.is_relative() && !has_parent_step(named)) relative = named;
  // nvbench before its commit c4acabd (#405) wrote the path as given on its command line, not relative to
  // the JSON: from the sidecar folder "<json name>-bin" on, it is the file's place beside the JSON (as
  // nvbench's own scripts/nvbench_compare_robust.py reads it).
  std::error_code error;
  if (!relative || !fs::exists(folder / *relative, error)) {
    const std::string sidecar = json_file.filename().string() + "-bin";
    fs::path tail;
    bool found = false;
    for (const fs::path& part : named) {
      found = found || part == sidecar;
      if (found) tail /= part;
    }
    if (found && !has_parent_step(tail)) relative = tail;
  }
  if (!relative) where.fail("data", "'filename' is '" + shown(filename) + "', which leaves the JSON's folder");
  const fs::path path = folder / *relative;
  const fs::path real = fs::canonical(path, error);
  if (error) where.fail("data", "'filename' is '" + shown(filename) + "': cannot open '" + path.string() + "': " + error.message());
  const fs::path real_folder = fs::canonical(folder, error);
  // A link in the folder can lead out of it: what counts is where the file really is.
  if (error || !lies_in(real, real_folder)) {
    where.fail("data", "'filename' is '" + shown(filename) + "', which leads out of the JSON's folder (through a link)");
  }
  return real;
}

// The samples of a sample-times file [us]: little-endian float32 seconds (json_printer.cu,
// write_out_values_as_float32), `size` of them where the summary says.
std::vector<double> read_sample_times(const ObjectReader& summary, const std::string& filename,
                                      std::optional<long long> size, const std::string& json_path) {
  const fs::path path = sample_times_path(summary, filename, json_path);
  const ObjectReader where = summary.with_hint(kSampleTimesHint);
  const std::string file = "'" + path.string() + "'";
  std::error_code error;
  if (!fs::is_regular_file(path, error)) where.fail("data", "'filename' names " + file + ", which is not a regular file");
  const std::uintmax_t bytes = fs::file_size(path, error);
  if (error) where.fail("data", "'filename': cannot read " + file + ": " + error.message());
  if (bytes > kMaxNvbenchSampleTimesBytes) {
    where.with_hint("is it the right file?")
        .fail("data", "'filename' names " + file + ", " + std::to_string(bytes) + " bytes, more than the " +
                          std::to_string(kMaxNvbenchSampleTimesBytes >> 20) + " MiB of sample times perf_gate reads");
  }
  if (bytes % kFloat32Bytes != 0) {
    where.fail("data", "'filename' names " + file + ", " + std::to_string(bytes) +
                           " bytes: not a whole number of float32 samples");
  }
  if (size && static_cast<std::uintmax_t>(*size) * kFloat32Bytes != bytes) {
    where.fail("data", "'size' is " + std::to_string(*size) + " samples, but " + file + " holds " +
                           std::to_string(bytes / kFloat32Bytes));
  }
  const std::string content = formats::read_text_file(path.string(), kSampleTimesHint);
  if (content.size() != bytes) where.fail("data", "'filename' names " + file + ", which changed while it was read");
  std::vector<double> samples;
  samples.reserve(content.size() / kFloat32Bytes);
  for (std::size_t at = 0; at + kFloat32Bytes <= content.size(); at += kFloat32Bytes) {
    std::uint32_t bits = 0;
    for (std::size_t i = 0; i < kFloat32Bytes; ++i) {
      bits |= static_cast<std::uint32_t>(static_cast<unsigned char>(content[at + i])) << (8 * i);
    }
    float seconds = 0.0f;
    std::memcpy(&seconds, &bits, sizeof seconds);
    if (const std::string why = formats::why_not_sample(seconds, kNvbenchSeconds); !why.empty()) {
      where.with_hint("check the suite's timing code")
          .fail("data", "'filename' names " + file + ", whose sample " + std::to_string(at / kFloat32Bytes) + " is " +
                            why + ", " + formats::sample_expectation(kNvbenchSeconds));
    }
    samples.push_back(static_cast<double>(seconds) * kNvbenchSeconds.scale);
  }
  return samples;
}

// The GPU of every entry of "devices", by id.
std::map<long long, formats::GpuIdentity> read_devices(const ObjectReader& top) {
  std::map<long long, formats::GpuIdentity> devices;
  const json* list = top.optional_array("devices");
  if (list == nullptr) return devices;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const ObjectReader device = top.element("devices", i, (*list)[i]);
    const long long id = device.integer("id", 0);
    formats::GpuIdentity gpu;
    gpu.name = device.non_empty_string("name");
    if (const std::string error = formats::name_error(formats::NameKind::kGpu, gpu.name); !error.empty()) {
      device.with_hint("check what wrote the file: nvbench writes the name the CUDA driver gives the GPU")
          .fail_at(device.field("name") + ":", error);
    }
    // sm_version is major * 100 + minor * 10 (nvbench/device_info.cuh): 900 is compute capability 9.0.
    if (const std::optional<long long> sm = device.optional_integer("sm_version", 0, 100000)) {
      gpu.compute_capability = std::to_string(*sm / 100) + "." + std::to_string(*sm % 100 / 10);
    }
    gpu.sm_count = device.optional_integer("number_of_sms", 1);
    if (const std::optional<long long> bytes = device.optional_integer("global_memory_size", 0)) {
      gpu.memory_mib = *bytes >> 20;
    }
    if (!devices.emplace(id, std::move(gpu)).second) device.fail("id", "is " + std::to_string(id) + ", as an earlier device's");
  }
  return devices;
}

void read_version(const ObjectReader& top, NvbenchResults& out) {
  // The first files nvbench wrote had no version: read as version 1, as nvbench's own reader does.
  const std::optional<ObjectReader> meta = top.optional_object("meta");
  const std::optional<ObjectReader> version = meta ? meta->optional_object("version") : std::nullopt;
  if (!version) return;
  if (const std::optional<ObjectReader> file = version->optional_object("json")) {
    const long long major = file->integer("major");
    if (major != kReadsJsonMajor) {
      file->with_hint("write it with an nvbench whose JSON file version is 1, or read it with a perf_gate that reads its version")
          .fail("major", "is " + std::to_string(major) + ", this perf_gate reads nvbench JSON file version " +
                             std::to_string(kReadsJsonMajor));
    }
  }
  if (const std::optional<ObjectReader> nvbench = version->optional_object("nvbench")) {
    out.nvbench_version = nvbench->optional_string("string").value_or("");
  }
}

// A state's axis values: its axis_values, or what its name shows where nvbench wrote none (null: a
// benchmark without axes, whose name shows its device only).
std::vector<formats::NvbenchAxisValue> read_axis_values(const ObjectReader& state, const std::string& state_name) {
  const json* list = state.optional_array("axis_values");
  if (list == nullptr) {
    formats::NvbenchAxisValues parsed = formats::nvbench_axis_values_from_state_name(state_name);
    if (!parsed.error.empty()) state.fail_at(state.field("name") + ":", parsed.error);
    return std::move(parsed.values);
  }
  std::vector<formats::NvbenchAxisValue> values;
  for (std::size_t k = 0; k < list->size(); ++k) {
    const ObjectReader axis = state.element("axis_values", k, (*list)[k]);
    formats::NvbenchAxisValue value{axis.string("name"), ""};
    const json& text = axis.require("value");
    if (text.is_string()) {
      value.value = text.get<std::string>();
    } else if (text.is_number()) {
      value.value = text.dump();
    } else {
      axis.fail("value", "is " + formats::describe_json_type(text) + ", expected text or a number");
    }
    values.push_back(std::move(value));
  }
  return values;
}

// What reading one file keeps between its states.
struct Reading {
  std::string family;
  std::string json_path;
  std::map<long long, formats::GpuIdentity> devices;
  std::optional<long long> device;  // the device of the first state: every state's
  std::string first_state;          // the path of that state, for messages
  NvbenchResults out;
};

// The state's cold GPU samples [us] into `b`, and where they came from into `info`; false when it has none.
bool read_samples(const ObjectReader& state, const Reading& reading, BenchmarkSamples& b, NvbenchStateInfo& info) {
  if (const std::optional<ObjectReader> times = find_summary(state, kNvbenchSampleTimesTag)) {
    // No filename where nvbench could not write the file (it logged why): the mean is then all there is.
    if (const std::optional<std::string> filename = data_text(*times, "filename")) {
      std::optional<long long> size;
      if (const std::optional<std::string> text = data_text(*times, "size")) {
        size = parse_integer(*text);
        if (!size || *size < 0) times->fail("data", "'size' is '" + shown(*text) + "', expected a whole number of samples");
      }
      b.samples = read_sample_times(*times, *filename, size, reading.json_path);
      info.samples_from = NvbenchSamplesFrom::kSampleTimes;
    }
  }
  if (b.samples.empty()) {
    const std::optional<ObjectReader> mean = find_summary(state, kNvbenchGpuMeanTag);
    if (!mean) return false;
    b.samples.push_back(microseconds_value(*mean));
    b.samples_are_summaries = true;
    info.samples_from = NvbenchSamplesFrom::kMean;
  }
  b.repetitions = static_cast<int>(b.samples.size());
  return true;
}

void add_state(const ObjectReader& st, const std::string& benchmark, Reading& reading) {
  const std::string state_name = st.string("name");
  const long long device = st.integer("device", 0);
  if (!reading.devices.empty() && reading.devices.count(device) == 0) {
    st.fail("device", "is " + std::to_string(device) + ", which the file's 'devices' does not list");
  }
  if (!reading.device) {
    reading.device = device;
    reading.first_state = st.path();
  } else if (*reading.device != device) {
    st.with_hint("run the suite on one GPU (nvbench --devices N): a baseline holds one GPU model's times")
        .fail("device", "is " + std::to_string(device) + ", but " + reading.first_state + " ran on device " +
                            std::to_string(*reading.device));
  }
  const formats::MappedName mapped =
      formats::nvbench_to_our_name(reading.family, {benchmark, read_axis_values(st, state_name)});
  if (!mapped.ok()) st.with_hint(mapped.remedy).fail_at(st.path() + ":", mapped.error);
  ResultsFile& results = reading.out.results;
  if (results.benchmarks.count(mapped.name) != 0) {
    st.with_hint("give the benchmarks different names").fail_here("maps onto the benchmark name '" + mapped.name +
                                                                   "', as an earlier state does (docs/suites.md)");
  }
  // Every later message names the benchmark: "benchmarks[1].states[2] ('suite/copy/T:I32').summaries[4] ...".
  const ObjectReader state(st.raw(), st.source(), st.path() + " ('" + mapped.name + "')", st.hint());
  BenchmarkSamples& b = results.benchmarks[mapped.name];
  NvbenchStateInfo& info = reading.out.states[mapped.name];
  b.unit = formats::kUnitMicroseconds;
  info.state_name = state_name;
  info.device = device;
  if (state.optional_flag("is_skipped")) {
    b.skipped = true;
    b.skip_message = state.optional_string("skip_reason").value_or("");
    if (b.skip_message.empty()) b.skip_message = "(no message)";
    return;
  }
  if (const std::optional<ObjectReader> count = find_summary(state, kNvbenchSampleCountTag)) {
    const std::optional<std::string> text = data_text(*count, "value");
    if (text) info.nvbench_samples = parse_integer(*text);
  }
  if (const std::optional<ObjectReader> noise = find_summary(state, kNvbenchGpuNoiseTag)) {
    if (const std::optional<double> fraction = informational_value(*noise)) info.noise_pct = *fraction * 100.0;
  }
  if (!read_samples(state, reading, b, info)) {
    b.skipped = true;
    b.skip_message = "nvbench measured no cold GPU time of this state (a CPU-only benchmark, or a run with "
                     "--profile): the gate judges cold GPU time";
    return;
  }
  if (const std::optional<ObjectReader> clock = find_summary(state, kNvbenchSmClockTag)) {
    const std::optional<double> hertz = informational_value(*clock);
    if (hertz && *hertz > 0.0) results.sm_clock_mhz.push_back(*hertz / kHertzPerMegahertz);
  }
}

// The GPU the file names, with what `given` (the caller's) knows besides; InputError when they differ.
formats::GpuIdentity identify_gpu(const Reading& reading, const std::optional<formats::GpuIdentity>& given,
                                  const std::string& source) {
  formats::GpuIdentity named;
  const auto it = reading.device ? reading.devices.find(*reading.device) : reading.devices.end();
  if (it != reading.devices.end()) {
    named = it->second;
  } else if (!reading.device && reading.devices.size() == 1) {
    named = reading.devices.begin()->second;
  }
  if (!given) return named;
  if (named.name.empty()) return *given;
  if (!given->name.empty() && given->name != named.name) {
    throw formats::InputError(source + ": its states ran on '" + named.name + "' (its 'devices'), not on '" +
                              formats::escape_console(given->name) +
                              "', the GPU the suite was started on - run it on one GPU (nvbench --devices N)");
  }
  const auto fill = [](std::string& field, const std::string& from) {
    if (field.empty()) field = from;
  };
  fill(named.slug, given->slug);
  fill(named.uuid, given->uuid);
  fill(named.compute_capability, given->compute_capability);
  fill(named.driver, given->driver);
  fill(named.cuda_runtime, given->cuda_runtime);
  if (!named.sm_count) named.sm_count = given->sm_count;
  // The caller's memory total wins: nvbench's global_memory_size is the CUDA runtime's totalGlobalMem, and
  // NVML's total (the driver's identity, and every other file of the run: the fingerprints captured apart)
  // counts what the driver reserves too: 143155 and 143771 MiB on one H200. Two sources for one field made
  // every run "mixed" against its own baseline, a platform change that also kept --skip-unchanged from
  // leaving anything UNCHANGED.
  if (given->memory_mib) named.memory_mib = given->memory_mib;
  return named;
}

}  // namespace

NvbenchResults parse_nvbench_results(const std::string& text, const std::string& json_path, const std::string& family,
                                     const std::optional<formats::GpuIdentity>& gpu) {
  const std::string& source = json_path;
  if (const std::string error = formats::name_error(formats::NameKind::kFamily, family); !error.empty()) {
    throw formats::InputError(source + ": cannot name its benchmarks: the suite's " + error +
                              " - name the suite with a family name (docs/suites.md)");
  }
  const json doc = formats::parse_json_document(text, source);
  if (!doc.is_object()) {
    throw formats::InputError(source + ": the top level is " + formats::describe_json_type(doc) +
                              ", expected an object with 'devices' and 'benchmarks' - is this an nvbench JSON file? " +
                              kRerunHint);
  }
  const ObjectReader top(doc, source, "", kRerunHint);
  Reading reading{family, json_path, read_devices(top), std::nullopt, "", {}};
  reading.out.results.source = source;
  reading.out.results.no_fingerprints_because = "an nvbench suite";
  read_version(top, reading.out);
  const json& benchmarks = top.array("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const ObjectReader bench = top.element("benchmarks", i, benchmarks[i]);
    const std::string name = bench.string("name");
    const json* states = bench.optional_array("states");  // null: a benchmark that made no state
    if (states == nullptr) continue;
    for (std::size_t j = 0; j < states->size(); ++j) add_state(bench.element("states", j, (*states)[j]), name, reading);
  }
  if (reading.out.results.benchmarks.empty()) {
    throw formats::InputError(source +
                              ": holds no state of any benchmark: no samples at all - the suite ran no benchmark; "
                              "check its --benchmark (-b) options and that it found a GPU");
  }
  reading.out.results.gpu = gpu_context_of(identify_gpu(reading, gpu, source), source);
  return std::move(reading.out);
}

NvbenchResults load_nvbench_results(const std::string& json_path, const std::string& family,
                                    const std::optional<formats::GpuIdentity>& gpu) {
  const std::string text = formats::read_text_file(json_path, "check the path; did the suite write its --json file?");
  return parse_nvbench_results(text, json_path, family, gpu);
}

}  // namespace gpuperf::gate
