// The PostgreSQL store where a server, a lock or another writer could hold an append for ever or lose it:
// its timeouts (a server that never answers, a held lock, a frozen backend), appends that add code hashes
// in opposite orders at once, and a password never shown. PostgresStore needs the tests' own server
// (unit.gate_history_postgres; skipped elsewhere); PostgresConnection only libpq.
#include <arpa/inet.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/history/store.h"
#include "gate/history/store_connection.h"
#include "gate/tests/history/child_process.h"
#include "gate/tests/history/postgres_server.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::history {
namespace {

using testing::expect_words;
using testing::input_error_of;
using testing::run_in_child;

// The tests' timeout [milliseconds]: short, so that each wait is seen to end.
constexpr int kShortTimeoutMs = 1000;
// How long a test waits for a child that should have given up after kShortTimeoutMs [s].
constexpr int kChildLimitS = 30;

RunRecord make_run(const std::string& key) {
  RunRecord run;
  run.run_key = key;
  run.commit = "abc1234";
  run.date = "2026-11-24T17:05:38Z";
  run.gpu_slug = "nvidia-h200";
  run.gpu_uuid = "GPU-1234";
  run.benchmarks["reduction/reduce9/n:1024"] = BenchmarkRecord{{255.1, 255.3, 255.2}, "us", "SAME", "9f3a"};
  return run;
}

StoreOptions short_timeouts() {
  StoreOptions options;
  options.timeout_ms = kShortTimeoutMs;
  return options;
}

class PostgresStore : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::PostgresServer& server = testing::PostgresServer::instance();
    if (!server.why_not().empty()) GTEST_SKIP() << server.why_not();
    uri_ = server.new_database();
    ASSERT_FALSE(uri_.empty()) << "createdb failed";
    open_store(uri_, StoreAccess::kAppend);  // the tables
  }

  std::unique_ptr<StoreConnection> connection(const std::string& uri) const {
    return connect_postgresql(uri, uri, StoreOptions{});
  }

  std::string uri_;
};

TEST_F(PostgresStore, TimeoutsAreTheStoresUnlessTheUriSetsThem) {
  const std::unique_ptr<StoreConnection> plain = connection(uri_);
  EXPECT_EQ(plain->run("SHOW statement_timeout").at(0).at(0), "2min");
  EXPECT_EQ(plain->run("SHOW lock_timeout").at(0).at(0), "2min");
  const std::unique_ptr<StoreConnection> given = connection(uri_ + "&options=-c%20statement_timeout%3D5s");
  EXPECT_EQ(given->run("SHOW statement_timeout").at(0).at(0), "5s") << "the URI's";
  EXPECT_EQ(given->run("SHOW lock_timeout").at(0).at(0), "2min");
}

// Each of these waited until the append was killed.
TEST_F(PostgresStore, AnAppendGivesUpOnALockHeldByAnother) {
  // A first append creating the tables holds the advisory lock; a second first append waits for it.
  const std::string empty = testing::PostgresServer::instance().new_database();
  const std::unique_ptr<StoreConnection> creator = connection(empty);
  creator->run("BEGIN");
  creator->run("SELECT pg_advisory_xact_lock(4711)");
  testing::ChildOutcome outcome = run_in_child([&] { open_store(empty, StoreAccess::kAppend, short_timeouts()); },
                                               kChildLimitS);
  ASSERT_TRUE(outcome.finished) << "waited " << outcome.seconds << " s";
  // lock_timeout and statement_timeout are the same: the statement's, started first, ends the wait.
  expect_words(outcome.message, {"statement timeout", "longer than statement_timeout (1 s)",
                                 "waiting for a lock another transaction holds", "run it again"});
  creator->run("ROLLBACK");
  const std::unique_ptr<StoreConnection> holder = connection(uri_);

  // The run key held by another open transaction: an append of the same run that has not finished. With a
  // longer statement_timeout from the URI, lock_timeout ends the wait.
  holder->run("BEGIN");
  holder->run("INSERT INTO runs (run_key, commit_sha, date, runner, gpu_slug, gpu_uuid, driver, cuda_runtime,"
              " baseline_recorded, harness_version) VALUES ('held', 'c', 'd', 'r', 'g', 'u', 'v', 'w', 'x', 'y')");
  for (const std::string& uri : {uri_, uri_ + "&options=-c%20statement_timeout%3D20s"}) {
    outcome = run_in_child(
        [&] { open_store(uri, StoreAccess::kAppend, short_timeouts())->append(make_run("held")); }, kChildLimitS);
    ASSERT_TRUE(outcome.finished) << "waited " << outcome.seconds << " s";
    expect_words(outcome.message, {"INSERT INTO runs", "an append of the same run key", "run it again"});
    EXPECT_LT(outcome.seconds, 10.0);
  }
  expect_words(outcome.message, {"lock timeout", "held a lock this one needs for more than 1 s (lock_timeout)"});
  holder->run("ROLLBACK");
  EXPECT_TRUE(open_store(uri_, StoreAccess::kAppend)->append(make_run("held"))) << "nothing was kept of it";
}

// A backend that cannot act on its own statement_timeout (stopped; its host frozen: the kernel still
// answers TCP keepalives) is given up on by the client.
TEST_F(PostgresStore, AnAppendGivesUpOnABackendThatNeverAnswers) {
  const std::string frozen_uri = uri_ + "&application_name=gate_frozen_backend";
  const auto backends = [&] {  // a connection of each process's own
    std::vector<pid_t> pids;
    for (const SqlRow& row :
         connection(uri_)->run("SELECT pid FROM pg_stat_activity WHERE application_name = 'gate_frozen_backend'")) {
      pids.push_back(static_cast<pid_t>(std::stol(*row[0])));
    }
    return pids;
  };
  const testing::ChildOutcome outcome = run_in_child(
      [&] {
        const std::unique_ptr<Store> store = open_store(frozen_uri, StoreAccess::kAppend, short_timeouts());
        for (const pid_t pid : backends()) ::kill(pid, SIGSTOP);
        store->append(make_run("frozen"));
      },
      kChildLimitS);
  for (const pid_t pid : backends()) ::kill(pid, SIGCONT);
  ASSERT_TRUE(outcome.finished) << "waited " << outcome.seconds << " s";
  expect_words(outcome.message, {"did not answer within 1500 ms", "stopped responding", "run it again"});
}

// Two runs adding new code hashes in opposite name order deadlocked (1 of 30 crafted pairs): one exited
// 2 and its run was lost. Each pair here: 150 benchmarks known already, each run giving them new hashes,
// one run in the other's reverse order, both appended at once.
TEST_F(PostgresStore, AppendsAddingCodeHashesInOppositeOrdersAtOnceLoseNothing) {
  constexpr int kBenchmarks = 150;
  constexpr int kPairs = 6;
  const auto run_of = [](const std::string& key, int pair, bool reversed) {
    RunRecord run = make_run(key);
    run.benchmarks.clear();
    for (int b = 0; b < kBenchmarks; ++b) {
      char name[64];
      char hash[32];
      std::snprintf(name, sizeof name, "family/variant_%03d/n:1", b);
      std::snprintf(hash, sizeof hash, "%02d%014d", pair, reversed ? kBenchmarks - 1 - b : b);
      run.benchmarks[name] = BenchmarkRecord{{100.0 + b}, "us", "SAME", pair < 0 ? "" : hash};
    }
    return run;
  };
  ASSERT_TRUE(open_store(uri_, StoreAccess::kAppend)->append(run_of("names", -1, false)));
  int lost = 0;
  std::string messages;
  for (int pair = 0; pair < kPairs; ++pair) {
    // Both writers connected before either starts: they append at once.
    int ready[2];
    int go[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(go), 0);
    pid_t starter = ::fork();
    ASSERT_GE(starter, 0);
    if (starter == 0) {  // waits for both writers, then lets them go
      char byte = 0;
      for (int w = 0; w < 2; ++w) {
        if (::read(ready[0], &byte, 1) != 1) ::_exit(1);
      }
      if (::write(go[1], "gg", 2) != 2) ::_exit(1);
      ::_exit(0);
    }
    pid_t writers[2];
    for (int w = 0; w < 2; ++w) {
      writers[w] = ::fork();
      ASSERT_GE(writers[w], 0);
      if (writers[w] == 0) {
        int status = 0;
        try {
          const std::unique_ptr<Store> store = open_store(uri_, StoreAccess::kAppend);
          const RunRecord run = run_of("pair" + std::to_string(pair) + "/" + std::to_string(w), pair, w == 1);
          char byte = 0;
          if (::write(ready[1], "r", 1) != 1 || ::read(go[0], &byte, 1) != 1) ::_exit(3);
          status = store->append(run) ? 0 : 1;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "writer %d of pair %d: %s\n", w, pair, e.what());
          status = 2;
        }
        ::_exit(status);
      }
    }
    for (const pid_t writer : writers) {
      int status = 0;
      ASSERT_EQ(::waitpid(writer, &status, 0), writer);
      lost += WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
    }
    int status = 0;
    ::waitpid(starter, &status, 0);
    for (const int fd : {ready[0], ready[1], go[0], go[1]}) ::close(fd);
  }
  EXPECT_EQ(lost, 0) << "runs lost of " << 2 * kPairs;
  EXPECT_EQ(open_store(uri_, StoreAccess::kReadOnly)->run_count("nvidia-h200"), 1u + 2 * kPairs);
}

bool libpq_installed() {
  void* libpq = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (libpq != nullptr) dlclose(libpq);
  return libpq != nullptr;
}

// A server that accepts the connection and never answers: connect_timeout ends the wait.
TEST(PostgresConnection, AServerThatNeverAnswersIsGivenUpOnAtConnectTimeout) {
  if (!libpq_installed()) GTEST_SKIP() << "libpq.so.5 is not installed here";
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), length), 0);
  ASSERT_EQ(::listen(listener, 8), 0);  // the kernel completes each connection; nobody ever reads it
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const std::string uri = "postgresql://gate@127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/history";
  StoreOptions options;
  options.timeout_ms = 2000;  // libpq's shortest connect_timeout
  const testing::ChildOutcome outcome =
      run_in_child([&] { open_store(uri, StoreAccess::kAppend, options); }, kChildLimitS);
  ::close(listener);
  ASSERT_TRUE(outcome.finished) << "waited " << outcome.seconds << " s";
  expect_words(outcome.message, {"cannot connect", "timeout expired", "connect_timeout, 2 s", "?connect_timeout=S"});
}

// "gate:p@ss@host" showed "ss" (libpq read "ss@host" as the host and quoted it).
TEST(PostgresConnection, NoPartOfAPasswordIsShownHoweverTheUriIsMalformed) {
  if (!libpq_installed()) GTEST_SKIP() << "libpq.so.5 is not installed here";
  // Port 1 on this machine: nothing listens, libpq fails at once. Each password's pieces are Zq9 and Xw7.
  for (const char* uri : {"postgresql://gate:Zq9@Xw7@127.0.0.1:1/history",
                          "postgresql://gate:Zq9/Xw7@127.0.0.1:1/history",
                          "postgresql://gate:Zq9:Xw7@127.0.0.1:1/history",
                          "postgresql://gate:Zq9?Xw7@127.0.0.1:1/db",
                          "postgresql://gate:Zq9#Xw7@localhost:1/db",
                          "postgres://gate:Zq9@Xw7@@127.0.0.1:1/db",
                          "postgresql://gate:Zq9Xw7@127.0.0.1:1/db?application_name=a@b",
                          "postgresql://127.0.0.1:1/db?password=Zq9&Xw7",
                          "postgresql://127.0.0.1:1/db?sslmode=disable&password=Zq9@Xw7&user=gate"}) {
    const std::string message = input_error_of([&] { open_store(uri, StoreAccess::kAppend); });
    expect_words(message, {"cannot connect"});
    EXPECT_EQ(message.find("Zq9"), std::string::npos) << message;
    EXPECT_EQ(message.find("Xw7"), std::string::npos) << message;
  }
  const std::string message =
      input_error_of([&] { open_store("postgresql://gate:Zq9@Xw7@127.0.0.1:1/history", StoreAccess::kAppend); });
  expect_words(message, {"gate:***@127.0.0.1:1/history", "percent-encode", "%40"});
  // A well-formed URI keeps libpq's message: it never quotes a password.
  expect_words(input_error_of([&] { open_store("postgresql://gate:Zq9%40Xw7@127.0.0.1:1/h", StoreAccess::kAppend); }),
               {"gate:***@127.0.0.1:1/h", "Connection refused"});
}

}  // namespace
}  // namespace gpuperf::gate::history
