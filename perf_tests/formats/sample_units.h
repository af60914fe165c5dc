#pragma once
// The units of a benchmark's samples, as the results files, the case listing and the baselines write them.

namespace gpuperf::formats {

inline constexpr const char* kUnitMicroseconds = "us";  // device time
inline constexpr const char* kUnitCycles = "cycles";    // SM clock cycles, for cycle-metric benchmarks

}  // namespace gpuperf::formats
