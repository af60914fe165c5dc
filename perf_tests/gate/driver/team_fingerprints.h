#pragma once
// The fingerprints of a team's suite (gbench_suite.h, nvbench_suite.h), captured from outside its binary:
// one process a benchmark, which runs it once and times nothing, with the capture library
// (harness/fingerprint/inject.cpp) loaded into it by CUDA (CUDA_INJECTION64_PATH). The library writes what
// the process launched to the file GPUPERF_FINGERPRINT_OUT names. One benchmark a process, because neither
// tool says, inside a process, which benchmark launched what; the launches of the tool itself (nvbench's
// own kernels) are the same on both sides of a comparison.
// Capture never fails a run: a benchmark whose process failed, or wrote nothing, has a fingerprint that
// says why it was not captured, and its timing is judged as without one (nothing of it is skipped).

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "formats/fingerprint.h"
#include "gate/driver/process.h"

namespace gpuperf::gate::driver {

// The file name of the capture library, as CMake builds and installs it.
inline constexpr const char* kFingerprintLibraryFile = "libgpuperf_fingerprint_inject.so";

// One capture process: the benchmark it fingerprints (our name) and the command line that runs it once.
struct CaptureProcess {
  std::string benchmark;          // "saxpy_suite/BM_saxpy/1024"
  std::vector<std::string> argv;  // argv[0] the suite's binary
};

// Runs `plan` in order, each process with `library` injected, and returns what each captured, by
// benchmark. Files: <prefix>.fingerprint.json (each process's in turn, replaced), and
// <prefix>.fingerprints.log, every process's output after a line naming its benchmark. Notes on `err`:
// what it captures, and how long it took.
std::map<std::string, formats::Fingerprint> capture_fingerprints_apart(const std::vector<CaptureProcess>& plan,
                                                                       const std::string& library,
                                                                       const std::string& prefix, std::ostream& err);

// What one capture process left in `path`: the fingerprint the library wrote, or one not captured whose
// capture_status says why: an Nsight tool attached to the process stopped it (`output`, the process's
// own output, holds its "==ERROR==" line), the process failed (`outcome`), wrote no file (it never
// initialized CUDA, or CUDA did not load the library), or a file that is not a fingerprint. `log` names
// where the output is kept.
formats::Fingerprint read_captured_fingerprint(const std::string& path, const ProcessOutcome& outcome,
                                               const std::string& output, const std::string& log);

// The capture library: `given` where not empty (--fingerprint-library: it must exist), else the one beside
// perf_gate, whose folder is `executable_dir`: installed (<prefix>/bin -> <prefix>/lib, lib64), or in
// the harness's build tree (perf_tests/gate -> perf_tests/harness/fingerprint). "" where there is none
// (a build without CUDA). DriverStop (exit 2) where `given` is not a file.
std::string find_fingerprint_library(const std::string& given, const std::string& executable_dir);

}  // namespace gpuperf::gate::driver
