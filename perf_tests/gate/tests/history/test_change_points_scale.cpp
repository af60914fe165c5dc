// What perf_gate history-changes costs on a history of the size docs/history.md plans for: 108 benchmarks (the
// suite) x 10,000 runs of one GPU model in a SQLite store, analysed by the perf_gate binary in a process of
// its own, whose CPU time (user + system), peak resident memory (wait4's rusage) and export size are
// asserted: under 30 s, 500 MB and 300 MB (the bounds the default-branch job can afford: it analyses
// every GPU model, then uploads the exports).
//
// The store is written here directly in SQL (one transaction; Store::append would take a transaction per
// run), as history-append would have written it: every benchmark has 4 level changes of 2-4%, each run
// is the median of 3 processes (sd 0.44%, 1 in 50 an outlier 5-30% slow), 1 run in 100 is 2-15% slow, and
// runs hop between 3 runners 0.5-1.6% apart. The baseline was re-recorded once, halfway.
//
// Measured (Release build, g++ 12, a 2-core machine shared with other builds): 8.7-9.4 s CPU and 28 MB
// for the first analysis, 11.4 s with --previous (it reads the first's export), a 275 MB export; the
// whole test about a minute, most of it writing the store. Before the export's points were written one
// to a line without their run key and GPU UUID: 25.5 s CPU (43 s on a slower machine) and 489 MB (570 MB
// with CI's run keys), most of the CPU building and indenting the JSON of 1.08 million points. Before the
// analysis went by windows and a benchmark at a time: 34.2 s and 349 MB at 1,000 runs, 322 s and 1,109
// MB at 3,000; at 10,000 it held 1.55 GB when stopped after 2 minutes of CPU (an hour in all).
// Set HISTORY_SCALE_RUNS=N to measure another size (the bounds are asserted at 10,000 runs only).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gate/history/store.h"
#include "gate/history/store_connection.h"
#include "gate/statistics/statistics.h"
#include "gate/tests/history/test_change_points_support.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::history {
namespace {

constexpr int kBenchmarks = 108;
constexpr int kRuns = 10000;
constexpr int kProcesses = 3;
constexpr int kLevelChanges = 4;
constexpr int kRunners = 3;
constexpr double kProcessSd = 0.0044;
constexpr const char* kGpu = "nvidia-h100-80gb-hbm3";
// The bounds at kRuns [CPU seconds], [MB of peak resident memory]; the measured figures are far below them
// (see the header), so a slower CI machine or a neighbouring test does not make this fail.
constexpr double kMaxCpuSeconds = 30.0;
constexpr double kMaxResidentMb = 500.0;
constexpr double kMaxExportMb = 300.0;

std::string benchmark_name(int b) {
  // The registry's names: family/variant/shape, 40 to 82 characters.
  return "family_" + std::to_string(b % 9) + "/variant_" + std::to_string(b) +
         std::string(static_cast<std::size_t>(10 + b % 40), 'x') + "/n:268435456";
}

using testing::Noise;

// The log level of benchmark b at run i: kLevelChanges steps of 2-4%, up or down, spread over the runs.
double level_of(int b, int i, int runs) {
  double level = std::log(10.0 + 3.7 * b);
  for (int c = 1; c <= kLevelChanges; ++c) {
    const int at = runs * c / (kLevelChanges + 1) + (b * 37) % (runs / (2 * (kLevelChanges + 1)) + 1);
    if (i >= at) level += ((b + c) % 2 == 0 ? 1.0 : -1.0) * std::log1p(0.02 + 0.01 * ((b + c) % 3));
  }
  return level;
}

std::string date_of(int i) {
  const std::time_t t = 1767225600 + static_cast<std::time_t>(i) * 600;  // 2026-01-01, a run every 10 minutes
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// A store of `runs` runs of the suite on kGpu at `path`: the schema by Store::append (the first run),
// the rest in one transaction of plain SQL.
void build_store(const std::string& path, int runs) {
  { open_store(path, StoreAccess::kAppend); }  // the schema
  const std::unique_ptr<StoreConnection> db = connect_sqlite(path, path, StoreAccess::kAppend, StoreOptions{});
  db->run("BEGIN IMMEDIATE");
  std::ostringstream sql;
  sql << "INSERT INTO benchmarks (id, name, unit) VALUES ";
  for (int b = 0; b < kBenchmarks; ++b) sql << (b == 0 ? "" : ", ") << "(" << b + 1 << ", '" << benchmark_name(b) << "', 'us')";
  db->run(sql.str());
  Noise noise(0x5CA1Eull);
  std::vector<std::vector<double>> runner_offset(kBenchmarks, std::vector<double>(kRunners));
  for (auto& offsets : runner_offset) {
    for (double& offset : offsets) offset = (noise.uniform() < 0.5 ? -1.0 : 1.0) * noise.uniform(0.005, 0.016);
  }
  int runner = 0;
  char number[32];
  for (int i = 0; i < runs; ++i) {
    if (noise.uniform() < 0.2) runner = static_cast<int>(noise.uniform() * kRunners) % kRunners;
    char commit[48];
    std::snprintf(commit, sizeof commit, "%08x%032x", static_cast<unsigned>(i * 2654435761u), i);
    const std::string baseline = i < runs / 2 ? "2026-01-01T00:00:00Z" : "2026-06-01T00:00:00Z";
    db->run("INSERT INTO runs (id, run_key, commit_sha, date, runner, gpu_slug, gpu_uuid, driver, cuda_runtime,"
            " baseline_recorded, harness_version) VALUES (" + std::to_string(i + 1) + ", 'o/r/" + std::to_string(i) +
            "/GPU-" + std::to_string(runner) + "', '" + commit + "', '" + date_of(i) + "', 'runner-" +
            std::to_string(runner) + "', '" + kGpu + "', 'GPU-" + std::to_string(runner) +
            "', '580.159.04', '13.0', '" + baseline + "', '0.1.0')");
    sql.str("");
    sql << "INSERT INTO results (run_id, benchmark_id, verdict, code_hash_id, process_medians) VALUES ";
    const bool bad_run = noise.uniform() < 0.01;
    const double bad = bad_run ? std::log1p(noise.uniform(0.02, 0.15)) : 0.0;
    for (int b = 0; b < kBenchmarks; ++b) {
      const double run_level = level_of(b, i, runs) + runner_offset[static_cast<std::size_t>(b)][static_cast<std::size_t>(runner)] + bad;
      sql << (b == 0 ? "" : ", ") << "(" << i + 1 << ", " << b + 1 << ", 'SAME', NULL, '[";
      for (int p = 0; p < kProcesses; ++p) {
        double offset = kProcessSd * noise.normal();
        if (noise.uniform() < 0.02) offset += std::log1p(noise.uniform(0.05, 0.30));
        std::snprintf(number, sizeof number, "%.9g", std::exp(run_level + offset));
        sql << (p == 0 ? "" : ",") << number;
      }
      sql << "]')";
    }
    db->run(sql.str());
  }
  db->run("COMMIT");
}

struct ChildCost {
  int exit_code = -1;
  double cpu_seconds = 0.0;  // user + system [s]
  double resident_mb = 0.0;  // peak resident set [MB]
  double wall_seconds = 0.0;
};

// Runs `args` (args[0]: the program) with stdout and stderr to `log`; its cost as the kernel counted it.
ChildCost run_measured(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  ChildCost cost;
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return cost;
  timespec end{};
  clock_gettime(CLOCK_MONOTONIC, &end);
  cost.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  cost.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  cost.resident_mb = static_cast<double>(usage.ru_maxrss) * 1024.0 / 1e6;  // ru_maxrss is in KiB
  cost.wall_seconds = static_cast<double>(end.tv_sec - start.tv_sec) + 1e-9 * static_cast<double>(end.tv_nsec - start.tv_nsec);
  return cost;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class HistoryScale : public gate::testing::ScratchFolderTest {};

TEST_F(HistoryScale, TheSuiteAtTenThousandRunsIsAnalysedInHalfAMinuteWithAnExportUnder300Mb) {
  const char* gate = std::getenv("PERF_GATE");
  ASSERT_NE(gate, nullptr) << "set PERF_GATE to the perf_gate binary (CMakeLists.txt does)";
  const char* runs_override = std::getenv("HISTORY_SCALE_RUNS");
  const int runs = runs_override != nullptr ? std::atoi(runs_override) : kRuns;
  ASSERT_GE(runs, 100);
  const std::string store = path("history.sqlite");
  build_store(store, runs);

  // The first analysis of the store, then the next push's: the same store with the first's export as the
  // previous analysis (about 500 MB of JSON, read without its points).
  const std::vector<std::string> analyse = {gate,        "history-changes", "--store", "sqlite:" + store, "--gpu", kGpu,
                                            "--markdown", path("changes.md")};
  std::vector<std::string> first = analyse;
  first.insert(first.end(), {"--json", path("first.json")});
  std::vector<std::string> next = analyse;
  next.insert(next.end(), {"--json", path("next.json"), "--previous", path("first.json")});
  for (const auto& [args, log_name] : {std::pair{first, "first.log"}, std::pair{next, "next.log"}}) {
    const ChildCost cost = run_measured(args, path(log_name));
    const std::string log = read_file(path(log_name));
    const std::string& json = args[args.size() - (args.size() > first.size() ? 3 : 1)];
    const double export_mb = static_cast<double>(std::ifstream(json, std::ios::ate).tellg()) / 1e6;
    std::printf("history-changes%s over %d benchmarks x %d runs: %.1f s CPU (%.1f s wall), %.0f MB peak resident; "
                "export %.1f MB\n",
                args.size() > first.size() ? " --previous" : "", kBenchmarks, runs, cost.cpu_seconds,
                cost.wall_seconds, cost.resident_mb, export_mb);
    ASSERT_EQ(cost.exit_code, 0) << log.substr(0, 2000);
    if (args.size() == first.size()) {
      // It found the planted changes: most of the 4 per benchmark (the rest are within the noise).
      std::size_t changes = 0;
      for (std::size_t at = log.find("CHANGE  "); at != std::string::npos; at = log.find("CHANGE  ", at + 1)) ++changes;
      EXPECT_GE(changes, static_cast<std::size_t>(kBenchmarks * kLevelChanges * 9 / 10)) << log.substr(0, 2000);
    } else {
      EXPECT_NE(log.find("nothing new since the previous analysis in 108 series"), std::string::npos) << log;
    }
    if (runs == kRuns) {
      EXPECT_LT(cost.cpu_seconds, kMaxCpuSeconds);
      EXPECT_LT(cost.resident_mb, kMaxResidentMb);
      EXPECT_LT(export_mb, kMaxExportMb);
    }
  }
}

}  // namespace
}  // namespace gpuperf::gate::history
