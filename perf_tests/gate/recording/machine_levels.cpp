#include "gate/recording/machine_levels.h"

#include "gate/inputs/baseline.h"

namespace gpuperf::gate {

LevelledProcesses level_machines(const std::map<std::string, double>& levels, const std::vector<ProcessGroup>& groups) {
  LevelledProcesses levelled;
  if (levels.size() < kMinMachinesForSpread) {
    for (const ProcessGroup& group : groups) {
      levelled.process_medians.insert(levelled.process_medians.end(), group.process_medians.begin(),
                                      group.process_medians.end());
    }
    levelled.median = geometric_mean(levelled.process_medians);
    return levelled;
  }
  std::vector<double> values;
  for (const auto& [uuid, level] : levels) values.push_back(level);
  levelled.median = geometric_mean(values);
  levelled.machine_medians = levels;
  // Each group keeps its spread about its own centre, around the common one: the within-machine spread
  // the interval uses, with the machines' offsets taken out.
  for (const ProcessGroup& group : groups) {
    for (double m : group.process_medians) levelled.process_medians.push_back(m / group.centre * levelled.median);
  }
  return levelled;
}

}  // namespace gpuperf::gate
