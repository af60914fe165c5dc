#pragma once
// A test's code run in a child process of its own, with a time limit: a store that waits for ever (a
// server that never answers, a lock never released) fails the test instead of hanging it, and a process
// killed mid-write or run as another user leaves the test's own process as it was.

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

namespace gpuperf::gate::testing {

struct ChildOutcome {
  bool finished = false;  // false: still running at the limit, and killed
  std::string message;    // what it threw ("" where it returned), or how it died
  double seconds = 0.0;   // how long it ran [s]
};

// Runs `body` in a forked child, at most `limit_s` seconds. The child ends with _exit(): the parent's
// objects (a test server among them) are not its own to destroy.
inline ChildOutcome run_in_child(const std::function<void()>& body, int limit_s) {
  const auto start = std::chrono::steady_clock::now();
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return {true, "pipe failed", 0.0};
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe_fds[0]);
    std::string message;
    try {
      body();
    } catch (const std::exception& e) {
      message = e.what();
      if (message.empty()) message = "an exception without a message";
    }
    [[maybe_unused]] const ssize_t written = ::write(pipe_fds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  ChildOutcome outcome;
  const auto deadline = start + std::chrono::seconds(limit_s);
  char buffer[4096];
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd readable{pipe_fds[0], POLLIN, 0};
    if (::poll(&readable, 1, static_cast<int>(left.count())) <= 0) continue;
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) {  // end of file: the child is done
      outcome.finished = true;
      break;
    }
    outcome.message.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  if (!outcome.finished) ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  if (outcome.finished && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    outcome.message = "the child process died (wait status " + std::to_string(status) + ")";
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

}  // namespace gpuperf::gate::testing
