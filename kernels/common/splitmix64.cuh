#pragma once
// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014; Vigna's
// reference code): the one hash every random draw of the kernels' inputs comes from, element i of a fill
// seeded s being a function of splitmix64(s ^ splitmix64(i)). Written once, for host and device, so that
// a fill, a match pattern and a scale factor cannot drift apart.

#include <cstdint>

#include <cuda_runtime.h>

namespace gpuperf {

__host__ __device__ inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace gpuperf
