#pragma once
// Exit codes shared by every program of the harness (and scripts/, which document them too).
// Explicit values, never a count: a count wraps at 256 and cannot tell a regression from bad input.

namespace gpuperf {

constexpr int kExitPass = 0;
constexpr int kExitRegression = 1;
constexpr int kExitInvalid = 2;      // bad input, bad usage, or the infrastructure failed
constexpr int kExitNotJudged = 77;   // nothing could be judged (no GPU, throttled, ...): CTest "skipped"

}  // namespace gpuperf
