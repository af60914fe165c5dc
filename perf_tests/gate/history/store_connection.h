#pragma once
// What the history store needs of a database: one statement at a time with text parameters, and a write
// transaction. SQLite (sqlite_connection.cpp) and PostgreSQL (postgres_connection.cpp) each provide it
// over their C library, loaded at run time; store.cpp keeps the one schema and every query above it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/history/store.h"

namespace gpuperf::gate::history {

using SqlValue = std::optional<std::string>;  // nullopt: SQL NULL
using SqlRow = std::vector<SqlValue>;

enum class SqlDialect { kSqlite, kPostgresql };

// A transaction the database cancelled to let another go on (PostgreSQL: deadlock_detected 40P01,
// serialization_failure 40001): it changed nothing, and the same transaction run again can succeed.
class StoreConflict : public formats::InputError {
 public:
  using formats::InputError::InputError;
};

class StoreConnection {
 public:
  virtual ~StoreConnection() = default;
  virtual SqlDialect dialect() const = 0;
  // Runs one statement whose parameters are $1, $2, ... (bound as text: the database converts them by the
  // column's type). Its rows, every value as text; `changed`, when given, gets the rows it inserted,
  // updated or deleted. InputError naming the store and the database's message when it fails;
  // StoreConflict when the database cancelled it for another transaction.
  virtual std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters = {},
                                  long long* changed = nullptr) = 0;
  // Starts a transaction that writes: SQLite takes the file's write lock at once (BEGIN IMMEDIATE, waiting
  // up to StoreOptions::timeout_ms for another writer), so two appends never interleave.
  virtual void begin_write() = 0;
};

// The connections; `name` is the store's name for messages (its password hidden), `path` the file, `uri`
// the connection URI. PostgreSQL: connect_timeout, lock_timeout and statement_timeout of
// options.timeout_ms and TCP keepalives where the URI sets none, and no answer awaited longer than
// statement_timeout and a grace; `instead_of_libpq_message`, when not empty, is shown in place of libpq's
// message when the connection fails (which can quote a password that the URI holds malformed).
std::unique_ptr<StoreConnection> connect_sqlite(const std::string& name, const std::string& path, StoreAccess access,
                                                const StoreOptions& options);
std::unique_ptr<StoreConnection> connect_postgresql(const std::string& name, const std::string& uri,
                                                    const StoreOptions& options,
                                                    const std::string& instead_of_libpq_message = "");

// The library that could not be loaded, in a message that says how to install it.
std::string missing_library_message(const std::string& library, const std::string& why, const std::string& install);

}  // namespace gpuperf::gate::history
