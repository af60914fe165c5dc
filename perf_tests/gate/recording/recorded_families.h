#pragma once
// Which entries of a GPU's baseline one recording replaces. Our own suite's families (gpuperf_add_family)
// and every team's suite (gpuperf_add_suite) share one folder and so one file, baselines/<gpu slug>.json,
// and each is recorded on its own (update_baseline.sh, update_baseline.sh --suite NAME): recording one
// must leave the others' entries as they were, fingerprints and hand-set tolerances included.
//
// The rule, here and nowhere else: a benchmark belongs to the family its name starts with
// (family/variant/shape, formats/names.h), and a recording replaces the families its results hold.
//   - a team's suite NAME: its one family, NAME (formats/foreign_names.h: saxpy_suite/BM_saxpy/1024);
//   - our suite (gpuperf_bench): the families it measured, the whole suite running in every process (a
//     benchmark it skipped is still reported, so its family counts).
// Within those families a benchmark the recording no longer has is removed; a family it does not hold is
// kept whole, also one deleted from the registry: its entries are the file's to delete by hand.

#include <set>
#include <string>
#include <vector>

#include "gate/inputs/results.h"

namespace gpuperf::gate {

struct RecordedFamilies {
  std::set<std::string> families;  // "reduction", "saxpy_suite"
  // Whether the recording replaces the baseline's entry `benchmark`.
  bool replaces(const std::string& benchmark) const;
};

// The families of every benchmark (and captured fingerprint) in `runs`.
RecordedFamilies recorded_families(const std::vector<ResultsFile>& runs);

}  // namespace gpuperf::gate
