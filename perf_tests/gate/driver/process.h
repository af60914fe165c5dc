#pragma once
// Running a program as a child process of the driver (posix_spawn): its arguments, what is added to its
// environment, and where its output goes; how it ended, a crash (a signal) told apart from a failure.
// Each child leads a process group of its own, so that the driver can end it with everything it started:
// - past the time limit (ProcessTimeLimit), it is stopped and the test ends with exit 2, naming it;
// - when the driver is stopped (SIGTERM, SIGINT, SIGHUP), it ends the running child's group before it
//   dies of that signal itself. The GPU's lock is not inherited (gpu_lock.h), so a benchmark left running
//   would time kernels beside the next run, which holds the lock.

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gpuperf::gate::driver {

// Variables set in a child's environment on top of the driver's own ("GPUPERF_GIT_COMMIT", "abc123").
using EnvironmentAdditions = std::vector<std::pair<std::string, std::string>>;

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is the program: a path, or a name looked up in PATH
  EnvironmentAdditions environment;
  // stdout and stderr together go to this file (created or truncated); "" leaves both the driver's.
  std::string log_path;
};

struct ProcessOutcome {
  bool signaled = false;  // killed by a signal (a crash), not exited
  int code = 0;           // the exit status, or the signal's number when signaled
  bool succeeded() const { return !signaled && code == 0; }
  // "exit 3" or "signal 11", for messages.
  std::string describe() const;
};

// The time limit of every process the driver runs by default [s]: 15 minutes, and a minute for each timed
// sample of each benchmark (--repetitions), as a process times every benchmark that often. A Google
// Benchmark suite of 100 benchmarks at its default min_time of 0.5 s times one sample of each in 50 s; our
// whole suite takes about a minute with 30 (docs/results.md). A hung process costs this, not the CI job.
inline constexpr int kProcessTimeoutFloorS = 900;         // [s]
inline constexpr int kProcessTimeoutPerRepetitionS = 60;  // [s]
int default_process_timeout_s(int repetitions);

// While it lives, every process run_process() or run_process_captured() starts may run `seconds` at most
// (0: no limit, as where none lives): the driver's commands hold one for their run (--process-timeout).
class ProcessTimeLimit {
 public:
  explicit ProcessTimeLimit(int seconds);
  ~ProcessTimeLimit();
  ProcessTimeLimit(const ProcessTimeLimit&) = delete;
  ProcessTimeLimit& operator=(const ProcessTimeLimit&) = delete;

 private:
  int previous_s_;
};

// Runs the process to its end. DriverStop (exit 2) when it cannot be started (no such program, not
// executable) or its log cannot be created, naming the program or the file; and when it runs past the
// time limit: then it and its process group are killed first.
ProcessOutcome run_process(const ProcessSpec& spec);

// The same, calling `while_running` every few milliseconds until the child ends (to watch its log:
// process_progress.h). It must return quickly and not throw.
ProcessOutcome run_process(const ProcessSpec& spec, const std::function<void()>& while_running);

// Runs the process with stdout and stderr captured together into `output` (as $(cmd 2>&1) does).
ProcessOutcome run_process_captured(const ProcessSpec& spec, std::string& output);

// The last `lines` lines of a log, for the message of a process that failed ("" when unreadable).
std::string log_tail(const std::string& path, int lines);

}  // namespace gpuperf::gate::driver
