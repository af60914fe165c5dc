#include "harness/sampler.cuh"

#include <cuda_profiler_api.h>

#include <algorithm>
#include <string>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/random_fill.cuh"
#include "harness/case_check.h"

namespace gpuperf {
namespace {

constexpr int kWarmupSamples = 5;
// Samples with a zero-length spin that size an injected slowdown (their median is the case's own time).
constexpr int kInjectionSizingSamples = 9;
// Frees what the previous case held. Into the process's pool (keep_freed_device_memory(), in the
// constructor), not to the driver: when cudaFree gave it back, memory-bound kernels ran slower for a while
// after it, as if the driver were still reclaiming it beside them (on an H100, the first 6-18 samples of a
// 2^25-element case after a 1 GiB case were 10-16% slower, then stepped back at once; docs/results.md,
// "Timings that depended on history"), and every process paused 0.1 s per GiB freed before the next
// warm-up, 7 of the suite's 11 s a timing process. With the pool, no first samples of any case were
// slower than its later ones and no pause is needed (docs/results.md, "Memory kept in the pool").
void release(std::unique_ptr<Instance>& instance) {
  if (!instance) return;
  instance.reset();
  GPUPERF_CUDA_CHECK(cudaDeviceSynchronize());
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
      capture_(capture) {
  keep_freed_device_memory();
  GPUPERF_CUDA_CHECK(cudaStreamCreate(&stream_));
  if (!rules_.empty()) spin_.emplace();
}

Sampler::~Sampler() {
  instance_.reset();
  GPUPERF_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
}

CheckResult Sampler::prepare(const Case& c, Readiness readiness) {
  if (case_ == &c) return CheckResult::pass();
  case_ = nullptr;
  release(instance_);  // the previous case's memory first
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

  if (readiness == Readiness::kCheckedOnly) return CheckResult::pass();
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
// which are the harness's), captured before the warm-up: no sample is ever taken
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
