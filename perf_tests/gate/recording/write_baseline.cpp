#include "gate/recording/write_baseline.h"

#include <filesystem>
#include <optional>
#include <system_error>

#include "formats/atomic_file.h"
#include "formats/escape.h"
#include "gate/inputs/platform.h"

namespace gpuperf::gate {

void write_recorded_baseline(const std::vector<ResultsFile>& runs, const BaselineDestination& destination,
                             const RecordOptions& options, std::ostream& out) {
  // The previous file is usually the one replaced: read and written under its lock.
  const formats::FileLock lock(destination.path);
  bool read_previous = !destination.previous.empty();
  if (read_previous && destination.first_if_previous_missing) {
    std::error_code error;  // a file that cannot be looked at is read, which says why it cannot
    read_previous = std::filesystem::exists(destination.previous, error) || error;
  }
  std::optional<Baseline> previous;
  if (read_previous) previous = load_baseline(destination.previous);
  const Baseline baseline = record_baseline(runs, previous ? &*previous : nullptr, options);
  formats::write_file_atomically(destination.path, baseline_to_text(baseline));
  out << "wrote " << destination.path << ": " << baseline.benchmarks.size() << " benchmarks of "
      << formats::escape_console(baseline.gpu.name) << " (" << baseline.gpu.slug << "), " << baseline.recorded.runs
      << " runs, commit " << formats::escape_console(baseline.recorded.commit) << "\n";
  if (previous) {
    out << "what moved versus " << destination.previous << " (largest change first):\n";
    write_moves(baseline_moves(*previous, baseline), out);
    // What may have moved them: the runs against the platform of the previous file.
    const std::string changed = describe_changes(platform_changes(platform_of(*previous), platform_of(runs)));
    if (!changed.empty()) out << "platform versus " << destination.previous << ": " << changed << "\n";
  }
}

}  // namespace gpuperf::gate
