// The SQLite store where SQLite itself could lose or refuse a run: a writer killed mid-append (its journal
// left hot), names SQLite reads as URIs or as memory, a folder this user may not write, and an output
// file that is the store itself.
#include <grp.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/history/store.h"
#include "gate/history/store_connection.h"
#include "gate/tests/history/child_process.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::history {
namespace {

using testing::expect_words;
using testing::input_error_of;
using testing::run_in_child;

RunRecord make_run(const std::string& key) {
  RunRecord run;
  run.run_key = key;
  run.commit = "abc1234";
  run.date = "2026-11-24T17:05:38Z";
  run.gpu_slug = "nvidia-h200";
  run.gpu_uuid = "GPU-1234";
  run.benchmarks["reduction/reduce9/n:1024"] = BenchmarkRecord{{255.1, 255.3, 255.2}, "us", "SAME", ""};
  return run;
}

class SqliteStore : public testing::ScratchFolderTest {
 protected:
  std::string store_path() const { return path("history.sqlite"); }

  // A writer that dies mid-append, as kill -9 leaves it: its transaction has written pages into the file
  // (a one-page cache spills them) and its journal, which holds the pages as they were, stays "hot".
  void kill_a_writer_mid_append() const {
    const testing::ChildOutcome writer = run_in_child(
        [&] {
          const std::unique_ptr<StoreConnection> db =
              connect_sqlite(store_path(), store_path(), StoreAccess::kAppend, StoreOptions{});
          db->run("PRAGMA cache_size = 1");
          db->begin_write();
          for (int i = 0; i < 500; ++i) {
            db->run("INSERT INTO runs (run_key, commit_sha, date, runner, gpu_slug, gpu_uuid, driver, cuda_runtime,"
                    " baseline_recorded, harness_version) VALUES ($1, 'c', 'd', 'r', 'nvidia-h200', 'u', 'v', 'w',"
                    " 'x', 'y')",
                    {std::string(400, 'k') + std::to_string(i)});
          }
          ::_exit(0);  // no rollback, no close: as a killed process
        },
        60);
    ASSERT_TRUE(writer.finished);
    ASSERT_EQ(writer.message, "");
    ASSERT_GT(std::filesystem::file_size(store_path() + "-journal"), 0u) << "a journal left behind";
  }

  // Runs `body` in a child process as a user who may not write what root made (root passes every
  // permission check): as the user "nobody" when the test runs as root.
  testing::ChildOutcome as_unprivileged(const std::function<void()>& body) const {
    return run_in_child(
        [&] {
          if (::geteuid() == 0) {
            const passwd* nobody = ::getpwnam("nobody");
            if (nobody == nullptr) throw std::runtime_error("no user nobody");
            if (::setgroups(0, nullptr) != 0 || ::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0) {
              throw std::runtime_error("cannot become nobody");
            }
          }
          body();
        },
        60);
  }
};

// After a writer died mid-append, history-export and history-changes failed with "attempt to write a
// readonly database" until the next append: a read-only connection cannot roll a hot journal back.
TEST_F(SqliteStore, AReaderRollsBackTheJournalOfAWriterKilledMidAppend) {
  open_store(store_path(), StoreAccess::kAppend)->append(make_run("kept"));
  kill_a_writer_mid_append();
  const std::unique_ptr<Store> store = open_store(store_path(), StoreAccess::kReadOnly);
  const std::vector<Series> series = store->series("nvidia-h200");
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].points.size(), 1u);
  EXPECT_EQ(series[0].points[0].run_key, "kept");
  EXPECT_EQ(store->run_count("nvidia-h200"), 1u) << "none of the killed writer's rows";
  EXPECT_FALSE(std::filesystem::exists(store_path() + "-journal")) << "rolled back";
  const testing::CliRun run = testing::cli(
      {"history-export", "--store", store_path(), "--gpu", "nvidia-h200", "--json", path("export.json")});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
}

TEST_F(SqliteStore, AReaderThatCannotRollAJournalBackSaysWhoCan) {
  open_store(store_path(), StoreAccess::kAppend)->append(make_run("kept"));
  kill_a_writer_mid_append();
  const testing::ChildOutcome reader = as_unprivileged([&] {
    if (::access(store_path().c_str(), W_OK) == 0) throw std::runtime_error("SKIP: this user may write the store");
    open_store(store_path(), StoreAccess::kReadOnly)->series("nvidia-h200");
  });
  ASSERT_TRUE(reader.finished);
  if (reader.message.rfind("SKIP", 0) == 0) GTEST_SKIP() << reader.message;
  expect_words(reader.message, {"readonly", "left its journal", "history-append", "may write"});
}

TEST_F(SqliteStore, AnAppendWhereTheFolderOrFileIsNotWritableSaysWhatToDo) {
  std::filesystem::create_directories(path("shared"));
  const std::string store = path("shared") + "/history.sqlite";
  open_store(store, StoreAccess::kAppend)->append(make_run("first"));
  ASSERT_EQ(::chmod(store.c_str(), 0666), 0);
  ASSERT_EQ(::chmod(path("shared").c_str(), 0555), 0);
  const auto append_one = [&] { open_store(store, StoreAccess::kAppend)->append(make_run("2")); };
  testing::ChildOutcome append = as_unprivileged(append_one);
  ASSERT_TRUE(append.finished);
  expect_words(append.message,
               {"cannot be written", "its folder", "not writable", "journal", "make the folder writable"});
  EXPECT_EQ(append.message.find("attempt to write a readonly database"), std::string::npos) << append.message;
  const testing::ChildOutcome remove =
      as_unprivileged([&] { open_store(store, StoreAccess::kModify)->remove("first"); });
  expect_words(remove.message, {"its folder", "not writable"});
  const testing::ChildOutcome read = as_unprivileged([&] {
    if (open_store(store, StoreAccess::kReadOnly)->run_count("nvidia-h200") != 1) throw std::runtime_error("lost");
  });
  EXPECT_EQ(read.message, "") << "reading needs no journal";

  ASSERT_EQ(::chmod(path("shared").c_str(), 0777), 0);
  ASSERT_EQ(::chmod(store.c_str(), 0444), 0);
  append = as_unprivileged(append_one);
  expect_words(append.message, {"its file", "not writable", "chmod u+w"});
  EXPECT_EQ(open_store(store, StoreAccess::kReadOnly)->run_count("nvidia-h200"), 1u);
}

TEST_F(SqliteStore, AnAppendGivesUpOnAWriterThatHoldsTheStoreTooLong) {
  open_store(store_path(), StoreAccess::kAppend)->append(make_run("first"));
  const std::unique_ptr<StoreConnection> holder =
      connect_sqlite(store_path(), store_path(), StoreAccess::kAppend, StoreOptions{});
  holder->begin_write();
  StoreOptions options;
  options.timeout_ms = 200;
  expect_words(input_error_of([&] { open_store(store_path(), StoreAccess::kAppend, options)->append(make_run("2")); }),
               {"database is locked", "another writer held the store for more than 200 ms", "run it again"});
  holder->run("ROLLBACK");
  EXPECT_TRUE(open_store(store_path(), StoreAccess::kAppend, options)->append(make_run("2")));
}

// `:memory:` and `file:x?mode=memory` reported "appended run" and kept nothing; `?nolock=1` turned the
// write lock off.
TEST_F(SqliteStore, NamesSqliteReadsAsUrisOrMemoryAreRefused) {
  const std::string file = path("h.sqlite");
  for (const std::string& name :
       {std::string(":memory:"), std::string("sqlite::memory:"), "file:" + file + "?mode=memory",
        "sqlite:file:" + file + "?mode=memory&cache=shared", "file:" + file, "file:" + file + "?nolock=1",
        file + "?nolock=1", "sqlite:" + file + "?mode=memory"}) {
    const std::string message = input_error_of([&] { open_store(name, StoreAccess::kAppend)->append(make_run("k")); });
    expect_words(message, {"is not a store name", "sqlite:PATH", "postgresql://"});
    EXPECT_TRUE(message.find("in-memory") != std::string::npos || message.find("URI") != std::string::npos)
        << message;
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir_)) << "nothing created";
  // A file whose name only holds "file:" further on is a file like any other.
  std::filesystem::create_directories(path("file:x"));
  const std::string odd = path("file:x") + "/file:h.sqlite";
  EXPECT_TRUE(open_store(odd, StoreAccess::kAppend)->append(make_run("k")));
  EXPECT_EQ(open_store("sqlite:" + odd, StoreAccess::kReadOnly)->run_count("nvidia-h200"), 1u);
}

// `history-export --store S --json S` replaced the store with its export.
TEST_F(SqliteStore, AnOutputThatIsTheStoreOrItsJournalIsRefused) {
  open_store(store_path(), StoreAccess::kAppend)->append(make_run("k"));
  ASSERT_EQ(::link(store_path().c_str(), path("hard_link.sqlite").c_str()), 0);
  const std::string other_spelling = dir_.string() + "/./sub/../history.sqlite";
  std::filesystem::create_directories(path("sub"));
  for (const std::string& output :
       {store_path(), other_spelling, path("hard_link.sqlite"), store_path() + "-journal", store_path() + "-wal"}) {
    for (const std::string& name : {store_path(), "sqlite:" + store_path()}) {
      const std::string named = "--json '" + output + "'";
      expect_words(input_error_of([&] { check_output_is_not_store(name, output, "--json"); }),
                   {named.c_str(), "is the history store", "name another file"});
    }
  }
  EXPECT_EQ(input_error_of([&] { check_output_is_not_store(store_path(), path("export.json"), "--json"); }), "");
  EXPECT_EQ(input_error_of([&] { check_output_is_not_store("postgresql:///h", store_path(), "--json"); }), "");
}

}  // namespace
}  // namespace gpuperf::gate::history
