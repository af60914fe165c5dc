#pragma once
// The units of a benchmark's samples, as the results files, the case listing and the baselines write them,
// and the range a sample may take in them.

namespace gpuperf::formats {

inline constexpr const char* kUnitMicroseconds = "us";  // device time
inline constexpr const char* kUnitCycles = "cycles";    // SM clock cycles, for cycle-metric benchmarks

// Every time and cycle count the gate reads (a sample, a process median, a baseline's median), once in its
// unit (times converted to microseconds), lies in [kSmallestSample, kLargestSample]: positive and finite,
// and far enough from the ends of a double that every ratio, percentage and mean taken of two of them is
// finite too. A femtosecond to 31 years holds any GPU timing by orders of magnitude on both sides. Without
// it 1e303 s (infinite in microseconds) and 5e-324 ns (zero) were judged "+inf%" AMBIGUOUS, and recorded
// as a null or zero median. formats::why_not_sample (json_fields.h) is the one check.
inline constexpr double kSmallestSample = 1e-9;  // [unit]: a femtosecond, in microseconds
inline constexpr double kLargestSample = 1e15;   // [unit]: about 31 years, in microseconds

}  // namespace gpuperf::formats
