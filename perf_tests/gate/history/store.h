#pragma once
// The history store: every perf run on main, per GPU model, in a database (perf_gate history-append,
// history-export). One schema for two databases: SQLite (one file, the default; on GitHub a release asset,
// README.md "History") and PostgreSQL (one server that many runners append to).
//
// A store is named by a URL-like string:
//   sqlite:PATH, or a bare PATH        a SQLite file (created by the first append)
//   postgresql://... or postgres://... a PostgreSQL database (libpq's connection URI)
// Neither database is a build-time dependency: their client libraries (libsqlite3.so.0, libpq.so.5) are
// loaded when a store is opened, so perf_gate builds on a GPU host without their headers; a missing
// library is an InputError that names it and how to install it.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gate/history/run_record.h"
#include "gate/history/series.h"

namespace gpuperf::gate::history {

// The schema this perf_gate reads and writes, kept in the database (table schema_version): a store of
// another version is refused, never half-read. Change the schema, bump it.
inline constexpr int kStoreSchemaVersion = 1;
// How long an append waits for another writer's transaction before it gives up [milliseconds].
inline constexpr int kBusyTimeoutMs = 120000;

class Store {
 public:
  virtual ~Store() = default;
  // Adds `run` in one transaction; false when its run_key is stored already (nothing added: a retried CI
  // job is kept once). Writers appending at once lose nothing. InputError when the database fails.
  virtual bool append(const RunRecord& run) = 0;
  // Every benchmark measured on `gpu_slug`, by name (byte order), each with its points oldest first (by
  // date, then by the order they were stored).
  virtual std::vector<Series> series(const std::string& gpu_slug) = 0;
  // The same series, in the same order, handed to `visit` one at a time: a history too large to hold in
  // memory at once (108 benchmarks x 10,000 runs: about 1 GB as Series) is read one benchmark at a time.
  virtual void each_series(const std::string& gpu_slug, const std::function<void(Series&&)>& visit) = 0;
  // How many runs of `gpu_slug` are stored.
  virtual std::size_t run_count(const std::string& gpu_slug) = 0;
};

// Where the client libraries are loaded from: their sonames, or a path (a test names one that is absent).
struct StoreLibraries {
  std::string sqlite = "libsqlite3.so.0";
  std::string postgresql = "libpq.so.5";
};

enum class StoreAccess {
  kAppend,    // created where missing (a SQLite file; the tables of a PostgreSQL database)
  kReadOnly,  // must exist: a store that is not there is an InputError, nothing is created
};

// Opens the store `name` names (see above). InputError for a name of no known kind, a library that cannot
// be loaded, a database that cannot be opened, or one of another schema version.
std::unique_ptr<Store> open_store(const std::string& name, StoreAccess access,
                                  const StoreLibraries& libraries = StoreLibraries{});

}  // namespace gpuperf::gate::history
