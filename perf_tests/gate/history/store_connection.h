#pragma once
// What the history store needs of a database: one statement at a time with text parameters, and a write
// transaction. SQLite (sqlite_connection.cpp) and PostgreSQL (postgres_connection.cpp) each provide it
// over their C library, loaded at run time; store.cpp keeps the one schema and every query above it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gate/history/store.h"

namespace gpuperf::gate::history {

using SqlValue = std::optional<std::string>;  // nullopt: SQL NULL
using SqlRow = std::vector<SqlValue>;

enum class SqlDialect { kSqlite, kPostgresql };

class StoreConnection {
 public:
  virtual ~StoreConnection() = default;
  virtual SqlDialect dialect() const = 0;
  // Runs one statement whose parameters are $1, $2, ... (bound as text: the database converts them by the
  // column's type). Its rows, every value as text; `changed`, when given, gets the rows it inserted,
  // updated or deleted. InputError naming the store and the database's message when it fails.
  virtual std::vector<SqlRow> run(const std::string& sql, const std::vector<SqlValue>& parameters = {},
                                  long long* changed = nullptr) = 0;
  // Starts a transaction that writes: SQLite takes the file's write lock at once (BEGIN IMMEDIATE, waiting
  // up to kBusyTimeoutMs for another writer), so two appends never interleave.
  virtual void begin_write() = 0;
};

// The connections; `name` is the store's name for messages, `target` the file or the connection URI.
std::unique_ptr<StoreConnection> connect_sqlite(const std::string& name, const std::string& path, StoreAccess access,
                                                const std::string& library);
std::unique_ptr<StoreConnection> connect_postgresql(const std::string& name, const std::string& uri,
                                                    const std::string& library);

// The library that could not be loaded, in a message that says how to install it.
std::string missing_library_message(const std::string& library, const std::string& why, const std::string& install);

}  // namespace gpuperf::gate::history
