// The history store's PostgreSQL connection, over libpq.so.5 loaded at run time (as sqlite_connection.cpp
// loads SQLite): perf_gate builds without libpq's headers, and only a runner that names a PostgreSQL store
// needs the library.

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/history/store_connection.h"

namespace gpuperf::gate::history {
namespace {

// The libpq API subset used here (libpq-fe.h, stable since PostgreSQL 7.4).
constexpr int kConnectionOk = 0;     // CONNECTION_OK
constexpr int kCommandOk = 1;        // PGRES_COMMAND_OK
constexpr int kTuplesOk = 2;         // PGRES_TUPLES_OK
using NoticeProcessor = void (*)(void*, const char*);

struct Api {
  void* (*connectdb)(const char*);
  int (*status)(const void*);
  char* (*error_message)(const void*);
  void (*finish)(void*);
  NoticeProcessor (*set_notice_processor)(void*, NoticeProcessor, void*);
  void* (*exec_params)(void*, const char*, int, const unsigned*, const char* const*, const int*, const int*, int);
  int (*result_status)(const void*);
  char* (*result_error_message)(const void*);
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

// "CREATE TABLE IF NOT EXISTS" notices are not news: they would clutter perf_gate's output.
void ignore_notice(void* /*arg*/, const char* /*message*/) {}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "no message" : line;
}

class PostgresConnection final : public StoreConnection {
 public:
  PostgresConnection(const std::string& name, const std::string& uri, const std::string& library) : name_(name) {
    library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) throw formats::InputError(missing_library_message(library, dlerror(), kInstall));
    const bool bound = bind(library_, "PQconnectdb", api_.connectdb) && bind(library_, "PQstatus", api_.status) &&
                       bind(library_, "PQerrorMessage", api_.error_message) && bind(library_, "PQfinish", api_.finish) &&
                       bind(library_, "PQsetNoticeProcessor", api_.set_notice_processor) &&
                       bind(library_, "PQexecParams", api_.exec_params) &&
                       bind(library_, "PQresultStatus", api_.result_status) &&
                       bind(library_, "PQresultErrorMessage", api_.result_error_message) &&
                       bind(library_, "PQntuples", api_.ntuples) && bind(library_, "PQnfields", api_.nfields) &&
                       bind(library_, "PQgetvalue", api_.getvalue) && bind(library_, "PQgetisnull", api_.getisnull) &&
                       bind(library_, "PQcmdTuples", api_.cmd_tuples) && bind(library_, "PQclear", api_.clear);
    if (!bound) {
      dlclose(library_);
      throw formats::InputError(library + " lacks a function of libpq the store needs: " + kInstall);
    }
    connection_ = api_.connectdb(uri.c_str());
    if (connection_ == nullptr || api_.status(connection_) != kConnectionOk) {
      const std::string why = connection_ != nullptr ? first_line(api_.error_message(connection_)) : "out of memory";
      close();
      throw formats::InputError("history store " + name_ + ": cannot connect: " + why +
                                " - is the server running, and the URI's host, database and user right?");
    }
    api_.set_notice_processor(connection_, ignore_notice, nullptr);
  }

  ~PostgresConnection() override { close(); }

  SqlDialect dialect() const override { return SqlDialect::kPostgresql; }

  std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters,
                          long long* changed) override {
    std::vector<const char*> values;
    values.reserve(parameters.size());
    for (const SqlValue& parameter : parameters) values.push_back(parameter ? parameter->c_str() : nullptr);
    // Parameter types left to the server (nullptr): it infers each from where the parameter is used.
    void* result = api_.exec_params(connection_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                                    nullptr, nullptr, 0);
    if (result == nullptr) fail(sql, first_line(api_.error_message(connection_)));
    const int status = api_.result_status(result);
    if (status != kCommandOk && status != kTuplesOk) {
      const std::string why = first_line(api_.result_error_message(result));
      api_.clear(result);
      fail(sql, why);
    }
    std::vector<SqlRow> rows;
    const int row_count = api_.ntuples(result);
    const int columns = api_.nfields(result);
    for (int r = 0; r < row_count; ++r) {
      SqlRow row;
      for (int c = 0; c < columns; ++c) {
        if (api_.getisnull(result, r, c) != 0) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(api_.getvalue(result, r, c));
        }
      }
      rows.push_back(std::move(row));
    }
    if (changed != nullptr) *changed = std::atoll(api_.cmd_tuples(result));
    api_.clear(result);
    return rows;
  }

  void begin_write() override { run("BEGIN", {}, nullptr); }

 private:
  [[noreturn]] void fail(const std::string& sql, const std::string& why) const {
    throw formats::InputError("history store " + name_ + ": PostgreSQL failed (" + why +
                              ") on: " + sql.substr(0, sql.find('\n')));
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
  Api api_{};
};

}  // namespace

std::unique_ptr<StoreConnection> connect_postgresql(const std::string& name, const std::string& uri,
                                                    const std::string& library) {
  return std::make_unique<PostgresConnection>(name, uri, library);
}

}  // namespace gpuperf::gate::history
