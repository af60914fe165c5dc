#pragma once
// A benchmark suite as the driver sees it: a program it asks, one fresh process at a time, which GPU it
// sees, to check and fingerprint its cases, and to time them; and the reader of what each process wrote.
// The driver's procedures (stored_run.h, ab_run.h) call only this interface, so that a suite of another
// format (suite_format.h) is one more implementation, and a test fakes one without processes.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "formats/case_listing.h"
#include "gate/driver/process.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate::driver {

// The GPU a suite's processes run on, as it identifies it.
struct SuiteGpu {
  std::string name;  // "NVIDIA H100 80GB HBM3"
  std::string slug;  // names the baseline: baselines/<slug>.json (a valid GPU slug, formats/names.h)
  std::string uuid;  // names the GPU's lock
};

// Where one process writes: its results file and its log (stdout and stderr together).
struct ProcessFiles {
  std::string results;
  std::string log;
};

// What one timing process does.
struct TimingRequest {
  std::string filter;             // the cases it runs, in their turn (a regular expression: "^reduction/")
  std::string time_filter;        // of those, the ones it times ("" all); the others are only set up
  int repetitions = 0;            // timed samples of each benchmark
  bool check_references = false;  // compare each case with its reference first (and capture fingerprints)
  EnvironmentAdditions environment;
  // Where not empty: exactly these benchmarks (our names), which `filter` selects too, and time_filter is "".
  // A suite that cannot search our names with a regular expression (a team's) selects them by these.
  std::vector<std::string> only_names;
};

// What a suite does beside timing. Our own checks and has the canary; a team's suite neither, and
// captures its fingerprints apart where the capture library is found (team_fingerprints.h).
struct SuiteAbilities {
  bool checks = true;  // check() and read_fingerprints(): a checking process that captures fingerprints
  bool canary = true;  // times the memory canary's family (the ceiling) beside its own
  bool fingerprints_apart = false;  // capture_fingerprints(): processes of their own, one benchmark each
};

class Suite {
 public:
  virtual ~Suite() = default;

  // The program, as messages name it.
  virtual std::string program() const = 0;

  // What it does beside timing.
  virtual SuiteAbilities abilities() const { return {}; }

  // The GPU the suite sees. DriverStop: exit 77 where it sees none (the message is the suite's reason),
  // exit 2 where it cannot say.
  virtual SuiteGpu gpu() = 0;

  // One process that checks every case `filter` selects against its reference and captures its
  // fingerprint, timing nothing.
  virtual ProcessOutcome check(const std::string& filter, const EnvironmentAdditions& environment,
                               const ProcessFiles& files) = 0;

  // One process that times, as `request` says; what the suite says while it runs (a team's: its pace, its
  // progress) goes to `err`, the procedure's own stream.
  virtual ProcessOutcome time(const TimingRequest& request, const ProcessFiles& files, std::ostream& err) = 0;

  // Whether this build can time a subset of the cases it runs (TimingRequest::time_filter); an older one
  // times the ambiguous benchmarks alone.
  virtual bool supports_time_filter() = 0;

  // The suite's cases in the order its processes run them, for cutting it into shards (shards.h); nullopt
  // for a suite that cannot list them (a team's). DriverStop where the listing fails or cannot be read.
  virtual std::optional<formats::CaseListing> case_listing() { return std::nullopt; }

  // What a timing process wrote. formats::InputError for a file that is not valid results.
  virtual ResultsFile read_results(const std::string& path) const = 0;

  // What a checking process wrote; nullopt where it captured no fingerprint (a profiler already attached:
  // the cases were checked, but nothing is known of their code).
  virtual std::optional<ResultsFile> read_fingerprints(const std::string& path) const = 0;

  // The fingerprints of the benchmarks `names` (ours), each captured in a process of its own that times
  // nothing (abilities().fingerprints_apart), as a results file of fingerprints only, written at
  // <prefix>.fingerprints.json; a benchmark not captured holds a fingerprint saying why. Notes on `err`.
  virtual std::optional<ResultsFile> capture_fingerprints(const std::vector<std::string>& /*names*/,
                                                          const std::string& /*prefix*/, std::ostream& /*err*/) {
    return std::nullopt;
  }
};

}  // namespace gpuperf::gate::driver
