#pragma once
// Coalescing family (seed 000/001, "memory coalescing"): the same useful work, copying n floats, done
// with the reads of neighbouring threads 1, 2, 4, ... 100 elements apart (the seed's A[idx * 100]).
//
// The scheme, chosen so that every stride does the same useful work and times compare directly:
//   - the input is one array of kArrayElements = 2^28 floats (1 GiB), whatever the stride;
//   - out[i] = in[(i * stride) mod kArrayElements] for i < n, with n the same for every stride
//     (2^26 for perf: at stride 1 that is 256 MiB read + 256 MiB written, > 4x the L2);
//   - the output is written contiguously.
// Useful bytes = n * 4 read + n * 4 written for every stride; the DRAM traffic behind them grows with
// the stride (a 4-byte read costs a whole 32-byte sector from stride 8 up), which is what the lower
// effective GB/s shows. Indices wrap at 2^28 (power-of-two strides >= 8 revisit the same elements on
// the next pass, ~1 GiB of reads later: long evicted from L2, so still DRAM traffic).

#include <cstdint>

#include <cuda_runtime.h>

namespace gpuperf::coalescing {

// Elements of the input array: a power of two, so the wrap is a mask.
constexpr std::int64_t kArrayElements = std::int64_t{1} << 28;

struct Args {
  const float* in;  // kArrayElements elements
  std::int64_t n;   // elements copied
  int stride;       // distance between the elements read by neighbouring threads
  float* out;       // n elements
};

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// Every variant's launcher, one per line of variants.def (which says what each does).
#define GPUPERF_VARIANT(name, any_stride) void name(const Args& args, cudaStream_t stream);
#include "coalescing/variants.def"
#undef GPUPERF_VARIANT

}  // namespace gpuperf::coalescing
