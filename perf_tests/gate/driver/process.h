#pragma once
// Running a program as a child process of the driver (posix_spawn): its arguments, what is added to its
// environment, and where its output goes; how it ended, a crash (a signal) told apart from a failure.

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

// Runs the process to its end. DriverStop (exit 2) when it cannot be started (no such program, not
// executable) or its log cannot be created, naming the program or the file.
ProcessOutcome run_process(const ProcessSpec& spec);

// Runs the process with stdout and stderr captured together into `output` (as $(cmd 2>&1) does).
ProcessOutcome run_process_captured(const ProcessSpec& spec, std::string& output);

// The last `lines` lines of a log, for the message of a process that failed ("" when unreadable).
std::string log_tail(const std::string& path, int lines);

}  // namespace gpuperf::gate::driver
