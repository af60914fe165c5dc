#include "gate/driver/ncu_diagnosis.h"

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "formats/atomic_file.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "gate/driver/benchmark_filters.h"
#include "gate/driver/console.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/process.h"
#include "gate/inputs/results.h"
#include "gate/ncu/stored_profiles.h"
#include "gate/ncu/window_attribution.h"
#include "gate/reports/ncu_diagnosis_text.h"

// Set by CMake for this file (gate/CMakeLists.txt): the installed scripts' folder relative to the
// installed perf_gate's, and this source tree's scripts/.
#ifndef GPUPERF_SCRIPTS_FROM_BINDIR
#define GPUPERF_SCRIPTS_FROM_BINDIR "../share/gpuperf/scripts"
#endif
#ifndef GPUPERF_SOURCE_SCRIPTS_DIR
#define GPUPERF_SOURCE_SCRIPTS_DIR ""
#endif

// Why ncu runs through scripts/ncu_profile.sh and not from here with process.h: ncu's stdout (the CSV
// table) and its stderr (its own and the bench's messages) go to two files a person reads, which
// run_process does not split; and scripts/record_ncu.sh, bash, profiles the baseline's side with the very
// same command line by running the same script. The script runs ncu alone: the split, the checks, the
// store and the diff are this file's, in-process.

namespace gpuperf::gate::driver {
namespace {

// One side of a diagnosis: the build profiled and the results whose fingerprints check ncu's rows.
struct NcuDiagSide {
  NcuSide side;
  std::string bench;
  std::string results;
  std::string profiles;  // <dir>/ncu/<now|a|b>.ncu.json
};

bool ncu_diag_executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

// `ncu` as a program exec would find: a path as given, a name in PATH. "" when there is none.
std::string ncu_diag_find_program(const std::string& ncu) {
  if (ncu.find('/') != std::string::npos) return ncu_diag_executable(ncu) ? ncu : "";
  const char* path = std::getenv("PATH");
  std::stringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    const std::string candidate = (folder.empty() ? "." : folder) + "/" + ncu;
    if (ncu_diag_executable(candidate)) return candidate;
  }
  return "";
}

std::string ncu_diag_program(const NcuDiagnosisOptions& options) {
  if (!options.ncu.empty()) return options.ncu;
  const char* from_environment = std::getenv("NCU");
  return from_environment && *from_environment ? from_environment : "ncu";
}

std::string ncu_diag_file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line of `path` that matches `pattern` ("" when none, or unreadable).
std::string ncu_diag_first_line(const std::string& path, const std::regex& pattern) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, pattern)) return line;
  }
  return "";
}

// ncu's (or the bench's) first error line in a pass's log: why nothing could be profiled.
std::string ncu_diag_log_error(const std::string& profiles) {
  static const std::regex error("==ERROR==|ERR_|error:|ncu ended");
  return ncu_diag_first_line(profiles + ".log", error);
}

// The entries not yet decided, by benchmark name, in the order of the diagnosis.
class NcuDiagPending {
 public:
  explicit NcuDiagPending(const std::vector<std::string>& names) {
    for (const std::string& name : names) entries_.push_back({name, std::nullopt, NcuPair::kBaselineNow, {}, ""});
  }
  std::vector<std::string> open() const {
    std::vector<std::string> names;
    for (const NcuDiagnosis& entry : entries_) {
      if (!entry.skipped) names.push_back(entry.benchmark);
    }
    return names;
  }
  void skip(const std::string& name, const NcuSkipped& why) {
    for (NcuDiagnosis& entry : entries_) {
      if (entry.benchmark == name && !entry.skipped) entry.skipped = why;
    }
  }
  void skip_open(const NcuSkipped& why) {
    for (const std::string& name : open()) skip(name, why);
  }
  NcuDiagnosis& entry(const std::string& name) {
    for (NcuDiagnosis& entry : entries_) {
      if (entry.benchmark == name) return entry;
    }
    throw std::logic_error("no ncu diagnosis entry of " + name);
  }
  std::vector<NcuDiagnosis> take() { return std::move(entries_); }

 private:
  std::vector<NcuDiagnosis> entries_;
};

std::string ncu_diag_script(std::string& looked_in) {
  std::string script;
  for (const std::string& candidate : ncu_profile_script_candidates()) {
    looked_in += (looked_in.empty() ? "" : ", ") + candidate;
    if (script.empty() && ::access(candidate.c_str(), R_OK) == 0) script = candidate;
  }
  return script;
}

// Profiles the open benchmarks in `side`'s build: their profiles by name; the others skipped with why.
std::map<std::string, NcuProfile> ncu_diag_profile_side(const NcuDiagSide& side, const std::string& script,
                                                        const std::string& ncu, NcuDiagPending& pending) {
  NcuSkipped why{NcuSkip::kNoFingerprint, side.side, side.results, ""};
  ResultsFile results;
  try {
    results = load_results(side.results);
  } catch (const formats::InputError& e) {
    why.detail = e.what();
    pending.skip_open(why);
    return {};
  }
  for (const std::string& name : pending.open()) {
    if (!profilable(results, name)) pending.skip(name, why);
  }
  const std::vector<std::string> names = pending.open();
  if (names.empty()) return {};
  if (results.gpu.slug.empty()) {
    pending.skip_open({NcuSkip::kNoGpuNamed, side.side, side.results, "its context has no gpu_slug"});
    return {};
  }
  std::error_code ignored;
  for (const char* suffix : {"", ".csv", ".order", ".log"}) std::filesystem::remove(side.profiles + suffix, ignored);
  NcuSkipped failed{NcuSkip::kNotProfiled, side.side, side.profiles + ".log", ""};
  std::vector<std::string> argv = {"bash", script, "--ncu", ncu, "--metrics", ncu_metrics_argument(),
                                   "--bench", side.bench, "--out", side.profiles, "--"};
  argv.insert(argv.end(), names.begin(), names.end());
  try {
    const ProcessOutcome outcome = run_process({argv, {}, ""});
    if (!outcome.succeeded()) {
      const std::string error = ncu_diag_log_error(side.profiles);
      failed.detail = error.empty() ? "ncu_profile.sh failed (" + outcome.describe() + ")" : error;
      pending.skip_open(failed);
      return {};
    }
  } catch (const DriverStop& e) {
    failed.detail = std::string("ncu_profile.sh could not run: ") + e.what();
    pending.skip_open(failed);
    return {};
  }
  WindowAttribution attribution;
  std::vector<std::string> order;
  try {
    const std::string order_path = side.profiles + ".order";
    order = parse_window_order(ncu_diag_file_text(order_path), order_path);
    const std::string csv = side.profiles + ".csv";
    attribution = attribute_windows(parse_ncu_csv(ncu_diag_file_text(csv), csv), windows_in_order(order, results), csv);
    if (!attribution.profiles.empty()) store_ncu_profiles(side.profiles, results.gpu.slug, attribution.profiles);
  } catch (const formats::InputError& e) {
    // ncu's own error (no permission to the GPU's counters, ...) says more than the table it left empty.
    const std::string error = ncu_diag_log_error(side.profiles);
    failed.detail = error.empty() ? e.what() : error;
    pending.skip_open(failed);
    return {};
  }
  for (const LeftOut& left : attribution.left_out) {
    failed.detail = left.reason;
    pending.skip(left.benchmark, failed);
  }
  for (const std::string& name : pending.open()) {
    if (attribution.profiles.count(name) > 0) continue;
    const std::regex bench_error("^ERROR " + regex_escaped(name) + ": ");
    std::string line = ncu_diag_first_line(side.profiles + ".log", bench_error);
    failed.detail = "the bench opened no profiler window for it" + (line.empty() ? "" : " (" + line.substr(6) + ")");
    pending.skip(name, failed);
  }
  return attribution.profiles;
}

// Sets each open benchmark's profiles side by side: <dir>/ncu/<n>.json holds the two, n counting from 1.
void ncu_diag_compare(const std::map<std::string, NcuProfile>& before, const std::map<std::string, NcuProfile>& after,
                      NcuPair pair, const std::string& dir, NcuDiagPending& pending) {
  int n = 0;
  for (const std::string& name : pending.open()) {
    ++n;
    const auto b = before.find(name);
    const auto a = after.find(name);
    if (b == before.end() || a == after.end()) {
      pending.skip(name, {NcuSkip::kNoDiagnosis, NcuSide::kNow, "", "no profile of it on both sides"});
      continue;
    }
    NcuDiagnosis& entry = pending.entry(name);
    entry.pair = pair;
    entry.rows = diff_profiles(b->second, a->second);
    const std::string path = dir + "/ncu/" + std::to_string(n) + ".json";
    try {
      const nlohmann::json doc = {{"benchmark", name}, {"before", b->second}, {"after", a->second}};
      formats::write_file_atomically(path, doc.dump(2) + "\n");
      entry.profiles_path = path;
    } catch (const std::exception&) {
      // The table is in the report; the file is a convenience.
    }
  }
}

// What both modes share: the ncu and the script found, each side profiled, the profiles compared.
std::vector<NcuDiagnosis> ncu_diag_run(const Comparison& comparison, const std::vector<NcuDiagSide>& sides,
                                       const std::string& stored, const std::string& dir,
                                       const NcuDiagnosisOptions& options) {
  NcuDiagPending pending(slowest_slow(comparison, options.top));
  if (pending.open().empty()) return {};
  const std::string ncu = ncu_diag_program(options);
  if (ncu_diag_find_program(ncu).empty()) {
    pending.skip_open({NcuSkip::kNcuNotFound, NcuSide::kNow, ncu, ""});
    return pending.take();
  }
  std::map<std::string, NcuProfile> baseline;
  if (!stored.empty()) {
    if (!formats::input_file_exists(stored)) {
      pending.skip_open({NcuSkip::kNoStoredProfiles, NcuSide::kNow, stored, ""});
      return pending.take();
    }
    try {
      baseline = load_ncu_baseline(stored).benchmarks;
    } catch (const formats::InputError& e) {
      pending.skip_open({NcuSkip::kNoDiagnosis, NcuSide::kNow, stored, e.what()});
      return pending.take();
    }
    for (const std::string& name : pending.open()) {
      if (baseline.count(name) == 0) pending.skip(name, {NcuSkip::kNoStoredProfile, NcuSide::kNow, stored, exact_filter({name})});
    }
    if (pending.open().empty()) return pending.take();
  }
  std::string looked_in;
  const std::string script = ncu_diag_script(looked_in);
  if (script.empty()) {
    pending.skip_open({NcuSkip::kProfileScriptMissing, NcuSide::kNow, looked_in, ""});
    return pending.take();
  }
  std::error_code error;
  std::filesystem::create_directories(dir + "/ncu", error);
  std::vector<std::map<std::string, NcuProfile>> profiled;
  for (const NcuDiagSide& side : sides) profiled.push_back(ncu_diag_profile_side(side, script, ncu, pending));
  if (stored.empty()) {
    ncu_diag_compare(profiled[0], profiled[1], NcuPair::kBuildAB, dir, pending);
  } else {
    ncu_diag_compare(baseline, profiled[0], NcuPair::kBaselineNow, dir, pending);
  }
  return pending.take();
}

}  // namespace

std::vector<NcuDiagnosis> diagnose_stored(const Comparison& comparison, const StoredDiagnosisPaths& paths,
                                          const NcuDiagnosisOptions& options) {
  const std::vector<NcuDiagSide> sides = {
      {NcuSide::kNow, paths.bench, paths.fingerprints, paths.dir + "/ncu/now.ncu.json"}};
  return ncu_diag_run(comparison, sides, paths.stored_profiles, paths.dir, options);
}

std::vector<NcuDiagnosis> diagnose_ab(const Comparison& comparison, const AbDiagnosisPaths& paths,
                                      const NcuDiagnosisOptions& options) {
  const std::vector<NcuDiagSide> sides = {
      {NcuSide::kBuildA, paths.bench_a, paths.dir + "/a.round1.json", paths.dir + "/ncu/a.ncu.json"},
      {NcuSide::kBuildB, paths.bench_b, paths.dir + "/b.round1.json", paths.dir + "/ncu/b.ncu.json"}};
  return ncu_diag_run(comparison, sides, "", paths.dir, options);
}

std::string this_program() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "perf_gate" : self.string();
}

std::vector<std::string> ncu_profile_script_candidates() {
  std::vector<std::string> candidates;
  const std::filesystem::path self = this_program();
  candidates.push_back(
      (self.parent_path() / GPUPERF_SCRIPTS_FROM_BINDIR / "ncu_profile.sh").lexically_normal().string());
  if (const std::string source = GPUPERF_SOURCE_SCRIPTS_DIR; !source.empty()) {
    candidates.push_back(source + "/ncu_profile.sh");
  }
  return candidates;
}

}  // namespace gpuperf::gate::driver
