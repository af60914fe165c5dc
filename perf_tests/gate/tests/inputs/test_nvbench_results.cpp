// Reading a team's nvbench suite (gate/inputs/nvbench_results.h) on fixtures written from nvbench's sources
// (testdata/nvbench/make_fixtures.py says which; no nvbench run made them): names mapped from axis values,
// sample times and means in microseconds, skipped states, the GPU from "devices"; sample-times paths that
// leave the JSON's folder refused; and every kind of bad input refused with the words its message must hold.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "formats/foreign_names.h"
#include "gate/inputs/nvbench_results.h"
#include "gate/judging/verdict.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::expect_words;
using testing::testdata;

constexpr const char* kCopyI32Block64 = "suite/copy_sweep/T:I32,BlockSize:64,Elements:1048576";
constexpr const char* kCopyI32Block256 = "suite/copy_sweep/T:I32,BlockSize:256,Elements:1048576";
constexpr const char* kCopyF64Block64 = "suite/copy_sweep/T:F64,BlockSize:64,Elements:1048576";
constexpr const char* kCopyF64Block256 = "suite/copy_sweep/T:F64,BlockSize:256,Elements:1048576";

NvbenchResults load_fixture(const std::optional<formats::GpuIdentity>& gpu = std::nullopt) {
  return load_nvbench_results(testdata("nvbench/suite.json"), "suite", gpu);
}

TEST(NvbenchInput, EveryStateOfTheSuiteIsABenchmark) {
  const NvbenchResults nv = load_fixture();
  const ResultsFile& r = nv.results;
  std::vector<std::string> names;
  for (const auto& [name, samples] : r.benchmarks) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{kCopyF64Block256, kCopyF64Block64, kCopyI32Block256, kCopyI32Block64,
                                             "suite/reduce/Algorithm:block_x20tile,Ratio:0.5",
                                             "suite/reduce/Algorithm:warp,Ratio:0.5", "suite/simple"}))
      << "the device is no part of a name; a power-of-two axis is its value; a space is escaped";
  EXPECT_EQ(nv.states.size(), names.size());
  EXPECT_EQ(nv.nvbench_version, "0.1.0");
}

TEST(NvbenchInput, SampleTimesAreEverySampleInMicroseconds) {
  const NvbenchResults nv = load_fixture();
  const BenchmarkSamples& b = nv.results.benchmarks.at(kCopyI32Block64);
  EXPECT_EQ(b.unit, "us");
  ASSERT_EQ(b.samples.size(), 12u);
  EXPECT_NEAR(b.samples[0], 10.0, 1e-5) << "float32 seconds, as suite.json-bin/0.bin holds them";
  EXPECT_NEAR(b.samples[8], 9.8, 1e-5);
  EXPECT_FALSE(b.samples_are_summaries);
  EXPECT_EQ(b.repetitions, 12);
  const std::optional<double> process = process_median(nv.results, kCopyI32Block64, kMinSamples);
  ASSERT_TRUE(process.has_value());
  EXPECT_NEAR(*process, 10.025, 1e-5) << "the median of the samples, not nvbench's mean (10.046)";

  const NvbenchStateInfo& info = nv.states.at(kCopyI32Block64);
  EXPECT_EQ(info.samples_from, NvbenchSamplesFrom::kSampleTimes);
  EXPECT_EQ(info.state_name, "Device=0 T=I32 BlockSize=2^6 Elements=2^20");
  EXPECT_EQ(info.nvbench_samples, 12);
  ASSERT_TRUE(info.noise_pct.has_value());
  EXPECT_NEAR(*info.noise_pct, 1.37, 1e-9);
}

TEST(NvbenchInput, WithoutSampleTimesTheMeanIsTheProcesssOneSample) {
  const NvbenchResults nv = load_fixture();
  // Its sample-times file could not be written: the summary has no filename, and the mean is read.
  const BenchmarkSamples& failed_write = nv.results.benchmarks.at(kCopyI32Block256);
  ASSERT_EQ(failed_write.samples.size(), 1u);
  EXPECT_NEAR(failed_write.samples[0], 8.5, 1e-9);
  EXPECT_TRUE(failed_write.samples_are_summaries);
  EXPECT_EQ(nv.states.at(kCopyI32Block256).samples_from, NvbenchSamplesFrom::kMean);
  EXPECT_NEAR(nv.states.at(kCopyI32Block256).noise_pct.value_or(0.0), 0.4, 1e-9);
  EXPECT_NEAR(process_median(nv.results, kCopyI32Block256, kMinSamples).value_or(0.0), 8.5, 1e-9)
      << "one summary a process is enough";

  EXPECT_NEAR(nv.results.benchmarks.at(kCopyF64Block64).samples.at(0), 19.5, 1e-9);
  EXPECT_NEAR(nv.results.benchmarks.at("suite/reduce/Algorithm:warp,Ratio:0.5").samples.at(0), 4.25, 1e-9);
  EXPECT_NEAR(nv.results.benchmarks.at("suite/reduce/Algorithm:block_x20tile,Ratio:0.5").samples.at(0), 5.5, 1e-9);
  EXPECT_NEAR(nv.results.benchmarks.at("suite/simple").samples.at(0), 1.0, 1e-9) << "no axes: named by its benchmark";
}

TEST(NvbenchInput, SkippedStatesAreReportedSkipped) {
  const NvbenchResults nv = load_fixture();
  const BenchmarkSamples& skipped = nv.results.benchmarks.at(kCopyF64Block256);
  EXPECT_TRUE(skipped.skipped);
  EXPECT_EQ(skipped.skip_message, "Warmup time did not meet skip_time limit: 3.412us < 5.000us.");
  EXPECT_TRUE(skipped.samples.empty());
  EXPECT_EQ(nv.states.at(kCopyF64Block256).samples_from, NvbenchSamplesFrom::kNone);
}

TEST(NvbenchInput, TheGpuIsTheDeviceItsStatesRanOn) {
  const NvbenchResults nv = load_fixture();
  const GpuContext& gpu = nv.results.gpu;
  EXPECT_EQ(gpu.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(gpu.slug, "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(gpu.compute_capability, "9.0") << "from sm_version 900";
  EXPECT_EQ(gpu.sm_count, 132);
  EXPECT_EQ(gpu.memory_mib, 85520809984LL >> 20);
  EXPECT_EQ(gpu.uuid, "") << "nvbench does not write it";
  // One mean SM clock per measured state: 3 copy_sweep states at 1755 MHz, 3 others at 1980 MHz.
  EXPECT_EQ(nv.results.sm_clock_mhz, (std::vector<double>{1755, 1755, 1755, 1980, 1980, 1980}));

  formats::GpuIdentity started_on;
  started_on.name = "NVIDIA H100 80GB HBM3";
  started_on.uuid = "GPU-8f4a1c2e-0000-0000-0000-000000000001";
  started_on.driver = "580.159.04";
  const GpuContext filled = load_fixture(started_on).results.gpu;
  EXPECT_EQ(filled.uuid, started_on.uuid) << "what nvbench does not write, the caller fills in";
  EXPECT_EQ(filled.driver, "580.159.04");
  EXPECT_EQ(filled.sm_count, 132);
  EXPECT_EQ(filled.memory_mib, 85520809984LL >> 20) << "nvbench's, where the caller knows none";
  started_on.memory_mib = 81559;  // NVML's total, above CUDA's totalGlobalMem
  EXPECT_EQ(load_fixture(started_on).results.gpu.memory_mib, 81559) << "one source for every file of a run";

  started_on.name = "NVIDIA H200";
  expect_words(testing::input_error_of([&] { load_fixture(started_on); }),
               {"suite.json: its states ran on 'NVIDIA H100 80GB HBM3'", "not on 'NVIDIA H200'", "--devices N"});
}

TEST(NvbenchInput, TheNamesLeadBackToTheStates) {
  const NvbenchResults nv = load_fixture();
  for (const auto& [name, info] : nv.states) {
    const formats::NvbenchName back = formats::nvbench_from_our_name(name);
    ASSERT_EQ(back.error, "") << name;
    EXPECT_EQ(back.family, "suite");
    // The state's name, as nvbench wrote it, shows the same axes (a power of two as 2^N); not where a
    // value holds a space ("block tile"), which only axis_values say.
    if (back.state.benchmark == "reduce") continue;
    const formats::NvbenchAxisValues from_name = formats::nvbench_axis_values_from_state_name(info.state_name);
    ASSERT_EQ(from_name.error, "") << info.state_name;
    EXPECT_EQ(formats::nvbench_to_our_name("suite", {back.state.benchmark, from_name.values}).name, name);
  }
  EXPECT_EQ(formats::nvbench_from_our_name("suite/reduce/Algorithm:block_x20tile,Ratio:0.5").state.axis_values.at(0).value,
            "block tile");
}

// The fixture, changed by a test, written into a folder of the test's own with its sample times beside it.
class NvbenchFile : public testing::ScratchFolderTest {
 protected:
  static json fixture() { return json::parse(testing::read_fixture_text("nvbench/suite.json")); }

  std::string write_suite(const json& doc) {
    fs::create_directories(dir_ / "suite.json-bin");
    fs::copy_file(testdata("nvbench/suite.json-bin/0.bin"), dir_ / "suite.json-bin" / "0.bin",
                  fs::copy_options::overwrite_existing);
    return write("suite.json", doc.dump(2));
  }

  std::string error_of(const json& doc, const std::string& family = "suite") {
    const std::string path = write_suite(doc);
    return testing::input_error_of([&] { load_nvbench_results(path, family, std::nullopt); });
  }

  // The first state of copy_sweep, which names the sample-times file.
  static json& first_state(json& doc) { return doc["benchmarks"][0]["states"][0]; }

  static json& summary(json& state, const std::string& tag) {
    for (json& s : state["summaries"]) {
      if (s["tag"] == tag) return s;
    }
    throw std::runtime_error("no summary " + tag);
  }

  static void set_data(json& state, const std::string& tag, const std::string& name, const json& value) {
    for (json& item : summary(state, tag)["data"]) {
      if (item["name"] == name) item["value"] = value;
    }
  }

  static void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
};

TEST_F(NvbenchFile, SampleTimesPathsThatLeaveTheFolderAreRefused) {
  write_bytes(dir_.parent_path() / ("outside_" + dir_.filename().string() + ".bin"), std::string(48, '\x3f'));
  for (const std::string& filename : {"../outside_" + dir_.filename().string() + ".bin", std::string("suite.json-bin/../../x.bin"),
                                      std::string("/etc/passwd"), std::string("")}) {
    json doc = fixture();
    set_data(first_state(doc), kNvbenchSampleTimesTag, "filename", filename);
    expect_words(error_of(doc), {"suite.json: benchmarks[0].states[0] ('suite/copy_sweep/T:I32,BlockSize:64,Elements:1048576')"
                                 ".summaries[", "('nv/json/bin:nv/cold/sample_times').data 'filename' is '",
                                 "which leaves the JSON's folder", "keep that folder beside the JSON"});
  }
  fs::remove(dir_.parent_path() / ("outside_" + dir_.filename().string() + ".bin"));
}

TEST_F(NvbenchFile, ALinkOutOfTheFolderIsRefused) {
  const fs::path outside = dir_.parent_path() / ("outside_" + dir_.filename().string() + ".bin");
  write_bytes(outside, std::string(48, '\x3f'));
  json doc = fixture();
  write_suite(doc);
  fs::create_symlink(outside, dir_ / "suite.json-bin" / "1.bin");
  set_data(first_state(doc), kNvbenchSampleTimesTag, "filename", "suite.json-bin/1.bin");
  expect_words(error_of(doc), {"'filename' is 'suite.json-bin/1.bin', which leads out of the JSON's folder (through a link)"});
  fs::remove(outside);
}

TEST_F(NvbenchFile, APathAsOlderNvbenchWroteItIsFoundBesideTheJson) {
  // Before nvbench's #405 the filename was the path given on its command line, wherever the run was.
  json doc = fixture();
  set_data(first_state(doc), kNvbenchSampleTimesTag, "filename", "/builds/ci/out/suite.json-bin/0.bin");
  const NvbenchResults nv = load_nvbench_results(write_suite(doc), "suite", std::nullopt);
  EXPECT_EQ(nv.results.benchmarks.at(kCopyI32Block64).samples.size(), 12u);
}

TEST_F(NvbenchFile, SampleTimesFilesOfTheWrongSizeOrValuesAreRefused) {
  json doc = fixture();
  set_data(first_state(doc), kNvbenchSampleTimesTag, "size", "13");
  expect_words(error_of(doc), {"'size' is 13 samples, but", "0.bin' holds 12"});

  doc = fixture();
  set_data(first_state(doc), kNvbenchSampleTimesTag, "filename", "suite.json-bin/missing.bin");
  expect_words(error_of(doc), {"'filename' is 'suite.json-bin/missing.bin': cannot open", "No such file"});

  doc = fixture();
  set_data(first_state(doc), kNvbenchSampleTimesTag, "filename", "suite.json-bin/odd.bin");
  first_state(doc)["summaries"].back()["data"].erase(1);  // no size: the file's length alone is checked
  write_suite(doc);
  write_bytes(dir_ / "suite.json-bin" / "odd.bin", std::string(7, '\x3f'));
  expect_words(testing::input_error_of([&] { load_nvbench_results(path("suite.json"), "suite", std::nullopt); }),
               {"7 bytes: not a whole number of float32 samples"});

  fs::resize_file(dir_ / "suite.json-bin" / "odd.bin", kMaxNvbenchSampleTimesBytes + 4);  // sparse: no disk used
  expect_words(testing::input_error_of([&] { load_nvbench_results(path("suite.json"), "suite", std::nullopt); }),
               {"67108868 bytes, more than the 64 MiB of sample times perf_gate reads", "is it the right file?"});

  // A NaN (0x7fc00000) and a negative time (-1.0f: 0xbf800000) as samples 1 and 2, little-endian.
  write_bytes(dir_ / "suite.json-bin" / "odd.bin", std::string("\x00\x00\x80\x3f\x00\x00\xc0\x7f", 8));
  expect_words(testing::input_error_of([&] { load_nvbench_results(path("suite.json"), "suite", std::nullopt); }),
               {"whose sample 1 is NaN, expected a positive time of 1e-09 to 1e+15 us", "check the suite's timing code"});
  // The smallest float32 (0x00000001, 1.4e-45 s) is finite and positive, but no time once in microseconds.
  write_bytes(dir_ / "suite.json-bin" / "odd.bin", std::string("\x01\x00\x00\x00", 4));
  expect_words(testing::input_error_of([&] { load_nvbench_results(path("suite.json"), "suite", std::nullopt); }),
               {"whose sample 0 is 1.401298464324817e-45 s", "below 1e-09 us"});
  write_bytes(dir_ / "suite.json-bin" / "odd.bin", std::string("\x00\x00\x80\xbf", 4));
  expect_words(testing::input_error_of([&] { load_nvbench_results(path("suite.json"), "suite", std::nullopt); }),
               {"whose sample 0 is negative"});
  write_bytes(dir_ / "suite.json-bin" / "odd.bin", std::string("\x00\x00\x80\x3f", 4));
  EXPECT_EQ(load_nvbench_results(path("suite.json"), "suite", std::nullopt).results.benchmarks.at(kCopyI32Block64).samples,
            std::vector<double>{1e6})
      << "1.0f seconds, little-endian, is 1e6 us";
}

TEST_F(NvbenchFile, AStateWithoutColdGpuTimeIsSkippedSayingWhy) {
  json doc = fixture();
  json& state = doc["benchmarks"][2]["states"][0];  // simple: only its CPU times are left
  json kept = json::array();
  for (const json& s : state["summaries"]) {
    if (s["tag"].get<std::string>().rfind("nv/cold/time/cpu", 0) == 0) kept.push_back(s);
  }
  state["summaries"] = kept;
  const NvbenchResults nv = load_nvbench_results(write_suite(doc), "suite", std::nullopt);
  const BenchmarkSamples& simple = nv.results.benchmarks.at("suite/simple");
  EXPECT_TRUE(simple.skipped);
  EXPECT_NE(simple.skip_message.find("no cold GPU time"), std::string::npos) << simple.skip_message;
}

TEST_F(NvbenchFile, MalformedTimesAndVersionsAreRefused) {
  json doc = fixture();
  set_data(doc["benchmarks"][1]["states"][0], kNvbenchGpuMeanTag, "value", "abc");
  expect_words(error_of(doc), {"suite.json: benchmarks[1].states[0] ('suite/reduce/Algorithm:warp,Ratio:0.5')",
                               "('nv/cold/time/gpu/mean').data 'value' is 'abc', expected a number of seconds",
                               "re-run the suite with --json FILE"});
  set_data(doc["benchmarks"][1]["states"][0], kNvbenchGpuMeanTag, "value", "-4.25e-06");
  expect_words(error_of(doc), {"'value' is negative, expected a positive time of 1e-09 to 1e+15 us"});
  set_data(doc["benchmarks"][1]["states"][0], kNvbenchGpuMeanTag, "value", "1e303");
  expect_words(error_of(doc), {"('nv/cold/time/gpu/mean').data 'value' is 1e+303 s, which is inf us"});
  set_data(doc["benchmarks"][1]["states"][0], kNvbenchGpuMeanTag, "value", "5e-324");
  expect_words(error_of(doc), {"'value' is 5e-324 s, 4.940656e-318 us, below 1e-09 us"});
  set_data(doc["benchmarks"][1]["states"][0], kNvbenchGpuMeanTag, "value", "inf");
  expect_words(error_of(doc), {"'value' is infinite"});
  set_data(doc["benchmarks"][1]["states"][0], kNvbenchGpuMeanTag, "value", json::array());
  expect_words(error_of(doc), {".data[0].value is an array, expected a number written as text"});

  doc = fixture();
  doc["meta"]["version"]["json"]["major"] = 2;
  expect_words(error_of(doc), {"suite.json: meta.version.json.major is 2, this perf_gate reads nvbench JSON file version 1"});
  doc = fixture();
  doc.erase("meta");
  EXPECT_EQ(error_of(doc), "") << "nvbench's first files had no version";

  doc = fixture();
  first_state(doc)["device"] = 1;
  expect_words(error_of(doc), {"benchmarks[0].states[0].device is 1, which the file's 'devices' does not list"});
  doc["devices"].push_back(doc["devices"][0]);
  doc["devices"][1]["id"] = 1;
  expect_words(error_of(doc), {"suite.json: benchmarks[0].states[1].device is 0, but benchmarks[0].states[0] ran on device 1",
                               "run the suite on one GPU (nvbench --devices N)"});

  doc = fixture();
  doc["benchmarks"][1]["states"][1]["axis_values"][0]["value"] = "warp";
  expect_words(error_of(doc), {"benchmarks[1].states[1] maps onto the benchmark name 'suite/reduce/Algorithm:warp,Ratio:0.5', "
                               "as an earlier state does"});
}

TEST_F(NvbenchFile, MalformedDocumentsAreRefused) {
  expect_words(testing::input_error_of([&] { load_nvbench_results(write("a.json", "{\"benchmarks\": ["), "suite", std::nullopt); }),
               {"a.json", "not valid JSON"});
  expect_words(testing::input_error_of([&] { load_nvbench_results(write("a.json", "[1]"), "suite", std::nullopt); }),
               {"a.json: the top level is an array", "is this an nvbench JSON file?"});
  expect_words(testing::input_error_of([&] { load_nvbench_results(write("a.json", "{\"devices\": []}"), "suite", std::nullopt); }),
               {"a.json: benchmarks is missing", "--json FILE"});
  expect_words(testing::input_error_of([&] { load_nvbench_results(write("a.json", "{\"benchmarks\": []}"), "suite", std::nullopt); }),
               {"holds no state of any benchmark", "check its --benchmark (-b) options"});
  json doc = fixture();
  doc["benchmarks"][0]["states"][0].erase("device");
  expect_words(error_of(doc), {"benchmarks[0].states[0].device is missing"});
  doc = fixture();
  doc["benchmarks"][0]["states"][0]["axis_values"] = "T=I32";
  expect_words(error_of(doc), {"benchmarks[0].states[0].axis_values is a string, expected an array"});
  doc = fixture();
  doc["benchmarks"][0]["states"][0]["axis_values"] = nullptr;
  doc["benchmarks"][0]["states"][0]["name"] = "Device=0 T=I32 BlockSize=2^99";
  expect_words(error_of(doc), {"benchmarks[0].states[0].name: nvbench state name", "from 0 to 62"});
  expect_words(error_of(fixture(), "my-suite"), {"family name 'my-suite'", "docs/suites.md"});
  expect_words(testing::input_error_of([&] { load_nvbench_results(path("none.json"), "suite", std::nullopt); }),
               {"cannot open", "did the suite write its --json file?"});
}

TEST_F(NvbenchFile, HostileNamesAreEscapedReversiblyOrRefused) {
  json doc = fixture();
  doc["benchmarks"][2]["name"] = "simple\n::error::x|`<img>`@all";
  const NvbenchResults nv = load_nvbench_results(write_suite(doc), "suite", std::nullopt);
  const std::string name = "suite/simple_x0a::error::x_x7c_x60_x3cimg_x3e_x60_x40all";
  ASSERT_EQ(nv.results.benchmarks.count(name), 1u);
  EXPECT_EQ(formats::nvbench_from_our_name(name).state.benchmark, "simple\n::error::x|`<img>`@all");

  doc = fixture();
  doc["benchmarks"][1]["states"][0]["axis_values"][0]["value"] = std::string(10000, 'w');
  const std::string huge = error_of(doc);
  expect_words(huge, {"suite.json: benchmarks[1].states[0]: nvbench state name 'reduce Algorithm=www",
                      "characters long once mapped onto a benchmark name (at most 160", "shorten its name in the suite"});
  EXPECT_LT(huge.size(), 500u);

  doc = fixture();
  doc["devices"][0]["name"] = "NVIDIA\x1b[2J H100";
  expect_words(error_of(doc), {"suite.json: devices[0].name: GPU name 'NVIDIA\\x1b[2J H100' has a control character"});
}

}  // namespace
}  // namespace gpuperf::gate
