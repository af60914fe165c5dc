#include "gate/driver/looks.h"

#include "formats/exit_codes.h"

namespace gpuperf::gate::driver {

int looks_budget(int max_remeasure) { return max_remeasure + 1; }

Look judge_until_decided(int max_remeasure, const std::function<Look()>& judge,
                         const std::function<void(int attempt, const std::vector<std::string>& ambiguous)>& remeasure) {
  Look look = judge();
  for (int attempt = 1; attempt <= max_remeasure; ++attempt) {
    if (look.exit_code == formats::kExitInvalidInput || look.ambiguous.empty()) break;
    remeasure(attempt, look.ambiguous);
    look = judge();
  }
  return look;
}

}  // namespace gpuperf::gate::driver
