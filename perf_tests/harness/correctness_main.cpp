// The correctness tests: one GoogleTest per registry case with the kCorrectness role, named
// <family>.<variant>__<shape>. Each runs the variant twice on fresh random inputs (two seeds) with
// poisoned outputs and compares with the family's reference. Exits 77 (CTest: skipped) with no GPU.
// Reproduce a failure with the seed it prints: GPUPERF_SEED=<seed> gpuperf_correctness --gtest_filter=...
// gpuperf_correctness --help lists its flags (correctness_flags() below, then GoogleTest's); --help and
// --version need no GPU.
//
// The second run of a perf case is repeated as one timed sample repeats it (runs_per_sample) and compared
// with the reference after the repeats, as the benchmark program checked its outputs after timing.
// With GPUPERF_VERIFIED_CASES_DIR set (kernel families' tests get it from CMake), the program records what
// it verified for the perf test of the same build (harness/verified_cases.h): those repeats are captured
// with CUPTI as the benchmark program captures them, and each case that passes is written with that
// fingerprint to <folder>/<family>.json, one file per family whose tests ran, rewritten whole. Without a
// capture (CUPTI unavailable, a profiler attached) the files list no case, and the perf tests check all.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/device_info.h"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "formats/exit_codes.h"
#include "formats/version.h"
#include "harness/case_check.h"
#include "harness/fingerprint/cupti_capture.h"
#include "harness/gpu_info.h"
#include "harness/library_versions.h"
#include "harness/program_flags.h"
#include "harness/verified_cases.h"

namespace gpuperf {
namespace {

// gtest filters use ':' and '-', so shapes like "m:17,n:33" become "m_17_n_33".
std::string test_name(const Case& c) {
  std::string name = c.variant + "__" + c.shape;
  for (char& ch : name) {
    if (ch == ':' || ch == ',' || ch == '-' || ch == '.') ch = '_';
  }
  return name;
}

// What this process verified, per family whose tests ran: written for the perf test at the end.
class VerifiedCasesRecorder {
 public:
  // capture: nullptr when nothing is recorded (no folder, or CUPTI unavailable: every family's file
  // then lists no case).
  VerifiedCasesRecorder(std::string folder, std::string gpu_slug, fingerprint::LaunchCapture* capture)
      : folder_(std::move(folder)), gpu_slug_(std::move(gpu_slug)), capture_(capture) {}
  fingerprint::LaunchCapture* capture() const { return capture_; }

  void ran(const Case& c) {
    VerifiedCases& record = records_[c.family];
    record.family = c.family;
    record.gpu_slug = gpu_slug_;
  }
  void verified(const Case& c, formats::Fingerprint fingerprint) {
    records_[c.family].cases[c.name()] = std::move(fingerprint);
  }

  // One file per family; a file that cannot be written is a warning (the perf test then checks).
  void write() const {
    for (const auto& [family, record] : records_) {
      try {
        write_verified_cases(folder_, record);
      } catch (const std::exception& e) {
        std::fprintf(stderr,
                     "warning: the verified cases of %s were not recorded (%s); its perf test checks every case\n",
                     family.c_str(), e.what());
      }
    }
  }

 private:
  std::string folder_;
  std::string gpu_slug_;
  fingerprint::LaunchCapture* capture_;
  std::map<std::string, VerifiedCases> records_;  // family -> what it verified
};

// One timed sample's runs (runs_per_sample, Sampler::capture_fingerprint's window), captured when
// `capture` is given.
std::optional<formats::Fingerprint> repeat_timed_run(fingerprint::LaunchCapture* capture, Instance& instance,
                                                     int runs, cudaStream_t stream) {
  if (capture != nullptr) capture->begin();
  try {
    for (int r = 0; r < runs; ++r) instance.run(stream);
    GPUPERF_CHECK_LAUNCH();
  } catch (...) {
    if (capture != nullptr) capture->end();
    throw;
  }
  if (capture == nullptr) return std::nullopt;
  return capture->end();
}

class CaseTest : public ::testing::Test {
 public:
  CaseTest(const Case& c, std::string not_applicable, VerifiedCasesRecorder* recorder)
      : case_(c), not_applicable_(std::move(not_applicable)), recorder_(recorder) {}
  void TestBody() override {
    if (recorder_ != nullptr) recorder_->ran(case_);
    if (!not_applicable_.empty()) GTEST_SKIP() << "not applicable on this GPU: " << not_applicable_;
    const auto instance = case_.make();
    // A perf case's second run is repeated as a timed sample repeats it, and captured when recording,
    // before the comparison (see the header comment).
    fingerprint::LaunchCapture* capture = recorder_ != nullptr ? recorder_->capture() : nullptr;
    std::optional<formats::Fingerprint> fingerprint;
    const auto repeat = [&](cudaStream_t stream) {
      fingerprint = repeat_timed_run(capture, *instance, case_.runs_per_sample, stream);
    };
    const bool perf_case = (case_.roles & kPerf) != 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
      const bool last = attempt == 1;
      const CheckResult result = run_checked(*instance, fresh_seed(), stream_, Verify::kYes,
                                             perf_case && last ? repeat : std::function<void(cudaStream_t)>{});
      ASSERT_TRUE(result.ok) << case_.name() << ": " << result.message;
    }
    if (fingerprint && fingerprint->capture_status == formats::kCapturedByCupti) {
      recorder_->verified(case_, std::move(*fingerprint));
    }
  }

 protected:
  // A stream of its own, as the benchmark program's sampler runs cases on one.
  void SetUp() override { GPUPERF_CUDA_CHECK(cudaStreamCreate(&stream_)); }
  void TearDown() override { GPUPERF_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_)); }

 private:
  const Case& case_;
  std::string not_applicable_;        // why the case cannot run on this GPU; empty when it can
  VerifiedCasesRecorder* recorder_;   // nullptr: nothing recorded
  cudaStream_t stream_ = nullptr;
};

// GPUPERF_VERIFIED_CASES_DIR, or "" when unset.
std::string verified_cases_folder() {
  const char* folder = std::getenv(kVerifiedCasesDirVariable);
  return folder == nullptr ? "" : folder;
}

}  // namespace
// The program's own flags: parsed from this table and listed by --help (harness/program_flags.h).
struct CorrectnessOptions {
  bool help = false;
  bool version = false;
};

const std::vector<ProgramFlag<CorrectnessOptions>>& correctness_flags() {
  static const std::vector<ProgramFlag<CorrectnessOptions>> flags = {
      {"--help", nullptr, "Print this help (the harness's flags, then GoogleTest's) and exit 0. Needs no GPU.",
       &CorrectnessOptions::help},
      {"--version", nullptr,
       "Print the harness's version (\"gpuperf 0.1.0\", formats/version.h) and exit 0. Needs no GPU.",
       &CorrectnessOptions::version},
  };
  return flags;
}

std::string correctness_help(const std::string& program) {
  const std::string before =
      "usage: " + program + " [FLAG]... [--gtest_FLAG]...\n" +
      wrapped("The correctness tests: one GoogleTest per registry case with the correctness role, named "
              "<family>.<variant>__<shape>. Each runs the variant twice on fresh random inputs (two seeds) with "
              "poisoned outputs and compares with the family's reference.",
              0, 100) +
      wrapped("Environment: GPUPERF_SEED=SEED reruns with the seed a failure printed (with "
              "--gtest_filter=...); GPUPERF_VERIFIED_CASES_DIR=FOLDER records what was verified for the perf test "
              "of the same build (harness/verified_cases.h).",
              0, 100) +
      wrapped("Exit: 0 every test passed or was skipped; 1 a test failed; 2 bad usage; 77 no CUDA GPU (--help and "
              "--version need none).",
              0, 100) +
      "\nflags of the harness:\n";
  return flags_help(before, correctness_flags(),
                    "\n" + wrapped("GoogleTest's flags: every --gtest_* flag is GoogleTest's, listed below.", 0, 100));
}

}  // namespace gpuperf

int main(int argc, char** argv) {
  using namespace gpuperf;
  // Before GoogleTest parses its flags and before the GPU is looked for: --help and --version need neither.
  CorrectnessOptions options;
  try {
    options = take_flags(correctness_flags(), argc, argv);
  } catch (const FlagError& e) {
    std::fprintf(stderr, "error: %s (see --help)\n", e.what());
    return formats::kExitInvalidInput;
  }
  if (options.help) {
    const std::string program = argv[0];
    std::printf("%s\n", correctness_help(program.substr(program.find_last_of('/') + 1)).c_str());
    std::fflush(stdout);
    int help_argc = 2;
    char help_flag[] = "--help";
    char* help_argv[] = {argv[0], help_flag, nullptr};
    ::testing::InitGoogleTest(&help_argc, help_argv);  // prints GoogleTest's flags
    return formats::kExitPass;
  }
  if (options.version) {
    std::printf("%s\n", formats::kHarnessVersionLine);
    return formats::kExitPass;
  }
  ::testing::InitGoogleTest(&argc, argv);
  // Before the first CUDA call, so that CUPTI sees every module load (cupti_capture.h); only where there
  // is somewhere to record what the capture is for.
  const std::string folder = verified_cases_folder();
  fingerprint::LaunchCapture* capture = folder.empty() ? nullptr : &fingerprint::LaunchCapture::instance();
  std::string why;
  const std::optional<GpuInfo> gpu = query_gpu(why);
  if (!gpu) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return formats::kExitNotJudged;
  }
  std::optional<VerifiedCasesRecorder> recorder;
  if (!folder.empty()) {
    if (capture != nullptr && capture->available()) {
      capture->set_libraries(library_versions(gpu->cuda_runtime));
    } else {
      std::fprintf(stderr,
                   "warning: no fingerprint capture (%s): no case is recorded as verified; the perf tests check "
                   "every case\n",
                   capture->status().c_str());
      capture = nullptr;
    }
    recorder.emplace(folder, gpu->slug, capture);
  }
  VerifiedCasesRecorder* const recording = recorder ? &*recorder : nullptr;
  static Registry registry;
  DeviceCapabilities device;
  try {
    if (const std::string missing = missing_kernel_image(); !missing.empty()) {
      std::fprintf(stderr, "error: %s\n", missing.c_str());
      return formats::kExitInvalidInput;
    }
    device = device_capabilities();
    register_all_families(registry);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return formats::kExitInvalidInput;
  }
  for (const Case& c : registry.cases()) {
    if ((c.roles & kCorrectness) == 0) continue;
    // A case this GPU cannot run is still a test, reported skipped with the reason: listed, never absent.
    std::string not_applicable = not_applicable_reason(c.needs, device);
    ::testing::RegisterTest(c.family.c_str(), test_name(c).c_str(), nullptr, c.name().c_str(), __FILE__, __LINE__,
                            [&c, not_applicable, recording]() -> ::testing::Test* {
                              return new CaseTest(c, not_applicable, recording);
                            });
  }
  const int result = RUN_ALL_TESTS();
  if (recorder) recorder->write();
  return result;
}
