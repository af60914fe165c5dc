#pragma once
// Progress within one timing process of a team's suite: a process of a large suite runs for minutes, and
// its log (stdout and stderr together, process.h) is the only place that says how far it is. While it runs,
// the driver reads the log every second and prints a line on stderr (plain, for CI logs as for terminals):
//   [perf_gate] progress: BM_copy/4096 finished: 2 of 3 benchmarks done, 1 left; 14 s so far, about 21 s expected
// on a benchmark finished (at most one line every kProgressMinGapS) and every kProgressEveryS otherwise.
// - Google Benchmark prints a benchmark's console lines (its repetitions, then their aggregates) when all
//   its repetitions are done, and flushes them: each group of lines is one finished benchmark. The total is
//   not printed: it is the previous process's count of the same selection, or the benchmarks a
//   re-measurement names.
// - nvbench prints "Run:  [i/N] <state>" as each state starts (markdown_printer.cu; older versions leave
//   out "[i/N]"), flushed.
// - The time expected is the previous process's of the same selection in this run; for the first, the time
//   so far scaled by the count (where the total is known), else "first process, no estimate yet".

#include <chrono>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "gate/driver/process.h"

namespace gpuperf::gate::driver {

// How often a progress line is printed while no benchmark finishes [s], and the least time between two [s].
inline constexpr int kProgressEveryS = 10;   // [s]
inline constexpr int kProgressMinGapS = 3;   // [s]
// How often the log is read [ms].
inline constexpr int kProgressReadMs = 1000;  // [ms]

// What a log says so far.
struct LogProgress {
  int finished = 0;           // benchmarks (nvbench: states) whose results are printed
  std::optional<int> total;   // the count the tool prints (nvbench's "[i/N]"); nullopt where it does not
  std::string running;        // the one the tool says it runs ("" where it does not say)
  std::string last_finished;  // "" before the first
};

// From Google Benchmark's console output (with whatever else the process wrote): the groups of result lines
// after the "Benchmark  Time  CPU  Iterations" header, one a benchmark (aggregate rows "_mean", "_median",
// "_stddev", "_cv" and any other "_<statistic>" are its own). Only whole lines count.
LogProgress gbench_log_progress(const std::string& log_text);

// From nvbench's markdown log: the last "Run:" line, "[i/N]" where it has one.
LogProgress nvbench_log_progress(const std::string& log_text);

// The time a process is expected to take [s]: `previous_s` (the previous process of the same selection)
// where there is one, else the time so far scaled by total / finished where both are known, else nullopt.
std::optional<double> expected_process_s(const LogProgress& progress, std::optional<int> total,
                                         double elapsed_s, std::optional<double> previous_s);

// The line, without "[perf_gate] " (console.h's note() adds it): what ran, how many are left, the time so
// far and the time expected. `total`: the count known by any means; `expected_s` from expected_process_s().
std::string progress_line(const LogProgress& progress, std::optional<int> total, double elapsed_s,
                          std::optional<double> expected_s);

// Runs a team suite's timing processes with progress lines, remembering each selection's time and count for
// the next process of the same selection.
class ProcessProgress {
 public:
  using LogReader = LogProgress (*)(const std::string&);
  explicit ProcessProgress(LogReader reader) : reader_(reader) {}

  // Runs `spec` (run_process) with its log watched and its progress lines on `err`. `selection`: what the
  // process runs ("" the whole suite), the key of the time remembered; `known_total`: the count where the
  // caller knows it (a re-measurement).
  ProcessOutcome run(const ProcessSpec& spec, const std::string& selection, std::optional<int> known_total,
                     std::ostream& err);

 private:
  struct Past {
    double seconds = 0;  // [s]
    int finished = 0;
  };
  LogReader reader_;
  std::map<std::string, Past> past_;  // by selection
};

}  // namespace gpuperf::gate::driver
