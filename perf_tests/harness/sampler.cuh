#pragma once
// Takes timed samples of one case at a time, the same way for every case:
//   prepare: make the instance, check it against its reference, warm it up;
//   measure: [held until all is enqueued] flush L2 | start event | [injected spin] | runs_per_sample x run() |
//            stop event.
// The GPU's clocks and throttle reasons are read after every sample, so the gate can discard samples
// taken while the GPU was slowed down by something other than the code.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/registry.h"
#include "harness/event_timer.cuh"
#include "harness/fingerprint/cupti_capture.h"
#include "harness/l2_flush.cuh"
#include "harness/launch_gate.cuh"
#include "harness/nvml.h"
#include "harness/slowdown_injection.cuh"
#include "harness/verified_cases.h"

namespace gpuperf {

// How the current case's outputs were judged against its reference in this process.
enum class ReferenceCheck {
  kOff,                    // not compared (check_reference false)
  kChecked,                // compared here, before and after the timed runs
  kVerifiedByCorrectness,  // not compared: the correctness test verified this very code (verified_cases.h)
};

struct Sample {
  double value = 0.0;    // the case's metric: [microseconds per run] for kTime, [cycles] for kCycles
  double time_us = 0.0;  // device time per run, whatever the metric [microseconds]
  std::optional<ClockState> clocks;
};

class Sampler {
 public:
  // check_reference false: cases are run but not compared with their reference (for repeat runs of a
  // binary whose first run checked them; the comparison is most of a case's setup time). Freed device
  // memory stays in the process's pool from here on (keep_freed_device_memory()). With a capture,
  // prepare() also records each case's fingerprint: the kernels of one timed run, never while a sample is taken.
  Sampler(const std::string& pci_bus_id, std::vector<SlowdownRule> rules, bool check_reference = true,
          fingerprint::LaunchCapture* capture = nullptr);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // What prepare() readies a case for: its samples (the pause after freed memory, then the warm-up), or
  // only its check and fingerprint, in a process that times nothing and so needs neither.
  enum class Readiness { kTimed, kCheckedOnly };
  // Makes c the current case unless it already is. On a failed reference check returns the failure
  // (and no case is current); timings of a case that computes the wrong answer are never taken.
  CheckResult prepare(const Case& c, Readiness readiness = Readiness::kTimed);
  // With a capture and check_reference: a case that `verified` lists is run and fingerprinted first, and
  // compared with its reference only where verified->decide() says so. The index must outlive the sampler.
  void use_verified_cases(const VerifiedCasesIndex* verified) { verified_ = verified; }
  // The current case's: how its reference was judged, and why it was checked here despite a record
  // (decide()'s reason; empty when no record named it).
  ReferenceCheck reference_check() const { return reference_check_; }
  const std::string& why_checked_here() const { return why_checked_here_; }
  bool is_current(const Case& c) const { return case_ == &c; }
  Sample measure();
  // The current case's kernels of one sample (runs_per_sample x run()) alone between cudaProfilerStart and
  // cudaProfilerStop, for a profiler that records that range only (ncu --profile-from-start off, nsys
  // --capture-range=cudaProfilerApi): the L2 flush before it and the device synchronised on both sides, so
  // that no other work of this process is in the range. No events, no launch gate, no injected spin.
  void profiler_window();
  // After the samples: the outputs of the last timed run must still match the reference (passes
  // without checking when check_reference is false, or the correctness test verified the case: its check
  // compares the outputs after repeated runs too).
  CheckResult verify_last_run();

  const Nvml& nvml() const { return nvml_; }
  // The slowdown injected into the current case [percent of its own time], if a rule matched.
  std::optional<double> injected_percent() const { return inject_percent_; }
  Counters counters() const { return instance_ ? instance_->counters() : Counters{}; }
  // The current case's fingerprint; nullopt without a capture.
  const std::optional<formats::Fingerprint>& fingerprint() const { return fingerprint_; }

 private:
  double timed_run(double spin_us);
  formats::Fingerprint capture_fingerprint();

  cudaStream_t stream_ = nullptr;
  L2Flush flush_;
  LaunchGate launch_gate_;
  EventTimer timer_;
  Nvml nvml_;
  std::vector<SlowdownRule> rules_;
  bool check_reference_ = true;
  std::optional<SpinDelay> spin_;
  const Case* case_ = nullptr;
  std::unique_ptr<Instance> instance_;
  std::optional<double> inject_percent_;
  double inject_us_ = 0.0;  // [microseconds] per sample
  fingerprint::LaunchCapture* capture_ = nullptr;
  std::optional<formats::Fingerprint> fingerprint_;
  const VerifiedCasesIndex* verified_ = nullptr;
  ReferenceCheck reference_check_ = ReferenceCheck::kOff;
  std::string why_checked_here_;
};

}  // namespace gpuperf
