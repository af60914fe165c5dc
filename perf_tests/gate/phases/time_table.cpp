#include "gate/phases/time_table.h"

#include <algorithm>
#include <map>
#include <utility>

#include "formats/input_error.h"

namespace gpuperf::gate::phases {
namespace {

// The files of one family, by kind.
struct FamilyFiles {
  const PhaseFile* correctness = nullptr;
  const PhaseFile* perf = nullptr;
  const PhaseFile* perf_phases = nullptr;
};

void keep_once(const PhaseFile*& slot, const PhaseFile& file) {
  if (slot != nullptr) {
    throw formats::InputError(file.source + ": records the " + kind_name(file.kind) +
                              (file.family.empty() ? "" : " of family " + file.family) + " that " + slot->source +
                              " records too - keep the newer one (a phase folder holds one run)");
  }
  slot = &file;
}

void add(std::optional<double>& sum, std::optional<double> value) {
  if (value) sum = sum.value_or(0.0) + *value;
}

// The summed wall time of the phases named `name`; empty when there is none.
std::optional<double> phase_sum(const PhaseFile& file, const std::string& name, int* count = nullptr) {
  std::optional<double> sum;
  for (const Phase& phase : file.phases) {
    if (phase.name != name) continue;
    add(sum, phase.span.wall_s());
    if (count != nullptr) ++*count;
  }
  return sum;
}

FamilyTime family_time(const std::string& family, const FamilyFiles& files) {
  FamilyTime row;
  row.family = family;
  if (files.correctness != nullptr) row.correctness_s = files.correctness->span.wall_s();
  if (files.perf != nullptr) row.perf_s = files.perf->span.wall_s();
  if (files.perf_phases == nullptr) return row;
  const PhaseFile& phases = *files.perf_phases;
  if (!row.perf_s) row.perf_s = phases.span.wall_s();
  row.lock_wait_s = phase_sum(phases, "lock_wait");
  row.checking_s = phase_sum(phases, "checking");
  row.first_look_s = phase_sum(phases, "first_look");
  row.remeasure_s = phase_sum(phases, "remeasure", &row.remeasurements);
  row.diagnosis_s = phase_sum(phases, "diagnosis");
  double phased = 0.0;
  for (const Phase& phase : phases.phases) phased += phase.span.wall_s();
  row.other_s = std::max(0.0, *row.perf_s - phased);
  return row;
}

TestStepTime test_step(std::vector<TimeSpan> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const TimeSpan& a, const TimeSpan& b) { return a.start_epoch_s < b.start_epoch_s; });
  TestStepTime step;
  step.tests = static_cast<int>(spans.size());
  double last_end = spans.front().start_epoch_s;
  for (const TimeSpan& span : spans) {
    step.sum_s += span.wall_s();
    if (span.start_epoch_s < last_end) step.parallel = true;
    last_end = std::max(last_end, span.end_epoch_s);
  }
  step.wall_s = last_end - spans.front().start_epoch_s;
  return step;
}

}  // namespace

TimeTable build_time_table(const std::vector<PhaseFile>& files) {
  const PhaseFile* build = nullptr;
  const PhaseFile* profiles = nullptr;
  std::map<std::string, FamilyFiles> families;
  for (const PhaseFile& file : files) {
    switch (file.kind) {
      case PhaseFileKind::kBuild:
        keep_once(build, file);
        break;
      case PhaseFileKind::kCorrectnessTest:
        keep_once(families[file.family].correctness, file);
        break;
      case PhaseFileKind::kPerfTest:
        keep_once(families[file.family].perf, file);
        break;
      case PhaseFileKind::kPerfPhases:
        keep_once(families[file.family].perf_phases, file);
        break;
      case PhaseFileKind::kProfiles:
        keep_once(profiles, file);
        break;
    }
  }
  TimeTable table;
  if (build != nullptr) {
    table.build = BuildTime{build->span.wall_s(), phase_sum(*build, "configure"), phase_sum(*build, "build")};
  }
  if (profiles != nullptr) {
    table.profiles = ProfilesTime{profiles->span.wall_s(), phase_sum(*profiles, "checking"), phase_sum(*profiles, "ncu")};
  }
  std::vector<TimeSpan> tests;
  for (const auto& [family, family_files] : families) {
    FamilyTime row = family_time(family, family_files);
    add(table.total.correctness_s, row.correctness_s);
    add(table.total.perf_s, row.perf_s);
    add(table.total.lock_wait_s, row.lock_wait_s);
    add(table.total.checking_s, row.checking_s);
    add(table.total.first_look_s, row.first_look_s);
    add(table.total.remeasure_s, row.remeasure_s);
    table.total.remeasurements += row.remeasurements;
    add(table.total.diagnosis_s, row.diagnosis_s);
    add(table.total.other_s, row.other_s);
    table.families.push_back(std::move(row));
    if (family_files.correctness != nullptr) tests.push_back(family_files.correctness->span);
    if (family_files.perf != nullptr) {
      tests.push_back(family_files.perf->span);
    } else if (family_files.perf_phases != nullptr) {
      tests.push_back(family_files.perf_phases->span);
    }
  }
  if (!tests.empty()) table.tests = test_step(std::move(tests));
  return table;
}

}  // namespace gpuperf::gate::phases
