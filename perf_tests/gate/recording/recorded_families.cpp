#include "gate/recording/recorded_families.h"

#include "gate/judging/tolerance.h"

namespace gpuperf::gate {

bool RecordedFamilies::replaces(const std::string& benchmark) const {
  return families.count(family_of(benchmark)) != 0;
}

RecordedFamilies recorded_families(const std::vector<ResultsFile>& runs) {
  RecordedFamilies recorded;
  for (const ResultsFile& run : runs) {
    for (const auto& [name, samples] : run.benchmarks) recorded.families.insert(family_of(name));
    for (const auto& [name, fingerprint] : run.fingerprints) recorded.families.insert(family_of(name));
  }
  return recorded;
}

}  // namespace gpuperf::gate
