#include "gate/recording/merge_recordings.h"

#include <algorithm>
#include <map>
#include <set>

#include "formats/input_error.h"
#include "formats/version.h"
#include "gate/judging/tolerance.h"
#include "gate/recording/machine_levels.h"
#include "gate/recording/recorded_families.h"

namespace gpuperf::gate {
namespace {

constexpr const char* kMergeHint = "merge recordings of one GPU model, one measuring method and one commit's code";

[[noreturn]] void refuse_merge(const std::string& what, const std::string& hint = kMergeHint) {
  throw formats::InputError("refusing to merge baselines: " + what + " - " + hint);
}

void check_recording(const Recording& recording, const Recording& first) {
  const Baseline& b = recording.baseline;
  if (b.gpu.slug != first.baseline.gpu.slug) {
    refuse_merge(recording.source + " is of '" + b.gpu.slug + "', " + first.source + " of '" + first.baseline.gpu.slug + "'");
  }
  if (b.recorded.measuring_method != first.baseline.recorded.measuring_method) {
    refuse_merge(recording.source + " was measured with method " + std::to_string(b.recorded.measuring_method) + ", " +
                     first.source + " with method " + std::to_string(first.baseline.recorded.measuring_method),
                 "re-record the older one with this harness (scripts/update_baseline.sh)");
  }
  if (b.recorded.gpu_uuids.empty()) {
    refuse_merge(recording.source + " names no GPU (recorded.gpu_uuids), so its machine cannot be told apart",
                 "re-record it with the project's perf binary, which names the GPU");
  }
  if (b.recorded.gpu_uuids.size() > 1) {
    for (const auto& [name, entry] : b.benchmarks) {
      if (entry.machine_medians.empty()) {
        refuse_merge(recording.source + " pools " + std::to_string(b.recorded.gpu_uuids.size()) + " GPUs without their levels (" +
                         name + " has no machine_medians)",
                     "re-record it (scripts/update_baseline.sh --all-gpus keeps each GPU's level)");
      }
    }
  }
}

}  // namespace

Baseline merge_recordings(const std::vector<Recording>& recordings, const Baseline* previous) {
  if (recordings.empty()) throw formats::InputError("no recordings to merge - pass --recordings REC.json...");
  const Recording& first = recordings.front();
  std::map<std::string, std::string> recorded_by;  // GPU UUID -> the recording that holds it
  for (const Recording& recording : recordings) {
    check_recording(recording, first);
    for (const std::string& uuid : recording.baseline.recorded.gpu_uuids) {
      const auto [it, added] = recorded_by.emplace(uuid, recording.source);
      if (!added) {
        refuse_merge(uuid + " is in both " + it->second + " and " + recording.source + ": its level would count twice",
                     "merge one recording per GPU (a newer recording of a GPU replaces the older: leave that out)");
      }
    }
  }
  if (previous != nullptr && previous->gpu.slug != first.baseline.gpu.slug) {
    refuse_merge("--previous is the baseline of '" + previous->gpu.slug + "', the recordings of '" + first.baseline.gpu.slug + "'");
  }

  std::set<std::string> names;
  for (const Recording& recording : recordings) {
    for (const auto& [name, entry] : recording.baseline.benchmarks) names.insert(name);
  }
  Baseline merged;
  merged.gpu = first.baseline.gpu;
  merged.recorded = first.baseline.recorded;
  merged.recorded.harness_version = formats::kHarnessVersion;
  merged.recorded.runs = 0;
  merged.recorded.gpu_uuids.clear();
  for (const auto& [uuid, source] : recorded_by) merged.recorded.gpu_uuids.push_back(uuid);
  // Each input's sessions, as they were: a GPU in two was refused above (it is in two recordings).
  merged.recorded.machine_groups.clear();
  for (const Recording& recording : recordings) {
    const BaselineRecorded& own = recording.baseline.recorded;
    if (own.machine_groups.empty()) {
      merged.recorded.machine_groups.push_back(own.gpu_uuids);
    } else {
      merged.recorded.machine_groups.insert(merged.recorded.machine_groups.end(), own.machine_groups.begin(),
                                            own.machine_groups.end());
    }
  }
  const Baseline& settings = previous != nullptr ? *previous : first.baseline;
  merged.default_tolerance_pct = settings.default_tolerance_pct;
  merged.same_gpu_tolerance_pct = settings.same_gpu_tolerance_pct;
  merged.family_tolerance_pct = settings.family_tolerance_pct;
  for (const Recording& recording : recordings) {
    merged.recorded.runs += recording.baseline.recorded.runs;
    merged.recorded.samples_per_run = std::max(merged.recorded.samples_per_run, recording.baseline.recorded.samples_per_run);
  }

  RecordedFamilies families;
  for (const std::string& name : names) {
    families.families.insert(family_of(name));
    // The first recording with the benchmark: the others are compared with it.
    const Recording* holder = &*std::find_if(recordings.begin(), recordings.end(), [&](const Recording& r) {
      return r.baseline.benchmarks.count(name) != 0;
    });
    std::map<std::string, double> levels;
    std::vector<ProcessGroup> groups;
    for (const Recording& recording : recordings) {
      const auto found = recording.baseline.benchmarks.find(name);
      if (found == recording.baseline.benchmarks.end()) {
        refuse_merge(name + " is in " + holder->source + " but not in " + recording.source,
                     "record the same suite on every GPU, or merge only the recordings that hold it");
      }
      const BaselineEntry& entry = found->second;
      if (&recording != holder) {
        const BaselineEntry& held = holder->baseline.benchmarks.at(name);
        if (entry.unit != held.unit) {
          refuse_merge(name + " is in " + held.unit + " in " + holder->source + ", in " + entry.unit + " in " + recording.source);
        }
        if (entry.fingerprint && held.fingerprint && !(*entry.fingerprint == *held.fingerprint)) {
          refuse_merge("recordings of different code: " + name + " differs between " + holder->source + " and " + recording.source,
                       "record every GPU at one commit");
        }
      }
      // A recording of one GPU is that machine, at its median; a merged one brings its machines' levels.
      if (entry.machine_medians.empty()) {
        levels[recording.baseline.recorded.gpu_uuids.front()] = entry.median;
      } else {
        levels.insert(entry.machine_medians.begin(), entry.machine_medians.end());
      }
      groups.push_back({entry.median, entry.process_medians});
    }
    const BaselineEntry& held = holder->baseline.benchmarks.at(name);
    BaselineEntry entry;
    entry.unit = held.unit;
    entry.bytes = held.bytes;
    entry.flops = held.flops;
    for (const Recording& recording : recordings) {
      const BaselineEntry& own = recording.baseline.benchmarks.at(name);
      if (!entry.fingerprint && own.fingerprint) entry.fingerprint = own.fingerprint;
    }
    const LevelledProcesses levelled = level_machines(levels, groups);
    entry.median = levelled.median;
    entry.process_medians = levelled.process_medians;
    entry.machine_medians = levelled.machine_medians;
    if (previous != nullptr) {
      const auto old = previous->benchmarks.find(name);
      if (old != previous->benchmarks.end()) entry.tolerance_pct = old->second.tolerance_pct;
    } else {
      entry.tolerance_pct = held.tolerance_pct;
    }
    merged.benchmarks.emplace(name, std::move(entry));
  }
  if (previous != nullptr) {
    for (const auto& [name, entry] : previous->benchmarks) {
      if (!families.replaces(name)) merged.benchmarks.emplace(name, entry);
    }
  }
  return merged;
}

}  // namespace gpuperf::gate
