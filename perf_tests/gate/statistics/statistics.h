#pragma once
// Medians, and the deterministic generator the simulations and tests draw from. The inference itself is
// in statistics/process_inference.h.

#include <cstdint>
#include <vector>

namespace gpuperf::gate {

// Median of `values` (the mean of the two middle ones for an even count); NaN when empty. Reorders them.
double median_in_place(std::vector<double>& values);
double median(std::vector<double> values);

// A deterministic, fast generator (SplitMix64): the same seed gives the same report on every machine.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) by multiply-shift (Lemire); the bias, below n / 2^64, is far below any use here.
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

 private:
  std::uint64_t state_;
};

}  // namespace gpuperf::gate
