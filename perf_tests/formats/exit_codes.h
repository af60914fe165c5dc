#pragma once
// The exit codes of perf_gate: what CI and CTest act on. Explicit values, never a count (a count wraps at
// 256 and would count improvements as failures).

namespace gpuperf::formats {

// Every judged benchmark is within tolerance, faster, or new.
inline constexpr int kExitPass = 0;
// At least one benchmark is SLOW (with --strict: or MISSING from the results).
inline constexpr int kExitRegression = 1;
// Bad arguments, an unreadable or corrupt file, a benchmark that reported an error, no samples at all, or
// results from another GPU than the baseline's: the run proves nothing, fix the input.
inline constexpr int kExitInvalidInput = 2;
// No regression, but some benchmark could not be judged (throttled, too few samples, unit mismatch) or
// nothing was judged at all. CTest reports it as skipped (SKIP_RETURN_CODE 77), never as passed.
inline constexpr int kExitNotJudged = 77;

}  // namespace gpuperf::formats
