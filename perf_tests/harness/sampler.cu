#include "harness/sampler.cuh"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/cuda_check.cuh"
#include "common/random_fill.cuh"
#include "harness/case_check.h"

namespace gpuperf {
namespace {

constexpr int kWarmupSamples = 5;
// Samples with a zero-length spin that size an injected slowdown (their median is the case's own time).
constexpr int kInjectionSizingSamples = 9;
// After a case frees its memory, memory-bound kernels run slower for a while: on an H100 (unchecked
// processes), the first 6-18 samples of a 2^25-element case that followed a 1 GiB case were 10-16% slower
// (count_equal 116 vs 101 us, copy_frame 4096 57.5 vs 49.7 us), then stepped back at once, as if the
// driver were still clearing the freed memory beside them. Run alone, or in a process that checks the
// reference (>= 0.09 s on the host between the case's first run and its warm-up), the same cases were
// not slower. So every process waits at that point, 0.1 s per GiB the previous case freed
// (docs/results.md, "Timings that depended on history"). GPUPERF_SETTLE_SECONDS_PER_GIB overrides it
// (0: no pause), to measure whether another GPU needs it.
constexpr double kSettleSecondsPerFreedGiB = 0.1;

double settle_seconds_per_freed_gib() {
  const char* text = std::getenv("GPUPERF_SETTLE_SECONDS_PER_GIB");
  if (text == nullptr || *text == '\0') return kSettleSecondsPerFreedGiB;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (*end != '\0' || !(seconds >= 0.0 && seconds <= 10.0)) {
    throw std::invalid_argument(std::string("GPUPERF_SETTLE_SECONDS_PER_GIB is '") + text +
                                "': give the pause in seconds per freed GiB, from 0 to 10 (unset: 0.1)");
  }
  return seconds;
}

std::size_t free_device_bytes() {
  std::size_t free_bytes = 0, total_bytes = 0;
  GPUPERF_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

// Frees what the previous case held; returns how much device memory that gave back [GiB].
double release(std::unique_ptr<Instance>& instance) {
  if (!instance) return 0.0;
  const std::size_t before = free_device_bytes();
  instance.reset();
  GPUPERF_CUDA_CHECK(cudaDeviceSynchronize());
  const std::size_t after = free_device_bytes();
  return after > before ? static_cast<double>(after - before) / (1u << 30) : 0.0;
}

double median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

}  // namespace

Sampler::Sampler(const std::string& pci_bus_id, std::vector<SlowdownRule> rules, bool check_reference,
                 fingerprint::LaunchCapture* capture)
    : nvml_(pci_bus_id),
      rules_(std::move(rules)),
      check_reference_(check_reference),
      settle_seconds_per_freed_gib_(settle_seconds_per_freed_gib()),
      capture_(capture) {
  GPUPERF_CUDA_CHECK(cudaStreamCreate(&stream_));
  if (!rules_.empty()) spin_.emplace();
}

Sampler::~Sampler() {
  instance_.reset();
  GPUPERF_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
}

CheckResult Sampler::prepare(const Case& c) {
  if (case_ == &c) return CheckResult::pass();
  case_ = nullptr;
  const double freed_gib = release(instance_);  // the previous case's memory first
  inject_percent_.reset();
  std::unique_ptr<Instance> instance;
  try {
    instance = c.make();
  } catch (const std::exception& e) {
    return CheckResult::fail(std::string("could not set up the case: ") + e.what());
  }
  // A case the correctness test recorded is fingerprinted before its reference check, which the
  // fingerprint may make unnecessary; any other is checked first, as a case that computes the wrong answer
  // is never run further.
  const bool recorded = check_reference_ && capture_ != nullptr && verified_ != nullptr &&
                        verified_->lists(c.family, c.name());
  CheckResult check =
      run_checked(*instance, fresh_seed(), stream_, check_reference_ && !recorded ? Verify::kYes : Verify::kNo);
  if (!check.ok) return check;
  instance_ = std::move(instance);
  case_ = &c;
  fingerprint_.reset();
  if (capture_ != nullptr) fingerprint_ = capture_fingerprint();
  reference_check_ = check_reference_ ? ReferenceCheck::kChecked : ReferenceCheck::kOff;
  why_checked_here_.clear();
  if (recorded) {
    const ReferenceCheckDecision decision = verified_->decide(c.family, c.name(), *fingerprint_);
    if (decision.skip) {
      reference_check_ = ReferenceCheck::kVerifiedByCorrectness;
    } else {
      why_checked_here_ = decision.reason;
      CheckResult late = run_checked(*instance_, fresh_seed(), stream_, Verify::kYes);
      if (!late.ok) {
        case_ = nullptr;
        return late;
      }
    }
  }

  std::this_thread::sleep_for(std::chrono::duration<double>(settle_seconds_per_freed_gib_ * freed_gib));
  for (int i = 0; i < kWarmupSamples; ++i) timed_run(0.0);
  inject_percent_ = slowdown_for(rules_, c.name());
  if (inject_percent_ && c.metric == Metric::kTime) {
    std::vector<double> own(kInjectionSizingSamples);
    for (double& t : own) t = timed_run(0.0);
    inject_us_ = *inject_percent_ / 100.0 * median(own) * c.runs_per_sample;
  }
  return CheckResult::pass();
}

double Sampler::timed_run(double spin_us) {
  {
    const LaunchGate::Held held = launch_gate_.hold(stream_);
    flush_.enqueue(stream_);
    timer_.start(stream_);
    if (inject_percent_ && spin_) spin_->enqueue(stream_, spin_us);
    for (int r = 0; r < case_->runs_per_sample; ++r) instance_->run(stream_);
    GPUPERF_CHECK_LAUNCH();
    timer_.stop(stream_);
  }
  const double elapsed_us = timer_.elapsed_us();
  launch_gate_.check();
  return elapsed_us / case_->runs_per_sample;
}

// The kernels of one timed run (runs_per_sample runs; not the L2 flush, the timer or an injected spin,
// which are the harness's), captured before the settle pause and the warm-up: no sample is ever taken
// while CUPTI records, which adds work to every launch.
formats::Fingerprint Sampler::capture_fingerprint() {
  capture_->begin();
  try {
    for (int r = 0; r < case_->runs_per_sample; ++r) instance_->run(stream_);
    GPUPERF_CHECK_LAUNCH();
  } catch (...) {
    capture_->end();  // leaves CUPTI's recording off for the error's report
    throw;
  }
  return capture_->end();
}

Sample Sampler::measure() {
  Sample sample;
  sample.time_us = timed_run(inject_us_);
  sample.value = case_->metric == Metric::kCycles ? instance_->cycles() : sample.time_us;
  sample.clocks = nvml_.read();
  return sample;
}

void Sampler::profiler_window() {
  flush_.enqueue(stream_);
  // The device, not the stream: a library may launch on a stream of its own.
  GPUPERF_CUDA_CHECK(cudaDeviceSynchronize());
  GPUPERF_CUDA_CHECK(cudaProfilerStart());
  try {
    for (int r = 0; r < case_->runs_per_sample; ++r) instance_->run(stream_);
    GPUPERF_CHECK_LAUNCH();
    GPUPERF_CUDA_CHECK(cudaDeviceSynchronize());
  } catch (...) {
    GPUPERF_CUDA_CHECK_NOTHROW(cudaProfilerStop());  // the range closed whatever failed; the error is reported
    throw;
  }
  GPUPERF_CUDA_CHECK(cudaProfilerStop());
}

CheckResult Sampler::verify_last_run() {
  if (reference_check_ != ReferenceCheck::kChecked) return CheckResult::pass();
  try {
    GPUPERF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    CheckResult result = instance_->verify();
    if (!result.ok) result.message = "wrong result after the timed runs: " + result.message;
    return result;
  } catch (const std::exception& e) {
    return CheckResult::fail(std::string("verify after the timed runs failed: ") + e.what());
  }
}

}  // namespace gpuperf
