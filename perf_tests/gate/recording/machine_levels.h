#pragma once
// A benchmark recorded on several GPUs: each GPU's level, and its processes centred on the machines'
// centre (BaselineEntry::machine_medians, baselines/README.md). Recording on every GPU of a host and
// merging hosts' recordings both end here, so that a baseline always weighs each machine the same.

#include <map>
#include <string>
#include <vector>

namespace gpuperf::gate {

// Process medians whose geometric mean is `centre`: one machine's (centre: its level), or a merged
// recording's, already centred on its median [unit].
struct ProcessGroup {
  double centre = 0.0;
  std::vector<double> process_medians;
};

// What an entry keeps of its machines.
struct LevelledProcesses {
  double median = 0.0;                            // the geometric mean of the levels [unit]
  std::vector<double> process_medians;            // each group's, moved from its centre to `median` [unit]
  std::map<std::string, double> machine_medians;  // by GPU UUID; empty where fewer than two machines [unit]
};

// The entry's centre and processes from its machines' levels (by GPU UUID) and process groups. Fewer than
// two levels: the processes as they are, their geometric mean the median, no levels.
LevelledProcesses level_machines(const std::map<std::string, double>& levels, const std::vector<ProcessGroup>& groups);

}  // namespace gpuperf::gate
