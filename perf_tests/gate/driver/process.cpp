#include "gate/driver/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>

#include "formats/exit_codes.h"
#include "gate/driver/driver_stop.h"

extern char** environ;

namespace gpuperf::gate::driver {
namespace {

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
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], actions.get(), nullptr, argv.data(), envp.data());
  if (error != 0) {
    throw DriverStop(formats::kExitInvalidInput, "cannot run '" + spec.argv[0] + "': " + std::strerror(error) +
                                                     " - is it the path of an executable program?");
  }
  return pid;
}

ProcessOutcome wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return {false, formats::kExitInvalidInput};
  }
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

}  // namespace

std::string ProcessOutcome::describe() const { return (signaled ? "signal " : "exit ") + std::to_string(code); }

ProcessOutcome run_process(const ProcessSpec& spec) {
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
  return wait_for(pid);
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
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (n > 0) {
      output.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  ::close(pipe_fds[0]);
  return wait_for(pid);
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
