#pragma once
// The history store: every perf run on main, per GPU model, in a database (perf_gate history-append,
// history-export). One schema for two databases: SQLite (one file, the default; on GitHub a release asset,
// docs/history.md) and PostgreSQL (one server that many runners append to).
//
// A store is named by a URL-like string:
//   sqlite:PATH, or a bare PATH        a SQLite file (created by the first append)
//   postgresql://... or postgres://... a PostgreSQL database (libpq's connection URI)
// Nothing else: not SQLite's own URIs (file:...?mode=memory, ?nolock=1) or :memory:, which would keep
// nothing or turn the write lock off.
// Neither database is a build-time dependency: their client libraries (libsqlite3.so.0, libpq.so.5) are
// loaded when a store is opened, so perf_gate builds on a GPU host without their headers; a missing
// library is an InputError that names it and how to install it.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gate/history/run_record.h"
#include "gate/history/series.h"

namespace gpuperf::gate::history {

// The schema this perf_gate reads and writes, kept in the database (table schema_version): a store of
// another version is refused, never half-read. Change the schema, bump it.
inline constexpr int kStoreSchemaVersion = 1;
// How long a store waits before it gives up [milliseconds]: SQLite for another writer's transaction;
// PostgreSQL to connect (connect_timeout), for a lock (lock_timeout) and for a statement
// (statement_timeout), each unless the URI (or the role, database or server configuration) sets it.
inline constexpr int kStoreTimeoutMs = 120000;

// The range a stored process median must lie in [the benchmark's unit: us or cycles]. 1e-6 us is a
// picosecond, below one GPU clock; 1e12 us is 11 days and 1e12 cycles 8 minutes at 2 GHz, longer than any
// benchmark's median. Within it the ratio of two medians is at most 1e18 and a square at most 1e24, so
// every change, percentage and sum the analysis forms stays a finite double. Outside it is a unit mix-up
// or a hand edit: one median of 1e300 beside one of 1e-280 made an infinite change, which the export
// wrote as null and the dashboard then refused for every GPU.
inline constexpr double kMinStoredMedian = 1e-6;
inline constexpr double kMaxStoredMedian = 1e12;

// The run history-remove took out.
struct RemovedRun {
  std::string run_key;
  std::string gpu_slug;
  std::string commit;
  std::string date;
  std::size_t results = 0;  // its benchmarks' rows
};

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
  // Takes the run `run_key` out, with its results, in one transaction; nullopt when no such run is stored
  // (nothing changed). A benchmark's name and a code hash stay: other runs may refer to them.
  virtual std::optional<RemovedRun> remove(const std::string& run_key) = 0;
  // The store's name as messages show it (a password hidden).
  virtual const std::string& name() const = 0;
  // The key of every stored run (every GPU), in the order stored: how a CI job learns how many runs a copy
  // of the store holds before it replaces another, and whether a workflow run is kept already.
  virtual std::vector<std::string> run_keys() = 0;
};

// Where the client libraries are loaded from: their sonames, or a path (a test names one that is absent).
struct StoreLibraries {
  std::string sqlite = "libsqlite3.so.0";
  std::string postgresql = "libpq.so.5";
};

struct StoreOptions {
  StoreLibraries libraries;
  int timeout_ms = kStoreTimeoutMs;  // perf_gate always uses the default; tests shorten it
};

enum class StoreAccess {
  kAppend,    // created where missing (a SQLite file; the tables of a PostgreSQL database)
  kModify,    // written, but must exist: a store that is not there is an InputError, nothing is created
  kReadOnly,  // must exist: a store that is not there is an InputError, nothing is created
};

// Opens the store `name` names (see above). InputError for a name of no known kind, a library that cannot
// be loaded, a database that cannot be opened or reached in time, or one of another schema version.
std::unique_ptr<Store> open_store(const std::string& name, StoreAccess access, const StoreOptions& options = {});

// InputError when `output` (the file a command is about to write, for option `option`) is the SQLite store
// `name` names, or its journal: the same file by another path or a hard link included. A PostgreSQL
// store has no file to overwrite.
void check_output_is_not_store(const std::string& name, const std::string& output, const std::string& option);

}  // namespace gpuperf::gate::history
