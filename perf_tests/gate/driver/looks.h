#pragma once
// The looks of a perf test: judge; while some benchmark is AMBIGUOUS, measure it again and judge again,
// at most max_remeasure times. The gate spends its false-alarm budget over every look it may take
// (--looks, statistics/error_budget.h), so the loop and the budget come from the one number here.

#include <functional>
#include <string>
#include <vector>

namespace gpuperf::gate::driver {

// The looks a perf test may take at one benchmark: the first, and each re-measurement. What the
// judging is told (CompareOptions::looks, AbOptions::looks).
int looks_budget(int max_remeasure);

// One judgement: the exit code it gives (formats/exit_codes.h) and the benchmarks it left AMBIGUOUS.
struct Look {
  int exit_code = 0;
  std::vector<std::string> ambiguous;
};

// Judges; then, for attempt 1 to max_remeasure, while the last judgement was valid (not exit 2) and left
// benchmarks AMBIGUOUS, re-measures them (`remeasure(attempt, ambiguous)`) and judges again. Returns the
// last judgement: judge is called at most looks_budget(max_remeasure) times.
Look judge_until_decided(int max_remeasure, const std::function<Look()>& judge,
                         const std::function<void(int attempt, const std::vector<std::string>& ambiguous)>& remeasure);

}  // namespace gpuperf::gate::driver
