#include "gate/driver/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <optional>

#include "formats/exit_codes.h"
#include "gate/driver/driver_stop.h"

extern char** environ;

namespace gpuperf::gate::driver {
namespace {

// The limit every child runs under [s], 0 for none (ProcessTimeLimit).
int g_process_time_limit_s = 0;
// The process group of the child being waited for (its pid), 0 while none runs; read by the handler.
volatile std::sig_atomic_t g_process_running_group = 0;
// The signal that stopped the driver while a child ran, 0 for none.
volatile std::sig_atomic_t g_process_stop_signal = 0;

// How long a child told to stop (SIGTERM) has before its group is killed [ms]: time to flush its output.
constexpr int kProcessStopGraceMs = 5000;
// How often the driver looks at a running child [ms]: its end is noticed this late at most.
constexpr int kProcessPollMs = 10;

constexpr int kProcessStopSignals[] = {SIGTERM, SIGINT, SIGHUP};

// The driver stopped by a signal: with a child running, it is told to stop and the wait ends it (the
// driver dies of the signal after); with none, the driver dies of it at once, as without this handler.
extern "C" void gpuperf_process_stop_handler(int signal) {
  const pid_t group = static_cast<pid_t>(g_process_running_group);
  if (group <= 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_process_stop_signal = signal;
  ::kill(-group, SIGTERM);
}

// Installed once, before the first child: a signal the driver was started ignoring (nohup) stays ignored.
void install_process_stop_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (const int signal : kProcessStopSignals) {
    struct sigaction previous {};
    if (::sigaction(signal, nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = gpuperf_process_stop_handler;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

// The stop signals blocked for its life: a child's group is known to the handler before one can arrive.
class StopSignalsBlocked {
 public:
  StopSignalsBlocked() {
    sigset_t blocked;
    sigemptyset(&blocked);
    for (const int signal : kProcessStopSignals) sigaddset(&blocked, signal);
    ::pthread_sigmask(SIG_BLOCK, &blocked, &previous_);
  }
  ~StopSignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  StopSignalsBlocked(const StopSignalsBlocked&) = delete;
  StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;
  const sigset_t& previous() const { return previous_; }

 private:
  sigset_t previous_;
};

// Owns a posix_spawnattr_t: the child leads a new process group, with the driver's signal mask as it was
// before the stop signals were blocked.
class SpawnAttributes {
 public:
  explicit SpawnAttributes(const sigset_t& mask) {
    posix_spawnattr_init(&attributes_);
    posix_spawnattr_setpgroup(&attributes_, 0);
    posix_spawnattr_setsigmask(&attributes_, &mask);
    posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  const posix_spawnattr_t* get() const { return &attributes_; }

 private:
  posix_spawnattr_t attributes_;
};

// The driver's environment with `additions` set on top (a variable named twice: the addition wins).
std::vector<std::string> child_environment(const EnvironmentAdditions& additions) {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    bool replaced = false;
    for (const auto& [name, value] : additions) replaced = replaced || text.rfind(name + "=", 0) == 0;
    if (!replaced) entries.push_back(text);
  }
  for (const auto& [name, value] : additions) entries.push_back(name + "=" + value);
  return entries;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

// Owns a posix_spawn_file_actions_t.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  // Both stdout and stderr of the child to `fd`.
  void output_to(int fd) {
    posix_spawn_file_actions_adddup2(&actions_, fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions_, fd, STDERR_FILENO);
  }
  void close(int fd) { posix_spawn_file_actions_addclose(&actions_, fd); }
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

pid_t spawn(const ProcessSpec& spec, const FileActions& actions) {
  if (spec.argv.empty()) throw DriverStop(formats::kExitInvalidInput, "no program to run (an empty command)");
  // The driver's own buffered output first, so that a child writing to the same terminal or log
  // comes after it.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::vector<std::string> arguments = spec.argv;
  std::vector<std::string> environment = child_environment(spec.environment);
  std::vector<char*> argv = pointers(arguments);
  std::vector<char*> envp = pointers(environment);
  install_process_stop_handlers();
  const StopSignalsBlocked blocked;
  const SpawnAttributes attributes(blocked.previous());
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], actions.get(), attributes.get(), argv.data(), envp.data());
  if (error == 0) g_process_running_group = pid;
  if (error != 0) {
    throw DriverStop(formats::kExitInvalidInput, "cannot run '" + spec.argv[0] + "': " + std::strerror(error) +
                                                     " - is it the path of an executable program?");
  }
  return pid;
}

ProcessOutcome outcome_of(int status) {
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

// The child's outcome if it has ended (reaped), else nullopt.
std::optional<ProcessOutcome> ended(pid_t pid) {
  int status = 0;
  const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
  if (reaped == pid) return outcome_of(status);
  if (reaped < 0 && errno != EINTR) return ProcessOutcome{false, formats::kExitInvalidInput};
  return std::nullopt;
}

// Ends the child's group: SIGTERM, up to kProcessStopGraceMs for the child to exit, then SIGKILL to whatever
// of the group is left; the child reaped.
void end_process_group(pid_t pid) {
  ::kill(-pid, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kProcessStopGraceMs);
  bool reaped = false;
  while (!reaped && std::chrono::steady_clock::now() < deadline) {
    reaped = ended(pid).has_value();
    if (!reaped) ::poll(nullptr, 0, kProcessPollMs);
  }
  ::kill(-pid, SIGKILL);
  int status = 0;
  if (!reaped) {
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  g_process_running_group = 0;
}

// Watches a running child: the driver stopped by a signal (the child's group ended, then the driver dies
// of the signal), or the time limit passed (the group ended, DriverStop).
class ChildWatch {
 public:
  ChildWatch(pid_t pid, const ProcessSpec& spec)
      : pid_(pid), spec_(spec), limit_s_(g_process_time_limit_s), start_(std::chrono::steady_clock::now()) {}

  // Returns while the child may go on; else ends it and does not return.
  void check() const {
    if (const int signal = g_process_stop_signal; signal != 0) {
      end_process_group(pid_);
      die_of(signal);
    }
    if (limit_s_ > 0 && std::chrono::steady_clock::now() - start_ >= std::chrono::seconds(limit_s_)) {
      end_process_group(pid_);
      throw DriverStop(formats::kExitInvalidInput,
                       "'" + spec_.argv[0] + "' ran past its time limit of " + std::to_string(limit_s_) +
                           " s and was killed with its process group" +
                           (spec_.log_path.empty() ? std::string() : " (log: " + spec_.log_path + ")") +
                           ". Is it hung (a GPU that stopped answering)? If it needs longer, give "
                           "--process-timeout SECONDS (0: no limit)");
    }
  }

  // `while_running`, where given, is called between two looks at the child.
  ProcessOutcome wait(const std::function<void()>& while_running = nullptr) const {
    for (;;) {
      if (const std::optional<ProcessOutcome> outcome = ended(pid_)) {
        g_process_running_group = 0;
        // The child often ends of the SIGTERM the handler sent before this loop looks at the signal: the
        // driver was still told to stop, and must not go on to the next benchmark.
        if (const int signal = g_process_stop_signal; signal != 0) {
          ::kill(-pid_, SIGKILL);  // what the child left in its group
          die_of(signal);
        }
        return *outcome;
      }
      check();
      if (while_running) while_running();
      ::poll(nullptr, 0, kProcessPollMs);
    }
  }

 private:
  // The driver dies of the signal that stopped it, saying what it ended first.
  [[noreturn]] void die_of(int signal) const {
    const std::string line = "perf_gate: stopped by signal " + std::to_string(signal) + "; ended '" + spec_.argv[0] +
                             "' and its process group first\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, line.data(), line.size());
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    std::_Exit(128 + signal);  // a signal the driver was started with blocked
  }

  pid_t pid_;
  const ProcessSpec& spec_;
  int limit_s_;  // [s]
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::string ProcessOutcome::describe() const { return (signaled ? "signal " : "exit ") + std::to_string(code); }

int default_process_timeout_s(int repetitions) {
  return kProcessTimeoutFloorS + kProcessTimeoutPerRepetitionS * repetitions;
}

ProcessTimeLimit::ProcessTimeLimit(int seconds) : previous_s_(g_process_time_limit_s) {
  g_process_time_limit_s = seconds;
}

ProcessTimeLimit::~ProcessTimeLimit() { g_process_time_limit_s = previous_s_; }

ProcessOutcome run_process(const ProcessSpec& spec) { return run_process(spec, nullptr); }

ProcessOutcome run_process(const ProcessSpec& spec, const std::function<void()>& while_running) {
  FileActions actions;
  int log = -1;
  if (!spec.log_path.empty()) {
    log = ::open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (log < 0) {
      throw DriverStop(formats::kExitInvalidInput, "cannot create the log " + spec.log_path + ": " +
                                                       std::strerror(errno) + " - is its folder writable?");
    }
    actions.output_to(log);
  }
  pid_t pid = -1;
  try {
    pid = spawn(spec, actions);
  } catch (...) {
    if (log >= 0) ::close(log);
    throw;
  }
  if (log >= 0) ::close(log);
  return ChildWatch(pid, spec).wait(while_running);
}

ProcessOutcome run_process_captured(const ProcessSpec& spec, std::string& output) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    throw DriverStop(formats::kExitInvalidInput, std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  FileActions actions;
  actions.output_to(pipe_fds[1]);
  pid_t pid = -1;
  try {
    pid = spawn(spec, actions);
  } catch (...) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw;
  }
  ::close(pipe_fds[1]);
  output.clear();
  const ChildWatch watch(pid, spec);
  char buffer[4096];
  try {
    for (bool open = true; open;) {
      watch.check();
      pollfd readable{pipe_fds[0], POLLIN, 0};
      if (::poll(&readable, 1, kProcessPollMs) <= 0) continue;
      const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
      if (n > 0) {
        output.append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        open = false;
      }
    }
  } catch (...) {
    ::close(pipe_fds[0]);
    throw;
  }
  ::close(pipe_fds[0]);
  return watch.wait();
}

std::string log_tail(const std::string& path, int lines) {
  std::ifstream in(path, std::ios::binary);
  std::deque<std::string> last;
  for (std::string line; std::getline(in, line);) {
    last.push_back(line);
    if (static_cast<int>(last.size()) > lines) last.pop_front();
  }
  std::string text;
  for (const std::string& line : last) text += line + "\n";
  return text;
}

}  // namespace gpuperf::gate::driver
