#pragma once
// Shared by the gate's unit tests: fixture paths and benchmarks built in memory from synthetic samples.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/judging/comparison.h"
#include "gate/reports/reports.h"
#include "gate/reports/row_words.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::testing {

constexpr const char* kH200 = "nvidia-h200";

// A row's notes and reason as the reports word them (reports/row_words.h).
inline std::string notes_of(const BenchmarkComparison& row) { return notes_text(row.notes); }
inline std::string reason_words_of(const BenchmarkComparison& row, const std::string& mode = "compare") {
  return reason_text(row.reason, mode);
}

inline std::string testdata(const std::string& name) { return std::string(GATE_TESTDATA_DIR) + "/" + name; }

// The message of the formats::InputError `read()` throws ("" if it throws none).
template <typename Read>
std::string input_error_of(Read read) {
  try {
    read();
  } catch (const formats::InputError& e) {
    return e.what();
  }
  return "";
}

// An InputError message was given and holds every one of `words`.
inline void expect_words(const std::string& message, std::initializer_list<const char*> words) {
  ASSERT_FALSE(message.empty()) << "expected an InputError";
  for (const char* word : words) EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' in: " << message;
}

// Sets an environment variable for one test and puts it back.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* previous = std::getenv(name)) previous_ = previous;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnvironment() {
    if (previous_) {
      ::setenv(name_, previous_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> previous_;
};

// A test with a folder of its own under the system's temporary folder, made empty before the test and
// removed after it; the run's seed, the suite's and the test's names make it unique, so tests never meet
// each other's files.
class ScratchFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("gate_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            test->test_suite_name() + "_" + test->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(path(name), std::ios::binary) << content;
    return path(name);
  }

  std::filesystem::path dir_;
};

// A file's whole text, byte for byte ("" where it cannot be read: the test's assertion then says so).
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string read_fixture_text(const std::string& name) { return file_text(testdata(name)); }

// `count` samples around `center` with relative noise `noise` (standard deviation / center), normal
// (Box-Muller on SplitMix64, so the same on every standard library).
inline constexpr double kTwoPi = 6.283185307179586;

inline std::vector<double> noisy_samples(double center, double noise, int count, std::uint64_t seed) {
  SplitMix64 rng(seed);
  const auto uniform = [&rng] { return (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53; };
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) {
    const double gaussian = std::sqrt(-2.0 * std::log(uniform())) * std::cos(kTwoPi * uniform());
    samples.push_back(center * (1.0 + noise * gaussian));
  }
  return samples;
}

inline BenchmarkSamples time_samples(std::vector<double> samples) {
  BenchmarkSamples b;
  b.unit = formats::kUnitMicroseconds;
  b.repetitions = static_cast<int>(samples.size());
  b.samples = std::move(samples);
  return b;
}

// A baseline entry in microseconds from the medians of its recording processes.
inline BaselineEntry baseline_entry(std::vector<double> process_medians) {
  BaselineEntry e;
  e.unit = formats::kUnitMicroseconds;
  e.median = geometric_mean(process_medians);
  e.process_medians = std::move(process_medians);
  return e;
}

inline Baseline baseline_for(const std::string& slug, double default_tolerance_pct) {
  Baseline b;
  b.gpu.name = "NVIDIA H200";
  b.gpu.slug = slug;
  b.default_tolerance_pct = default_tolerance_pct;
  return b;
}

inline ResultsFile results_for(const std::string& slug, const std::string& source = "results.json") {
  ResultsFile r;
  r.source = source;
  r.gpu.name = "NVIDIA H200";
  r.gpu.slug = slug;
  return r;
}

// Benchmark `name` in each of `files` (one process each): process i lands at its own offset around
// `center` (relative standard deviation `process_sd`), and its `samples` samples scatter around that
// offset by `sample_noise`.
inline void add_processes(std::vector<ResultsFile>& files, const std::string& name, double center, double process_sd,
                          std::uint64_t seed, int samples = 30, double sample_noise = 0.002) {
  const std::vector<double> offsets = noisy_samples(center, process_sd, static_cast<int>(files.size()), seed);
  for (std::size_t i = 0; i < files.size(); ++i) {
    files[i].benchmarks[name] = time_samples(noisy_samples(offsets[i], sample_noise, samples, seed * 1000 + i + 1));
  }
}

// `count` results files (processes) of kH200 holding benchmark `name` (see add_processes).
inline std::vector<ResultsFile> processes(const std::string& name, double center, double process_sd, int count,
                                          std::uint64_t seed, int samples = 30, double sample_noise = 0.002) {
  std::vector<ResultsFile> files;
  for (int i = 0; i < count; ++i) files.push_back(results_for(kH200, "process" + std::to_string(i + 1) + ".json"));
  add_processes(files, name, center, process_sd, seed, samples, sample_noise);
  return files;
}

// What a person reads of a comparison: the console report and the Markdown summary.
inline std::string console_of(const Comparison& c) {
  std::ostringstream out;
  write_console_report(c, out);
  return out.str();
}

inline std::string markdown_of(const Comparison& c) {
  std::ostringstream out;
  write_markdown_report(c, out);
  return out.str();
}

}  // namespace gpuperf::gate::testing
