// The history store's PostgreSQL connection, over libpq.so.5 loaded at run time (as sqlite_connection.cpp
// loads SQLite): perf_gate builds without libpq's headers, and only a runner that names a PostgreSQL store
// needs the library.

#include <dlfcn.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/history/store_connection.h"

namespace gpuperf::gate::history {
namespace {

// The libpq API subset used here (libpq-fe.h, stable since PostgreSQL 9.0).
constexpr int kConnectionOk = 0;     // CONNECTION_OK
constexpr int kCommandOk = 1;        // PGRES_COMMAND_OK
constexpr int kTuplesOk = 2;         // PGRES_TUPLES_OK
constexpr int kDiagSqlstate = 'C';   // PG_DIAG_SQLSTATE
using NoticeProcessor = void (*)(void*, const char*);

struct Api {
  void* (*connectdb_params)(const char* const*, const char* const*, int);
  int (*status)(const void*);
  char* (*error_message)(const void*);
  void (*finish)(void*);
  NoticeProcessor (*set_notice_processor)(void*, NoticeProcessor, void*);
  int (*send_query_params)(void*, const char*, int, const unsigned*, const char* const*, const int*, const int*, int);
  int (*consume_input)(void*);
  int (*is_busy)(void*);
  void* (*get_result)(void*);
  int (*socket)(const void*);
  int (*result_status)(const void*);
  char* (*result_error_message)(const void*);
  char* (*result_error_field)(const void*, int);
  int (*ntuples)(const void*);
  int (*nfields)(const void*);
  char* (*getvalue)(const void*, int, int);
  int (*getisnull)(const void*, int, int);
  char* (*cmd_tuples)(void*);
  void (*clear)(void*);
};

template <typename F>
bool bind(void* library, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(library, name));
  return fn != nullptr;
}

constexpr const char* kInstall =
    "install PostgreSQL's client library (Debian/Ubuntu: apt-get install libpq5; Fedora/RHEL: dnf install libpq), "
    "or name a SQLite store (sqlite:PATH)";

// TCP keepalives: a server or network that died without closing the connection is noticed after
// 60 s idle + 6 unanswered probes 10 s apart, two minutes, the store's timeout (libpq's default waits for
// the system's two hours). The URI may set each (keepalives_idle=...).
constexpr const char* kKeepalivesIdleS = "60";
constexpr const char* kKeepalivesIntervalS = "10";
constexpr const char* kKeepalivesCount = "6";

// "CREATE TABLE IF NOT EXISTS" notices are not news: they would clutter perf_gate's output.
void ignore_notice(void* /*arg*/, const char* /*message*/) {}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "no message" : line;
}

std::string seconds(long long milliseconds) {
  return milliseconds % 1000 == 0 ? std::to_string(milliseconds / 1000) + " s"
                                  : std::to_string(milliseconds) + " ms";
}

struct ResultDeleter {
  void (*clear)(void*);
  void operator()(void* result) const {
    if (result != nullptr) clear(result);
  }
};
using Result = std::unique_ptr<void, ResultDeleter>;

class PostgresConnection final : public StoreConnection {
 public:
  PostgresConnection(const std::string& name, const std::string& uri, const std::string& instead_of_libpq_message,
                     const StoreOptions& options)
      : name_(name) {
    const std::string& library = options.libraries.postgresql;
    library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) throw formats::InputError(missing_library_message(library, dlerror(), kInstall));
    const bool bound =
        bind(library_, "PQconnectdbParams", api_.connectdb_params) && bind(library_, "PQstatus", api_.status) &&
        bind(library_, "PQerrorMessage", api_.error_message) && bind(library_, "PQfinish", api_.finish) &&
        bind(library_, "PQsetNoticeProcessor", api_.set_notice_processor) &&
        bind(library_, "PQsendQueryParams", api_.send_query_params) &&
        bind(library_, "PQconsumeInput", api_.consume_input) && bind(library_, "PQisBusy", api_.is_busy) &&
        bind(library_, "PQgetResult", api_.get_result) && bind(library_, "PQsocket", api_.socket) &&
        bind(library_, "PQresultStatus", api_.result_status) &&
        bind(library_, "PQresultErrorMessage", api_.result_error_message) &&
        bind(library_, "PQresultErrorField", api_.result_error_field) && bind(library_, "PQntuples", api_.ntuples) &&
        bind(library_, "PQnfields", api_.nfields) && bind(library_, "PQgetvalue", api_.getvalue) &&
        bind(library_, "PQgetisnull", api_.getisnull) && bind(library_, "PQcmdTuples", api_.cmd_tuples) &&
        bind(library_, "PQclear", api_.clear);
    if (!bound) {
      dlclose(library_);
      throw formats::InputError(library + " lacks a function of libpq the store needs: " + kInstall);
    }
    connect(uri, instead_of_libpq_message, options.timeout_ms);
  }

  ~PostgresConnection() override { close(); }

  SqlDialect dialect() const override { return SqlDialect::kPostgresql; }

  std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters,
                          long long* changed) override {
    std::vector<const char*> values;
    values.reserve(parameters.size());
    for (const SqlValue& parameter : parameters) values.push_back(parameter ? parameter->c_str() : nullptr);
    // Parameter types left to the server (nullptr): it infers each from where the parameter is used.
    if (api_.send_query_params(connection_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                               nullptr, nullptr, 0) == 0) {
      fail(sql, first_line(api_.error_message(connection_)), "");
    }
    Result result = last_result(sql);
    if (!result) fail(sql, first_line(api_.error_message(connection_)), "");
    const int status = api_.result_status(result.get());
    if (status != kCommandOk && status != kTuplesOk) {
      const char* sqlstate = api_.result_error_field(result.get(), kDiagSqlstate);
      fail(sql, first_line(api_.result_error_message(result.get())), sqlstate != nullptr ? sqlstate : "");
    }
    std::vector<SqlRow> rows;
    const int row_count = api_.ntuples(result.get());
    const int columns = api_.nfields(result.get());
    for (int r = 0; r < row_count; ++r) {
      SqlRow row;
      for (int c = 0; c < columns; ++c) {
        if (api_.getisnull(result.get(), r, c) != 0) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(api_.getvalue(result.get(), r, c));
        }
      }
      rows.push_back(std::move(row));
    }
    if (changed != nullptr) *changed = std::atoll(api_.cmd_tuples(result.get()));
    return rows;
  }

  void begin_write() override { run("BEGIN", {}, nullptr); }

 private:
  // Connects, the defaults before the URI (libpq: a keyword given again later wins, and the URI's
  // parameters are expanded where "dbname" stands), so each is the URI's where it sets one.
  void connect(const std::string& uri, const std::string& instead_of_libpq_message, int timeout_ms) {
    // libpq's connect_timeout is whole seconds, at least 2; PGCONNECT_TIMEOUT, libpq's own way, still wins.
    const std::string connect_timeout_s = std::to_string(std::max(2, (timeout_ms + 999) / 1000));
    std::vector<const char*> keywords = {"keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count"};
    std::vector<const char*> values = {"1", kKeepalivesIdleS, kKeepalivesIntervalS, kKeepalivesCount};
    if (std::getenv("PGCONNECT_TIMEOUT") == nullptr) {
      keywords.push_back("connect_timeout");
      values.push_back(connect_timeout_s.c_str());
    }
    keywords.push_back("dbname");
    values.push_back(uri.c_str());
    keywords.push_back(nullptr);
    values.push_back(nullptr);
    connection_ = api_.connectdb_params(keywords.data(), values.data(), 1);
    if (connection_ == nullptr || api_.status(connection_) != kConnectionOk) {
      std::string why = connection_ != nullptr ? first_line(api_.error_message(connection_)) : "out of memory";
      const bool timed_out = why.find("timeout expired") != std::string::npos;
      if (!instead_of_libpq_message.empty()) why = (timed_out ? "timeout expired; " : "") + instead_of_libpq_message;
      if (timed_out) {
        why += uri.find("connect_timeout=") != std::string::npos || std::getenv("PGCONNECT_TIMEOUT") != nullptr
                   ? " (no answer within the connect_timeout given)"
                   : " (no answer within connect_timeout, " + connect_timeout_s +
                         " s; the URI may set another: ?connect_timeout=S)";
      }
      close();
      throw formats::InputError("history store " + name_ + ": cannot connect: " + why +
                                " - is the server running and answering, and the URI's host, database and user right?");
    }
    api_.set_notice_processor(connection_, ignore_notice, nullptr);
    // Until the server's timeouts are known, the client waits for the default's.
    client_wait_ms_ = client_wait(timeout_ms);
    // lock_timeout and statement_timeout where nobody set them: not the URI (options=-c ...), PGOPTIONS,
    // the role, the database or the server's configuration; the server cancels what waits or runs longer.
    run("SELECT set_config(name, $1, false) FROM pg_settings WHERE name IN ('lock_timeout', 'statement_timeout')"
        " AND source = 'default'",
        {std::to_string(timeout_ms)}, nullptr);
    for (const SqlRow& row : run("SELECT name, setting FROM pg_settings WHERE name IN ('lock_timeout', "
                                 "'statement_timeout')",
                                 {}, nullptr)) {
      const long long value = row[1] ? std::atoll(row[1]->c_str()) : 0;  // [milliseconds]; 0: no limit
      (*row[0] == "lock_timeout" ? lock_timeout_ms_ : statement_timeout_ms_) = value;
    }
    client_wait_ms_ = client_wait(statement_timeout_ms_);
  }

  // How long the client waits for an answer: the server's statement_timeout and a grace (10 s, or half of
  // it where it is short) for its own cancellation to arrive, which names what timed out. A backend that
  // cannot act on its timeout (stopped, its host frozen; TCP keepalives are answered by the host's kernel
  // all the same) is given up on here. 0: statement_timeout is off, and so is this.
  static long long client_wait(long long statement_timeout_ms) {
    return statement_timeout_ms <= 0 ? 0 : statement_timeout_ms + std::min(10000LL, statement_timeout_ms / 2);
  }

  // The result of the statement just sent (its last, as PQexec returns), waiting at most client_wait_ms_.
  Result last_result(const std::string& sql) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(client_wait_ms_);
    Result last(nullptr, ResultDeleter{api_.clear});
    while (true) {
      while (api_.is_busy(connection_) != 0) {
        int wait_ms = -1;
        if (client_wait_ms_ > 0) {
          const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
          if (left <= 0) no_answer(sql);
          wait_ms = static_cast<int>(left);
        }
        pollfd socket{api_.socket(connection_), POLLIN, 0};
        const int ready = ::poll(&socket, 1, wait_ms);
        if (ready == 0) no_answer(sql);
        if (ready < 0 && errno != EINTR) fail(sql, "poll failed on the connection's socket", "");
        if (api_.consume_input(connection_) == 0) fail(sql, first_line(api_.error_message(connection_)), "");
      }
      void* next = api_.get_result(connection_);
      if (next == nullptr) return last;
      last.reset(next);
    }
  }

  [[noreturn]] void no_answer(const std::string& sql) const {
    throw formats::InputError("history store " + name_ + ": PostgreSQL did not answer within " +
                              seconds(client_wait_ms_) + " on: " + sql.substr(0, sql.find('\n')) +
                              " - the server or its backend stopped responding (statement_timeout is " +
                              seconds(statement_timeout_ms_) +
                              "); check the server. An append cut off here may or may not have been kept: run it "
                              "again, its run key keeps it once");
  }

  [[noreturn]] void fail(const std::string& sql, const std::string& why, const std::string& sqlstate) const {
    const std::string what = "history store " + name_ + ": PostgreSQL failed (" + why + ") on: " +
                             sql.substr(0, sql.find('\n'));
    if (sqlstate == "40P01" || sqlstate == "40001") throw StoreConflict(what);
    if (sqlstate == "55P03") {  // lock_not_available: lock_timeout
      throw formats::InputError(what + " - another transaction held a lock this one needs for more than " +
                                seconds(lock_timeout_ms_) +
                                " (lock_timeout): an append of the same run key, or one creating the tables, that "
                                "has not finished; nothing of this one was kept - run it again once that one is "
                                "done (pg_stat_activity shows it), or set another: options=-c lock_timeout=...");
    }
    if (sqlstate == "57014") {  // query_canceled: statement_timeout (or a cancel by an administrator)
      throw formats::InputError(what + " - it ran longer than statement_timeout (" + seconds(statement_timeout_ms_) +
                                "), most likely waiting for a lock another transaction holds (an append of the same "
                                "run key, or one creating the tables, that has not finished: pg_stat_activity shows "
                                "it), or on an overloaded server; nothing of it was kept - run it again once that "
                                "one is done, or set another: options=-c statement_timeout=...");
    }
    throw formats::InputError(what);
  }

  void close() {
    if (connection_ != nullptr) api_.finish(connection_);
    connection_ = nullptr;
    if (library_ != nullptr) dlclose(library_);
    library_ = nullptr;
  }

  std::string name_;
  void* library_ = nullptr;
  void* connection_ = nullptr;
  long long lock_timeout_ms_ = 0;
  long long statement_timeout_ms_ = 0;
  long long client_wait_ms_ = 0;  // 0: no limit
  Api api_{};
};

}  // namespace

std::unique_ptr<StoreConnection> connect_postgresql(const std::string& name, const std::string& uri,
                                                    const StoreOptions& options,
                                                    const std::string& instead_of_libpq_message) {
  return std::make_unique<PostgresConnection>(name, uri, instead_of_libpq_message, options);
}

}  // namespace gpuperf::gate::history
