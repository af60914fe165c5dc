// The history store's contract, run against SQLite (unit.gate) and against a PostgreSQL server the tests
// start (unit.gate_history_postgres): idempotent appends, writers at once, series order, what is kept,
// what is refused, a run removed.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "formats/input_error.h"
#include "gate/history/store.h"
#include "gate/history/store_connection.h"
#include "gate/tests/history/postgres_server.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::history {
namespace {

using testing::expect_words;
using testing::input_error_of;

enum class Backend { kSqlite, kPostgresql };

RunRecord make_run(const std::string& key, const std::string& date, const std::string& gpu_slug = "nvidia-h200") {
  RunRecord run;
  run.run_key = key;
  run.commit = "abc1234";
  run.date = date;
  run.runner = "gpu-runner-1";
  run.gpu_slug = gpu_slug;
  run.gpu_uuid = "GPU-1234";
  run.driver = "580.159.04";
  run.cuda_runtime = "13.0";
  run.baseline_recorded = "2026-11-23T23:24:59Z";
  run.harness_version = "0.1.0";
  run.benchmarks["reduction/reduce9/n:1024"] = BenchmarkRecord{{255.1, 255.3, 255.2}, "us", "SAME", "9f3a0000aaaa1111"};
  run.benchmarks["smem_latency/pointer_chase/stride:1"] = BenchmarkRecord{{1040.0, 1041.0}, "cycles", "", ""};
  return run;
}

class StoreContract : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kSqlite) {
      const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
      std::string test_name = test->name();  // "Name/sqlite": one folder, not two
      for (char& c : test_name) c = c == '/' ? '_' : c;
      dir_ = std::filesystem::temp_directory_path() / ("gate_store_" + std::to_string(getpid()) + "_" + test_name);
      std::filesystem::remove_all(dir_);
      std::filesystem::create_directories(dir_);
      name_ = "sqlite:" + (dir_ / "history.sqlite").string();
      return;
    }
    testing::PostgresServer& server = testing::PostgresServer::instance();
    if (!server.why_not().empty()) GTEST_SKIP() << server.why_not();
    name_ = server.new_database();
    ASSERT_FALSE(name_.empty()) << "createdb failed";
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  std::unique_ptr<Store> open(StoreAccess access = StoreAccess::kAppend) const { return open_store(name_, access); }

  // A connection of its own to the store's database, to change it as a hand or damage would.
  std::unique_ptr<StoreConnection> raw() const {
    if (GetParam() == Backend::kSqlite) {
      return connect_sqlite(name_, (dir_ / "history.sqlite").string(), StoreAccess::kAppend, StoreOptions{});
    }
    return connect_postgresql(name_, name_, StoreOptions{});
  }

  std::filesystem::path dir_;
  std::string name_;
};

TEST_P(StoreContract, AppendingOneRunKeyTwiceKeepsItOnce) {
  const std::unique_ptr<Store> store = open();
  EXPECT_TRUE(store->append(make_run("o/r/1/GPU-1234", "2026-11-24T17:05:38Z")));
  RunRecord retried = make_run("o/r/1/GPU-1234", "2026-11-24T18:00:00Z");
  retried.benchmarks["reduction/reduce9/n:1024"].process_medians = {999.0};
  EXPECT_FALSE(store->append(retried)) << "a retried job's run is stored already";
  EXPECT_EQ(store->run_count("nvidia-h200"), 1u);
  const std::vector<Series> series = store->series("nvidia-h200");
  ASSERT_EQ(series.size(), 2u);
  ASSERT_EQ(series[0].points.size(), 1u);
  EXPECT_EQ(series[0].points[0].date, "2026-11-24T17:05:38Z") << "the first append is the one kept";
  EXPECT_EQ(series[0].points[0].process_medians, (std::vector<double>{255.1, 255.3, 255.2}));
}

// history-runs counts these: the CI job's guard that an upload never holds fewer runs than the download.
TEST_P(StoreContract, RunKeysAreEveryStoredRunInTheOrderStored) {
  const std::unique_ptr<Store> store = open();
  EXPECT_TRUE(store->run_keys().empty());
  EXPECT_TRUE(store->append(make_run("o/r/2/GPU-1234", "2026-11-24T17:05:38Z")));
  EXPECT_TRUE(store->append(make_run("o/r/1/GPU-1234", "2026-11-23T17:05:38Z")));
  EXPECT_FALSE(store->append(make_run("o/r/2/GPU-1234", "2026-11-25T17:05:38Z")));
  EXPECT_EQ(store->run_keys(), (std::vector<std::string>{"o/r/2/GPU-1234", "o/r/1/GPU-1234"}));
}

TEST_P(StoreContract, SeriesAreByNameWithPointsOldestFirstThenInStoredOrder) {
  {
    const std::unique_ptr<Store> store = open();
    store->append(make_run("k2", "2026-11-25T10:00:00Z"));
    store->append(make_run("k1", "2026-11-24T10:00:00Z"));
    store->append(make_run("k3b", "2026-11-26T10:00:00Z"));
    store->append(make_run("k3a", "2026-11-26T10:00:00Z"));  // the same date: after k3b, stored later
    store->append(make_run("other", "2026-11-20T10:00:00Z", "nvidia-h100-80gb-hbm3"));
  }
  const std::unique_ptr<Store> store = open(StoreAccess::kReadOnly);  // a new connection reads what was kept
  EXPECT_EQ(store->run_count("nvidia-h200"), 4u);
  EXPECT_EQ(store->run_count("nvidia-h100-80gb-hbm3"), 1u);
  EXPECT_EQ(store->run_count("nvidia-a100"), 0u);
  const std::vector<Series> series = store->series("nvidia-h200");
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].benchmark, "reduction/reduce9/n:1024");
  EXPECT_EQ(series[1].benchmark, "smem_latency/pointer_chase/stride:1");
  EXPECT_EQ(series[1].unit, "cycles");
  std::vector<std::string> keys;
  for (const SeriesPoint& point : series[0].points) keys.push_back(point.run_key);
  EXPECT_EQ(keys, (std::vector<std::string>{"k1", "k2", "k3b", "k3a"}));
  const SeriesPoint& point = series[0].points[0];
  EXPECT_EQ(series[0].gpu_slug, "nvidia-h200");
  EXPECT_EQ(point.commit, "abc1234");
  EXPECT_EQ(point.gpu_uuid, "GPU-1234");
  EXPECT_DOUBLE_EQ(point.value, 255.2) << "the median of the process medians";
  EXPECT_EQ(point.verdict, "SAME");
  EXPECT_EQ(point.code_hash, "9f3a0000aaaa1111");
  EXPECT_EQ(point.baseline_recorded, "2026-11-23T23:24:59Z");
  EXPECT_EQ(series[1].points[0].code_hash, "") << "no fingerprint: no hash";
  EXPECT_DOUBLE_EQ(series[1].points[0].value, 1040.5);
  EXPECT_EQ(store->series("nvidia-h100-80gb-hbm3").at(0).points.size(), 1u) << "another GPU's own series";
}

// each_series hands over the series of series(), one at a time, in its order; another GPU's and a benchmark
// of the same name in another unit stay apart.
TEST_P(StoreContract, EachSeriesVisitsTheSeriesOfSeriesOneAtATime) {
  {
    const std::unique_ptr<Store> store = open();
    store->append(make_run("k2", "2026-11-25T10:00:00Z"));
    store->append(make_run("k1", "2026-11-24T10:00:00Z"));
    RunRecord cycles = make_run("k3", "2026-11-26T10:00:00Z");
    cycles.benchmarks["reduction/reduce9/n:1024"].unit = "cycles";
    store->append(cycles);
    store->append(make_run("other", "2026-11-20T10:00:00Z", "nvidia-h100-80gb-hbm3"));
  }
  const std::unique_ptr<Store> store = open(StoreAccess::kReadOnly);
  const std::vector<Series> all = store->series("nvidia-h200");
  std::vector<Series> visited;
  store->each_series("nvidia-h200", [&](Series&& series) { visited.push_back(std::move(series)); });
  ASSERT_EQ(visited.size(), all.size());
  ASSERT_EQ(all.size(), 3u) << "reduce9 in cycles and in us, and smem_latency";
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(visited[i].benchmark, all[i].benchmark) << i;
    EXPECT_EQ(visited[i].unit, all[i].unit) << i;
    EXPECT_EQ(visited[i].gpu_slug, "nvidia-h200") << i;
    ASSERT_EQ(visited[i].points.size(), all[i].points.size()) << i;
    for (std::size_t p = 0; p < all[i].points.size(); ++p) {
      EXPECT_EQ(visited[i].points[p].run_key, all[i].points[p].run_key) << i << " " << p;
      EXPECT_EQ(visited[i].points[p].process_medians, all[i].points[p].process_medians) << i << " " << p;
    }
  }
  int none = 0;
  store->each_series("nvidia-a100", [&](Series&&) { ++none; });
  EXPECT_EQ(none, 0);
}

TEST_P(StoreContract, MediansAreKeptToNineSignificantDigits) {
  const std::unique_ptr<Store> store = open();
  RunRecord run = make_run("k", "2026-11-24T10:00:00Z");
  run.benchmarks["reduction/reduce9/n:1024"].process_medians = {360.31999686661726, 0.000123456789123, 1.5e7};
  store->append(run);
  const std::vector<double> kept = store->series("nvidia-h200").at(0).points.at(0).process_medians;
  EXPECT_EQ(kept, (std::vector<double>{360.319997, 0.000123456789, 1.5e7}));
}

TEST_P(StoreContract, AMedianThatIsNotATimeIsRefusedAndNothingIsAdded) {
  const std::unique_ptr<Store> store = open();
  for (const double bad : {0.0, -5.0, 1e300, 1e-280, 2e12, 5e-7, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()}) {
    RunRecord run = make_run("k", "2026-11-24T10:00:00Z");
    run.benchmarks["reduction/reduce9/n:1024"].process_medians = {255.0, bad};
    expect_words(input_error_of([&] { store->append(run); }),
                 {"run k: reduction/reduce9/n:1024", "not a time", "1e-06 to 1e+12"});
  }
  EXPECT_EQ(store->run_count("nvidia-h200"), 0u);
  RunRecord run = make_run("k", "2026-11-24T10:00:00Z");
  run.benchmarks["reduction/reduce9/n:1024"].process_medians = {1e-6, 1e12};
  EXPECT_TRUE(store->append(run)) << "the range's ends are times";
}

// 1e300 beside 1e-280 made an infinite change, written as null; 0 and -5 were exported without complaint.
TEST_P(StoreContract, AStoredMedianThatIsNotATimeIsRefusedNamingItsRunAndBenchmark) {
  open()->append(make_run("good", "2026-11-24T10:00:00Z"));
  open()->append(make_run("o/r/7/GPU-1", "2026-11-25T10:00:00Z"));
  for (const std::string bad : {"[1e300]", "[1e-280]", "[0]", "[-5]", "[255.1,0]"}) {
    raw()->run("UPDATE results SET process_medians = $1 WHERE run_id = (SELECT id FROM runs WHERE run_key = $2)",
               {bad, std::string("o/r/7/GPU-1")});
    expect_words(input_error_of([&] { open(StoreAccess::kReadOnly)->series("nvidia-h200"); }),
                 {"run o/r/7/GPU-1, benchmark reduction/reduce9/n:1024", "not a time",
                  "history-remove --store STORE --run-key o/r/7/GPU-1"});
  }
  ASSERT_TRUE(open(StoreAccess::kModify)->remove("o/r/7/GPU-1"));
  EXPECT_EQ(open(StoreAccess::kReadOnly)->series("nvidia-h200").at(0).points.size(), 1u) << "readable again";
}

TEST_P(StoreContract, RemovingARunTakesItAndItsResultsOutAndNothingElse) {
  const std::unique_ptr<Store> store = open();
  store->append(make_run("k1", "2026-11-24T10:00:00Z"));
  store->append(make_run("k2", "2026-11-25T10:00:00Z"));
  store->append(make_run("k3", "2026-11-26T10:00:00Z", "nvidia-h100-80gb-hbm3"));
  const std::optional<RemovedRun> removed = open(StoreAccess::kModify)->remove("k2");
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->run_key, "k2");
  EXPECT_EQ(removed->gpu_slug, "nvidia-h200");
  EXPECT_EQ(removed->commit, "abc1234");
  EXPECT_EQ(removed->date, "2026-11-25T10:00:00Z");
  EXPECT_EQ(removed->results, 2u);
  EXPECT_FALSE(store->remove("k2")) << "removed once";
  EXPECT_FALSE(store->remove("no-such-run"));
  EXPECT_EQ(store->run_count("nvidia-h200"), 1u);
  EXPECT_EQ(store->run_count("nvidia-h100-80gb-hbm3"), 1u);
  const std::vector<Series> series = store->series("nvidia-h200");
  ASSERT_EQ(series.size(), 2u);
  ASSERT_EQ(series[0].points.size(), 1u);
  EXPECT_EQ(series[0].points[0].run_key, "k1");
  EXPECT_EQ(raw()->run("SELECT COUNT(*) FROM results").at(0).at(0), "4") << "3 runs of 2 benchmarks, less k2's";
  EXPECT_TRUE(store->append(make_run("k2", "2026-11-25T10:00:00Z"))) << "its key is free again";
}

TEST_P(StoreContract, TwoVersionRowsAreADamagedVersionTable) {
  open();
  raw()->run("INSERT INTO schema_version (version) VALUES (1)");
  for (const StoreAccess access : {StoreAccess::kReadOnly, StoreAccess::kAppend}) {
    const std::string message = input_error_of([&] { open(access); });
    expect_words(message, {"version table (schema_version) is damaged", "2 rows", "restore it from a copy"});
    EXPECT_EQ(message.find("reads 1"), std::string::npos) << message;
  }
}

TEST_P(StoreContract, AFailedAppendAddsNothing) {
  const std::unique_ptr<Store> store = open();
  RunRecord run = make_run("k", "2026-11-24T10:00:00Z");
  run.benchmarks["zz/no_median/n:1"] = BenchmarkRecord{{}, "us", "SAME", ""};
  expect_words(input_error_of([&] { store->append(run); }), {"zz/no_median/n:1", "no process median"});
  EXPECT_EQ(store->run_count("nvidia-h200"), 0u);
  run.benchmarks.erase("zz/no_median/n:1");
  EXPECT_TRUE(store->append(run)) << "the key is free: nothing of the failed append was kept";
}

// Two processes, each with its own connection, append 50 runs each at once: every run is kept.
TEST_P(StoreContract, TwoWriterProcessesAtOnceLoseNothing) {
  open();  // the schema, before the writers start
  constexpr int kRunsPerWriter = 50;
  pid_t writers[2];
  for (int w = 0; w < 2; ++w) {
    writers[w] = fork();
    ASSERT_GE(writers[w], 0);
    if (writers[w] == 0) {
      int status = 0;
      try {
        const std::unique_ptr<Store> store = open_store(name_, StoreAccess::kAppend);
        for (int i = 0; i < kRunsPerWriter; ++i) {
          char date[32];
          std::snprintf(date, sizeof date, "2026-11-%02dT10:%02d:00Z", 1 + i % 28, w);
          status |= store->append(make_run("w" + std::to_string(w) + "/" + std::to_string(i), date)) ? 0 : 1;
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "writer %d: %s\n", w, e.what());
        status = 2;
      }
      _exit(status);  // not exit(): the parent's objects (a test server among them) are not this process's
    }
  }
  for (const pid_t writer : writers) {
    int status = 0;
    ASSERT_EQ(waitpid(writer, &status, 0), writer);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed: " << status;
  }
  const std::unique_ptr<Store> store = open(StoreAccess::kReadOnly);
  EXPECT_EQ(store->run_count("nvidia-h200"), 2u * kRunsPerWriter);
  EXPECT_EQ(store->series("nvidia-h200").at(0).points.size(), 2u * kRunsPerWriter);
}

TEST_P(StoreContract, ReadingAStoreWithoutHistoryIsAnInputError) {
  if (GetParam() == Backend::kSqlite) {
    expect_words(input_error_of([&] { open(StoreAccess::kReadOnly); }), {"no file", "history-append"});
    expect_words(input_error_of([&] { open(StoreAccess::kModify); }), {"no file", "history-append"});
    EXPECT_FALSE(std::filesystem::exists(dir_ / "history.sqlite")) << "reading created nothing";
  } else {
    expect_words(input_error_of([&] { open(StoreAccess::kReadOnly); }), {"holds no history", "schema_version"});
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreContract, ::testing::Values(Backend::kSqlite, Backend::kPostgresql),
                         [](const ::testing::TestParamInfo<Backend>& info) {
                           return info.param == Backend::kSqlite ? "sqlite" : "postgresql";
                         });

class StoreErrors : public testing::ScratchFolderTest {};

TEST_F(StoreErrors, AMissingClientLibraryNamesItAndHowToInstallIt) {
  const std::string sqlite = input_error_of([&] {
    open_store(path("h.sqlite"), StoreAccess::kAppend,
               StoreOptions{StoreLibraries{"/no/such/libsqlite3.so.0", "libpq.so.5"}});
  });
  expect_words(sqlite, {"/no/such/libsqlite3.so.0", "cannot be loaded", "apt-get install libsqlite3-0"});
  EXPECT_FALSE(std::filesystem::exists(path("h.sqlite")));
  const std::string postgres = input_error_of([&] {
    open_store("postgresql://localhost/history", StoreAccess::kAppend,
               StoreOptions{StoreLibraries{"libsqlite3.so.0", "/no/such/libpq.so.5"}});
  });
  expect_words(postgres, {"/no/such/libpq.so.5", "cannot be loaded", "apt-get install libpq5"});
}

TEST_F(StoreErrors, ANameOfNoKnownStoreIsRefused) {
  for (const std::string name : {"mysql://host/db", "", "sqlite:", "sqlite://x.sqlite"}) {
    expect_words(input_error_of([&] { open_store(name, StoreAccess::kAppend); }),
                 {"is not a store name", "sqlite:PATH", "postgresql://"});
  }
}

TEST_F(StoreErrors, AFileThatIsNotADatabaseIsAnInputError) {
  std::ofstream(path("notes.txt")) << "not a database, but long enough to have a header of its own........\n";
  expect_words(input_error_of([&] { open_store(path("notes.txt"), StoreAccess::kAppend); }),
               {"SQLite failed", "not a database"});
}

TEST_F(StoreErrors, AConnectionErrorHidesThePassword) {
  void* libpq = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (libpq == nullptr) GTEST_SKIP() << "libpq.so.5 is not installed here";
  dlclose(libpq);
  // Port 1 on this machine: nothing listens, libpq fails at once.
  const std::string message = input_error_of(
      [&] { open_store("postgresql://gate:s3cret@127.0.0.1:1/history", StoreAccess::kAppend); });
  expect_words(message, {"cannot connect", "gate:***@127.0.0.1:1"});
  EXPECT_EQ(message.find("s3cret"), std::string::npos) << message;
}

}  // namespace
}  // namespace gpuperf::gate::history
