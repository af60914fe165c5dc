#pragma once
// Sums and counts over large device arrays from a library (Thrust, on CUB), as references: a family whose
// variants are reductions is never checked against a reduction of its own. 64-bit accumulation, so the
// reference cannot overflow where a variant's 32-bit result would (2^28 values of up to 2^7: 2^35).

#include <cstdint>

namespace gpuperf {

// The sum of values[0..n), each widened to 64 bits. Synchronises the device.
std::int64_t sum_on_device(const int* values, std::int64_t n);

// How many i in [0, n) have a[i] == b[i]. Synchronises the device.
std::int64_t count_equal_on_device(const int* a, const int* b, std::int64_t n);

}  // namespace gpuperf
