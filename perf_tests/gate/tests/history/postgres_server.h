#pragma once
// A PostgreSQL server of the store tests' own: initdb and pg_ctl in a temporary folder, listening only on
// a Unix socket there (no TCP port to collide with), trust authentication, started on first use and
// stopped when the tests exit. Started only under CTest's unit.gate_history_postgres (GPUPERF_TEST_POSTGRES=1),
// which names the server's programs (GPUPERF_POSTGRES_BIN, else the newest /usr/lib/postgresql/<N>/bin);
// elsewhere, or where the server cannot start, why_not() says why and the tests are skipped with it.
// PostgreSQL refuses to run as root: as root the server runs as the user "nobody" (runuser).

#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace gpuperf::gate::testing {

class PostgresServer {
 public:
  static PostgresServer& instance() {
    static PostgresServer server;
    return server;
  }

  // "" when the server runs; else why it does not.
  const std::string& why_not() const { return why_not_; }

  // The URI of a new, empty database on the server.
  std::string new_database() {
    const std::string name = "store_" + std::to_string(++databases_);
    const std::string command = bin_ + "/createdb -h " + dir_ + " -p " + kPort + " -U postgres " + name + " >> " +
                                dir_ + "/createdb.log 2>&1";
    if (std::system(command.c_str()) != 0) return "";
    return "postgresql:///" + name + "?host=" + dir_ + "&port=" + kPort + "&user=postgres";
  }

  ~PostgresServer() {
    if (!started_) return;
    const std::string stop = as_owner_ + bin_ + "/pg_ctl -D " + dir_ + "/data -m immediate stop > /dev/null 2>&1";
    [[maybe_unused]] const int status = std::system(stop.c_str());
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

 private:
  static constexpr const char* kPort = "5432";  // on the folder's own socket: no other server meets it

  PostgresServer() {
    const char* enabled = std::getenv("GPUPERF_TEST_POSTGRES");
    if (enabled == nullptr || std::string(enabled) != "1") {
      why_not_ = "the PostgreSQL store is tested by unit.gate_history_postgres (GPUPERF_TEST_POSTGRES=1)";
      return;
    }
    bin_ = find_bin();
    if (bin_.empty()) {
      why_not_ = "no PostgreSQL server programs (initdb, pg_ctl) found: set GPUPERF_POSTGRES_BIN";
      return;
    }
    char pattern[] = "/tmp/gpuperf_pg_XXXXXX";
    if (mkdtemp(pattern) == nullptr) {
      why_not_ = "cannot make a temporary folder";
      return;
    }
    dir_ = pattern;
    if (geteuid() == 0) {
      const passwd* nobody = getpwnam("nobody");
      if (nobody == nullptr || chown(dir_.c_str(), nobody->pw_uid, nobody->pw_gid) != 0 ||
          std::system("command -v runuser > /dev/null 2>&1") != 0) {
        why_not_ = "running as root without a user 'nobody' and runuser to run PostgreSQL as";
        return;
      }
      as_owner_ = "runuser -u nobody -- ";
    }
    const std::string initdb = as_owner_ + bin_ + "/initdb -D " + dir_ + "/data -A trust -U postgres --no-sync " +
                               "-E UTF8 --locale=C > " + dir_ + "/initdb.log 2>&1";
    if (std::system(initdb.c_str()) != 0) {
      why_not_ = "initdb failed (" + dir_ + "/initdb.log)";
      return;
    }
    const std::string start = as_owner_ + bin_ + "/pg_ctl -D " + dir_ + "/data -l " + dir_ + "/server.log -w -t 60 " +
                              "-o \"-c listen_addresses='' -k " + dir_ + " -p " + kPort + " -c fsync=off\" start " +
                              "> " + dir_ + "/pg_ctl.log 2>&1";
    if (std::system(start.c_str()) != 0) {
      why_not_ = "pg_ctl start failed (" + dir_ + "/server.log)";
      return;
    }
    started_ = true;
  }

  static std::string find_bin() {
    if (const char* bin = std::getenv("GPUPERF_POSTGRES_BIN")) return bin;
    std::string best;
    int best_version = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", error)) {
      const std::string version = entry.path().filename().string();
      const int number = std::atoi(version.c_str());
      if (number > best_version && std::filesystem::exists(entry.path() / "bin" / "pg_ctl")) {
        best_version = number;
        best = (entry.path() / "bin").string();
      }
    }
    return best;
  }

  std::string why_not_;
  std::string bin_;
  std::string dir_;
  std::string as_owner_;
  bool started_ = false;
  int databases_ = 0;
};

}  // namespace gpuperf::gate::testing
