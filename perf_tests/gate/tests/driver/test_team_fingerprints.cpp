// The capture of a team's suite's fingerprints, without a GPU: what one capture process left read into a
// fingerprint or the reason there is none, the capture library found beside perf_gate, and the command
// line of each capture process (one benchmark, run once).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/fingerprint.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/gbench_suite.h"
#include "gate/driver/nvbench_suite.h"
#include "gate/driver/team_fingerprints.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::driver {
namespace {

using testing::expect_words;
using TeamFingerprints = testing::ScratchFolderTest;

constexpr const char* kCaptured = R"json({"schema": 2, "capture_status": "cupti", "libraries": {"cublas": "13.0.2.14"},
  "kernels": [{"name": "saxpy(float)", "mangled_name": "_Z5saxpyf", "grid": [1056, 1, 1], "block": [256, 1, 1],
               "dynamic_shared_memory_bytes": 0, "registers_per_thread": 16, "static_shared_memory_bytes": 0,
               "local_memory_per_thread_bytes": 0, "sass_hash": "0123456789abcdef", "launches": 1}],
  "copies": []})json";

TEST_F(TeamFingerprints, ReadsWhatTheLibraryWrote) {
  const formats::Fingerprint read = read_captured_fingerprint(write("f.json", kCaptured), {false, 0}, "", "L");
  EXPECT_EQ(read.capture_status, formats::kCapturedByCupti);
  ASSERT_EQ(read.kernels.size(), 1u);
  EXPECT_EQ(read.kernels[0].grid[0], 1056);
  EXPECT_EQ(read.libraries.at("cublas"), "13.0.2.14");
}

TEST_F(TeamFingerprints, SaysWhyThereIsNone) {
  // The process failed: whatever it wrote is not trusted.
  EXPECT_EQ(read_captured_fingerprint(write("f.json", kCaptured), {false, 3}, "", "the.log").capture_status,
            "the capture process failed (exit 3; log: the.log)");
  EXPECT_EQ(read_captured_fingerprint(write("f.json", kCaptured), {true, 11}, "", "the.log").capture_status,
            "the capture process failed (signal 11; log: the.log)");
  const std::string none = read_captured_fingerprint(path("absent.json"), {false, 0}, "", "the.log").capture_status;
  EXPECT_NE(none.find("wrote no fingerprint"), std::string::npos) << none;
  EXPECT_NE(none.find("the.log"), std::string::npos) << none;
  const std::string bad = read_captured_fingerprint(write("f.json", "{\"schema\": 2"), {false, 0}, "", "L").capture_status;
  EXPECT_EQ(bad.rfind("the capture library wrote no valid fingerprint: ", 0), 0u) << bad;
  // A reason CUPTI gave is kept as the library wrote it.
  const std::string busy = R"json({"schema": 2, "capture_status": "another profiler holds CUPTI: x", "libraries": {},
                               "kernels": [], "copies": []})json";
  EXPECT_EQ(read_captured_fingerprint(write("f.json", busy), {false, 0}, "", "L").capture_status,
            "another profiler holds CUPTI: x");
  // Nsight Compute attached to the process tree stops a capture process (its output as on an H200); its
  // words are left in the log, not repeated.
  const std::string ncu_output =
      "== saxpy_suite/BM_saxpy/67108864\n==ERROR== Another tool/injection might be loaded since "
      "CUDA_INJECTION64_PATH is set to /p/lib/libgpuperf_fingerprint_inject.so. To run Nsight Compute unset "
      "CUDA_INJECTION64_PATH environment variable.\n";
  const std::string refused =
      read_captured_fingerprint(path("absent.json"), {false, 1}, ncu_output, "the.log").capture_status;
  expect_words(refused, {"another profiler is attached", "Nsight Compute", "exit 1", "the.log"});
  EXPECT_EQ(refused.find("/p/lib"), std::string::npos) << refused;
  EXPECT_EQ(read_captured_fingerprint(path("absent.json"), {false, 1}, "no ==ERROR== at a line's start", "L")
                .capture_status,
            "the capture process failed (exit 1; log: L)");
}

TEST_F(TeamFingerprints, FindsTheLibraryBesidePerfGateInstalledOrBuilt) {
  namespace fs = std::filesystem;
  EXPECT_EQ(find_fingerprint_library("", path("prefix/bin")), "") << "none: no fingerprints, not an error";
  fs::create_directories(dir_ / "prefix/bin");
  fs::create_directories(dir_ / "prefix/lib64");
  write(std::string("prefix/lib64/") + kFingerprintLibraryFile, "");
  EXPECT_EQ(find_fingerprint_library("", path("prefix/bin")), path(std::string("prefix/lib64/") + kFingerprintLibraryFile));
  fs::create_directories(dir_ / "build/perf_tests/gate");
  fs::create_directories(dir_ / "build/perf_tests/harness/fingerprint");
  write(std::string("build/perf_tests/harness/fingerprint/") + kFingerprintLibraryFile, "");
  EXPECT_EQ(find_fingerprint_library("", path("build/perf_tests/gate")),
            path(std::string("build/perf_tests/harness/fingerprint/") + kFingerprintLibraryFile));
  // Given: it must be there.
  EXPECT_EQ(find_fingerprint_library(path("prefix/lib64/libgpuperf_fingerprint_inject.so"), ""),
            path("prefix/lib64/libgpuperf_fingerprint_inject.so"));
  try {
    find_fingerprint_library(path("nowhere.so"), "");
    FAIL() << "a given library that is not there";
  } catch (const DriverStop& stop) {
    EXPECT_EQ(stop.exit_code(), formats::kExitInvalidInput);
    EXPECT_NE(std::string(stop.what()).find("is not a file"), std::string::npos) << stop.what();
  }
}

// The capture process's command line, seen through a suite that exposes it.
template <typename Base>
struct PlanOf : Base {
  using Base::Base;
  std::vector<std::string> plan(const std::string& name) const { return this->capture_argv(name); }
};

TEST(TeamFingerprintPlan, AGoogleBenchmarkProcessRunsItsOneBenchmarkOnce) {
  const PlanOf<GbenchSuite> suite("bench", "saxpy_suite", {"--benchmark_min_time=0.5"});
  const std::vector<std::string> argv = suite.plan("saxpy_suite/BM_saxpy/1024");
  ASSERT_EQ(argv.size(), 5u);
  EXPECT_EQ(argv[0], "bench");
  EXPECT_EQ(argv[1], "--benchmark_min_time=0.5") << "the team's arguments first";
  EXPECT_EQ(argv[2], "--benchmark_filter=" + gbench_filter({"saxpy_suite/BM_saxpy/1024"}, "saxpy_suite"));
  EXPECT_EQ(argv[3], "--benchmark_repetitions=1");
  EXPECT_EQ(argv[4], "--benchmark_min_time=0.001") << "after the team's: the last one given wins";
}

TEST(TeamFingerprintPlan, AnNvbenchProcessRunsItsOneStateOnce) {
  const PlanOf<NvbenchSuite> suite("bench", "team_nv", {"--max-noise", "2"});
  EXPECT_EQ(suite.plan("team_nv/copy_sweep/T:F32,BlockSize:64"),
            (std::vector<std::string>{"bench", "--devices", "0", "--max-noise", "2", "--profile", "--benchmark",
                                      "copy_sweep", "--axis", "T=F32", "--axis", "BlockSize=64"}));
}

}  // namespace
}  // namespace gpuperf::gate::driver
