// The history store's SQLite connection, over libsqlite3.so.0 loaded at run time (as the harness loads
// NVML: harness/nvml.cpp): a GPU host may have the library (most distributions install it with Python)
// but not its headers, and perf_gate must build there without them.

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/history/store_connection.h"

namespace gpuperf::gate::history {
namespace {

// The SQLite C API subset used here (sqlite3.h, stable since 3.x).
constexpr int kOk = 0;
constexpr int kRow = 100;
constexpr int kDone = 101;
constexpr int kOpenReadOnly = 0x1;
constexpr int kOpenReadWrite = 0x2;
constexpr int kOpenCreate = 0x4;
constexpr int kNullType = 5;
// INSERT ... ON CONFLICT DO NOTHING (the upsert clause) needs SQLite 3.24 (2018).
constexpr int kMinimumVersion = 3024000;
const auto kTransient = reinterpret_cast<void (*)(void*)>(-1);  // SQLITE_TRANSIENT: the text is copied

struct Api {
  int (*libversion_number)();
  int (*open_v2)(const char*, void**, int, const char*);
  int (*close_v2)(void*);
  const char* (*errmsg)(void*);
  int (*busy_timeout)(void*, int);
  int (*prepare_v2)(void*, const char*, int, void**, const char**);
  int (*bind_text)(void*, int, const char*, int, void (*)(void*));
  int (*bind_null)(void*, int);
  int (*step)(void*);
  int (*column_count)(void*);
  int (*column_type)(void*, int);
  const unsigned char* (*column_text)(void*, int);
  int (*finalize)(void*);
  int (*changes)(void*);
};

template <typename F>
bool bind(void* library, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(library, name));
  return fn != nullptr;
}

constexpr const char* kInstall =
    "install SQLite's library (Debian/Ubuntu: apt-get install libsqlite3-0; Fedora/RHEL: dnf install sqlite-libs), "
    "or name a PostgreSQL store (postgresql://...)";

// The path as sqlite3_open_v2 gets it: never read as a URI. SQLITE_OPEN_URI is not passed, but a library
// built with SQLITE_USE_URI (Debian's is) reads a name that begins with "file:" as one all the same, and
// "./" in front of a relative path keeps it a file's name. store.cpp refuses such names before this.
std::string plain_file_name(const std::string& path) { return path.front() == '/' ? path : "./" + path; }

std::string folder_of(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? "." : folder;
}

bool writable(const std::string& path) { return ::access(path.c_str(), W_OK) == 0; }

// Why an append or a removal cannot write the store at `path`, or "": SQLite writes its journal
// (PATH-journal) beside the file, so the folder must be writable as well as the file, or every write fails
// with SQLite's "attempt to write a readonly database".
std::string why_not_writable(const std::string& path) {
  const std::string folder = folder_of(path);
  if (!writable(folder)) {
    return "its folder " + folder + " is not writable by this user, and SQLite writes its journal (" + path +
           "-journal) there while it changes the store - make the folder writable, or copy the store to a "
           "writable folder, change it there and copy it back";
  }
  std::error_code error;
  if (std::filesystem::exists(path, error) && !writable(path)) {
    return "its file " + path + " is not writable by this user - make it writable (chmod u+w), or copy the store "
           "to a writable file, change it there and copy it back";
  }
  return "";
}

// $1, $2, ... as SQLite's numbered parameters ?1, ?2, ... (the store's SQL holds no '$' otherwise).
std::string sqlite_parameters(std::string sql) {
  for (char& c : sql) c = c == '$' ? '?' : c;
  return sql;
}

class SqliteConnection final : public StoreConnection {
 public:
  SqliteConnection(const std::string& name, const std::string& path, StoreAccess access, const StoreOptions& options)
      : name_(name) {
    const std::string& library = options.libraries.sqlite;
    library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) throw formats::InputError(missing_library_message(library, dlerror(), kInstall));
    const bool bound = bind(library_, "sqlite3_libversion_number", api_.libversion_number) &&
                       bind(library_, "sqlite3_open_v2", api_.open_v2) &&
                       bind(library_, "sqlite3_close_v2", api_.close_v2) &&
                       bind(library_, "sqlite3_errmsg", api_.errmsg) &&
                       bind(library_, "sqlite3_busy_timeout", api_.busy_timeout) &&
                       bind(library_, "sqlite3_prepare_v2", api_.prepare_v2) &&
                       bind(library_, "sqlite3_bind_text", api_.bind_text) &&
                       bind(library_, "sqlite3_bind_null", api_.bind_null) && bind(library_, "sqlite3_step", api_.step) &&
                       bind(library_, "sqlite3_column_count", api_.column_count) &&
                       bind(library_, "sqlite3_column_type", api_.column_type) &&
                       bind(library_, "sqlite3_column_text", api_.column_text) &&
                       bind(library_, "sqlite3_finalize", api_.finalize) &&
                       bind(library_, "sqlite3_changes", api_.changes);
    if (!bound) {
      dlclose(library_);
      throw formats::InputError(library + " lacks a function of SQLite's C API the store needs: " + kInstall);
    }
    if (api_.libversion_number() < kMinimumVersion) {
      const int version = api_.libversion_number();
      dlclose(library_);
      throw formats::InputError(library + " is SQLite " + std::to_string(version) +
                                "; the history store needs 3024000 (3.24) or newer: upgrade it");
    }
    std::error_code error;
    if (access != StoreAccess::kAppend && !std::filesystem::is_regular_file(path, error)) {
      dlclose(library_);
      throw formats::InputError("history store " + name_ + ": no file " + path +
                                " - append a run first (perf_gate history-append), or name the right store");
    }
    if (access != StoreAccess::kReadOnly) {
      if (const std::string why = why_not_writable(path); !why.empty()) {
        dlclose(library_);
        throw formats::InputError("history store " + name_ + " cannot be written: " + why);
      }
    }
    int flags = kOpenReadWrite | (access == StoreAccess::kAppend ? kOpenCreate : 0);
    if (access == StoreAccess::kReadOnly) {
      // A writer that died mid-append (killed, out of power) leaves its journal "hot": the next connection
      // must roll it back before it reads, which a read-only one cannot ("attempt to write a readonly
      // database" until the next append). Where a journal is there and this user may write, a reader opens
      // read-write (never creating) and SQLite rolls it back; it writes nothing else.
      const std::string journal = path + "-journal";
      const bool journal_there = std::filesystem::exists(journal, error);
      if (!journal_there || !why_not_writable(path).empty()) flags = kOpenReadOnly;
      if (journal_there && flags == kOpenReadOnly) {
        readonly_hint_ = " - a writer stopped mid-append and left its journal " + journal +
                         ", which only a process that may write the store can roll back: run this command, or the "
                         "next history-append, as a user who may write " + path + " and its folder";
      }
    }
    const int status = api_.open_v2(plain_file_name(path).c_str(), &db_, flags, nullptr);
    if (status != kOk) {
      const std::string why = db_ != nullptr ? api_.errmsg(db_) : "out of memory";
      close();
      throw formats::InputError("history store " + name_ + ": cannot open " + path + ": " + why);
    }
    // Another writer holds the file only for one append (milliseconds): wait for it rather than fail.
    api_.busy_timeout(db_, options.timeout_ms);
    timeout_ms_ = options.timeout_ms;
  }

  ~SqliteConnection() override { close(); }

  SqlDialect dialect() const override { return SqlDialect::kSqlite; }

  std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters,
                          long long* changed) override {
    void* statement = nullptr;
    if (api_.prepare_v2(db_, sqlite_parameters(sql).c_str(), -1, &statement, nullptr) != kOk) fail(sql);
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      const int status = parameters[i] ? api_.bind_text(statement, index, parameters[i]->c_str(),
                                                        static_cast<int>(parameters[i]->size()), kTransient)
                                       : api_.bind_null(statement, index);
      if (status != kOk) {
        api_.finalize(statement);
        fail(sql);
      }
    }
    std::vector<SqlRow> rows;
    int status = kRow;
    while ((status = api_.step(statement)) == kRow) {
      SqlRow row;
      const int columns = api_.column_count(statement);
      for (int c = 0; c < columns; ++c) {
        if (api_.column_type(statement, c) == kNullType) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(reinterpret_cast<const char*>(api_.column_text(statement, c)));
        }
      }
      rows.push_back(std::move(row));
    }
    api_.finalize(statement);
    if (status != kDone) fail(sql);
    if (changed != nullptr) *changed = api_.changes(db_);
    return rows;
  }

  void begin_write() override { run("BEGIN IMMEDIATE", {}, nullptr); }

 private:
  [[noreturn]] void fail(const std::string& sql) const {
    const std::string why = api_.errmsg(db_);
    std::string hint;
    if (why.find("readonly") != std::string::npos) hint = readonly_hint_;
    if (why.find("locked") != std::string::npos) {
      const std::string waited = timeout_ms_ % 1000 == 0 ? std::to_string(timeout_ms_ / 1000) + " s"
                                                         : std::to_string(timeout_ms_) + " ms";
      hint = " - another writer held the store for more than " + waited +
             "; nothing of this one was kept - run it again once that one is done";
    }
    throw formats::InputError("history store " + name_ + ": SQLite failed (" + why + ") on: " +
                              sql.substr(0, sql.find('\n')) + hint);
  }

  void close() {
    if (db_ != nullptr) api_.close_v2(db_);
    db_ = nullptr;
    if (library_ != nullptr) dlclose(library_);
    library_ = nullptr;
  }

  std::string name_;
  std::string readonly_hint_;  // what to do where a read-only open meets a journal it cannot roll back
  int timeout_ms_ = 0;
  void* library_ = nullptr;
  void* db_ = nullptr;
  Api api_{};
};

}  // namespace

std::unique_ptr<StoreConnection> connect_sqlite(const std::string& name, const std::string& path, StoreAccess access,
                                                const StoreOptions& options) {
  return std::make_unique<SqliteConnection>(name, path, access, options);
}

std::string missing_library_message(const std::string& library, const std::string& why, const std::string& install) {
  return "the history store needs " + library + ", which cannot be loaded (" + why + "): " + install;
}

}  // namespace gpuperf::gate::history
