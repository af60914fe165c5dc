#include "gate/recording/write_baseline.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>

#include "formats/atomic_file.h"
#include "formats/escape.h"
#include "gate/inputs/platform.h"
#include "gate/judging/tolerance.h"

namespace gpuperf::gate {

namespace {

// Benchmarks named in one line; the rest are counted.
constexpr std::size_t kSkippedNamesInLine = 10;

// "kept 12 benchmarks of families not recorded here, as they were: copy_suite (4), saxpy_suite (8) (...)",
// or "" where none.
std::string recording_kept_line(const Baseline& baseline, const RecordedFamilies& recorded) {
  std::map<std::string, int> kept;  // by family
  for (const auto& [name, entry] : baseline.benchmarks) {
    if (!recorded.replaces(name)) ++kept[family_of(name)];
  }
  if (kept.empty()) return "";
  int total = 0;
  std::string families;
  for (const auto& [family, count] : kept) {
    total += count;
    families += (families.empty() ? "" : ", ") + family + " (" + std::to_string(count) + ")";
  }
  return "kept " + std::to_string(total) + " benchmarks of families not recorded here, as they were: " + families +
         " (another suite's; a family that no longer exists is deleted from the file by hand)\n";
}

std::string recording_skipped_line(const std::vector<SkippedBenchmark>& skipped) {
  if (skipped.empty()) return "";
  std::string line = "left out " + std::to_string(skipped.size()) +
                     " benchmarks the suite skipped itself (not the GPU's doing; a previous entry is kept as it was): ";
  for (std::size_t i = 0; i < skipped.size() && i < kSkippedNamesInLine; ++i) {
    line += (i ? "; " : "") + skipped[i].name + " (" + formats::escape_console(skipped[i].message) + ")";
  }
  if (skipped.size() > kSkippedNamesInLine) line += "; ...";
  return line + "\n";
}

}  // namespace

std::optional<Baseline> read_previous_baseline(const BaselineDestination& destination) {
  bool read_previous = !destination.previous.empty();
  if (read_previous && destination.first_if_previous_missing) {
    std::error_code error;  // a file that cannot be looked at is read, which says why it cannot
    read_previous = std::filesystem::exists(destination.previous, error) || error;
  }
  if (!read_previous) return std::nullopt;
  return load_baseline(destination.previous);
}

void write_recorded_baseline(const std::vector<ResultsFile>& runs, const BaselineDestination& destination,
                             const RecordOptions& options, std::ostream& out) {
  // The previous file is usually the one replaced: read and written under its lock.
  const formats::FileLock lock(destination.path);
  const std::optional<Baseline> previous = read_previous_baseline(destination);
  const Baseline baseline = record_baseline(runs, previous ? &*previous : nullptr, options);
  formats::write_file_atomically(destination.path, baseline_to_text(baseline));
  out << "wrote " << destination.path << ": " << baseline.benchmarks.size() << " benchmarks of "
      << formats::escape_console(baseline.gpu.name) << " (" << baseline.gpu.slug << "), " << baseline.recorded.runs
      << " runs, commit " << formats::escape_console(baseline.recorded.commit) << "\n";
  const RecordedFamilies recorded = recorded_families(runs);
  out << recording_kept_line(baseline, recorded);
  const std::vector<SkippedBenchmark> skipped = skipped_benchmarks(runs);
  out << recording_skipped_line(skipped);
  if (previous) {
    out << "what moved versus " << destination.previous << " (largest change first):\n";
    std::vector<BaselineMove> moves = baseline_moves(*previous, baseline, recorded);
    // A skipped benchmark's kept entry did not move: it was not measured.
    moves.erase(std::remove_if(moves.begin(), moves.end(),
                               [&](const BaselineMove& move) {
                                 return std::any_of(skipped.begin(), skipped.end(), [&](const SkippedBenchmark& s) {
                                   return s.name == move.name;
                                 });
                               }),
                moves.end());
    write_moves(moves, out);
    // What may have moved them: the runs against the platform of the previous file.
    const std::string changed = describe_changes(platform_changes(platform_of(*previous), platform_of(runs)));
    if (!changed.empty()) out << "platform versus " << destination.previous << ": " << changed << "\n";
  }
}

}  // namespace gpuperf::gate
