// The gate must judge a full suite quickly, files included: what `perf_gate compare` does for 1000
// benchmarks x 30 samples in each of 3 processes (Google Benchmark JSON as the perf binary writes it, about
// 20 MB a file) against a schema 2 baseline of 10 processes: load_baseline + load_results_files +
// compare_with_baseline, under 2 s in a Release build (writing the files is not timed). Asserted on the
// process's CPU time, the best of 3 runs, with no other test beside it (RUN_SERIAL in CMakeLists.txt):
// on 2 cores a neighbouring test inflates even CPU time (1.02 s beside the fuzz test, 0.47 s alone).
// The GPU hosts' CPUs take longer: 1.18 s and 1.48 s on two H100 hosts (g++ 13, nlohmann-json 3.11.3),
// which failed the 1 s bound this test had. A step that went quadratic in the benchmarks would take
// minutes, far beyond either bound. The wall time is printed too.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gate/judging/stored_mode.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

constexpr int kBenchmarks = 1000;
constexpr int kProcesses = 3;
constexpr int kSamplesPerProcess = 30;
constexpr int kBaselineProcesses = 10;
#ifdef NDEBUG
constexpr double kMaxSeconds = 2.0;
#else
constexpr double kMaxSeconds = 10.0;  // unoptimized builds only check that it finishes
#endif

std::string benchmark_name(int i) {
  return "family" + std::to_string(i % 10) + "/variant" + std::to_string(i) + "/n:1024";
}

// One process's results, shaped like the perf binary's output (every field it writes, aggregates too).
std::string results_text(int process) {
  std::string text = R"({
  "context": {
    "date": "2026-11-22T03:00:00+00:00", "host_name": "gpu-runner-3", "executable": "./perf_all",
    "num_cpus": 16, "mhz_per_cpu": 2000, "cpu_scaling_enabled": false, "library_build_type": "release",
    "gpu_name": "NVIDIA H200", "gpu_slug": "nvidia-h200", "gpu_uuid": "GPU-1234", "gpu_compute_capability": "9.0",
    "gpu_sm_count": "132", "gpu_memory_mib": "143771", "driver_version": "580.159.04", "cuda_runtime": "13.0",
    "git_commit": "abc123"
  },
  "benchmarks": [
)";
  char row[1024];
  bool first = true;
  for (int i = 0; i < kBenchmarks; ++i) {
    const std::string name = benchmark_name(i) + "/iterations:1/manual_time";
    const double ratio = 1.0 + 0.0001 * (i % 200);  // 0% to 2%: a mix of SAME and AMBIGUOUS
    const std::vector<double> offsets = testing::noisy_samples(100.0 * ratio, 0.003, kProcesses, 7 * i + 1);
    const std::vector<double> samples =
        testing::noisy_samples(offsets[static_cast<std::size_t>(process)], 0.002, kSamplesPerProcess, 7 * i + 2 + process);
    for (int r = 0; r < kSamplesPerProcess; ++r) {
      std::snprintf(row, sizeof row,
                    "%s    {\n      \"name\": \"%s\",\n      \"family_index\": %d,\n"
                    "      \"per_family_instance_index\": 0,\n      \"run_name\": \"%s\",\n"
                    "      \"run_type\": \"iteration\",\n      \"repetitions\": %d,\n      \"repetition_index\": %d,\n"
                    "      \"threads\": 1,\n      \"iterations\": 1,\n      \"real_time\": %.6e,\n"
                    "      \"cpu_time\": %.6e,\n      \"time_unit\": \"us\",\n      \"bytes\": 4.194304e+06,\n"
                    "      \"flops\": 0.0,\n      \"sm_clock_mhz\": 1980,\n      \"throttle_reasons\": 0,\n"
                    "      \"power_capped\": 0,\n      \"other_processes\": 0,\n      \"throttled\": 0,\n"
                    "      \"injected_slowdown_pct\": 0\n    }",
                    first ? "" : ",\n", name.c_str(), i, name.c_str(), kSamplesPerProcess, r,
                    samples[static_cast<std::size_t>(r)], samples[static_cast<std::size_t>(r)] * 1.3);
      text += row;
      first = false;
    }
    for (const char* aggregate : {"mean", "median", "stddev"}) {
      std::snprintf(row, sizeof row,
                    ",\n    {\n      \"name\": \"%s_%s\",\n      \"family_index\": %d,\n"
                    "      \"per_family_instance_index\": 0,\n      \"run_name\": \"%s\",\n"
                    "      \"run_type\": \"aggregate\",\n      \"repetitions\": %d,\n      \"threads\": 1,\n"
                    "      \"aggregate_name\": \"%s\",\n      \"aggregate_unit\": \"time\",\n"
                    "      \"iterations\": %d,\n      \"real_time\": 1.0e+02,\n      \"cpu_time\": 1.0e+02,\n"
                    "      \"time_unit\": \"us\"\n    }",
                    name.c_str(), aggregate, i, name.c_str(), kSamplesPerProcess, aggregate, kSamplesPerProcess);
      text += row;
    }
  }
  return text + "\n  ]\n}\n";
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

TEST(Speed, CompareOfAThousandBenchmarksFromFilesTakesUnderASecond) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("gate_speed_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);

  Baseline baseline = testing::baseline_for(testing::kH200, 3.0);
  baseline.recorded.runs = kBaselineProcesses;
  baseline.recorded.samples_per_run = kSamplesPerProcess;
  for (int i = 0; i < kBenchmarks; ++i) {
    baseline.benchmarks[benchmark_name(i)] =
        testing::baseline_entry(testing::noisy_samples(100.0, 0.003, kBaselineProcesses, 7 * i + 3));
  }
  const std::string baseline_path = (dir / "baseline.json").string();
  write_text(baseline_path, baseline_to_text(baseline));
  std::vector<std::string> results_paths;
  std::uintmax_t bytes = 0;
  for (int p = 0; p < kProcesses; ++p) {
    results_paths.push_back((dir / ("results_" + std::to_string(p + 1) + ".json")).string());
    write_text(results_paths.back(), results_text(p));
    bytes += std::filesystem::file_size(results_paths.back());
  }

  // The best of 3 runs: the code's speed, not its neighbours'. In one fresh-clone CI run, beside the fuzz
  // test on 2 cores, a single run took 1.02 s of CPU where it takes 0.6 s alone.
  constexpr int kRuns = 3;
  double cpu_seconds = 0.0, read_seconds = 0.0, seconds = 0.0;
  Comparison comparison;
  for (int run = 0; run < kRuns; ++run) {
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    const Baseline loaded = load_baseline(baseline_path);
    const std::vector<ResultsFile> results = load_results_files(results_paths);
    const auto parsed = std::chrono::steady_clock::now();
    comparison = compare_with_baseline(loaded, results, CompareOptions{});
    const auto end = std::chrono::steady_clock::now();
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    if (run == 0 || cpu < cpu_seconds) {
      cpu_seconds = cpu;
      read_seconds = std::chrono::duration<double>(parsed - start).count();
      seconds = std::chrono::duration<double>(end - start).count();
    }
  }
  std::filesystem::remove_all(dir);

  std::printf("best of %d runs: read %.1f MB of results and a baseline in %.3f s, compared %d benchmarks in %.3f s: %.3f s in all "
              "(%.3f s of CPU)\n",
              kRuns, static_cast<double>(bytes) / 1e6, read_seconds, kBenchmarks, seconds - read_seconds, seconds, cpu_seconds);
  RecordProperty("read_seconds", std::to_string(read_seconds));
  RecordProperty("compare_seconds", std::to_string(seconds));
  RecordProperty("cpu_seconds", std::to_string(cpu_seconds));
  ASSERT_EQ(comparison.benchmarks.size(), static_cast<std::size_t>(kBenchmarks));
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    ASSERT_EQ(row.current_processes, kProcesses) << row.name;
    ASSERT_EQ(row.current_samples, kProcesses * kSamplesPerProcess) << row.name;
  }
  EXPECT_LT(cpu_seconds, kMaxSeconds);
}

}  // namespace
}  // namespace gpuperf::gate
