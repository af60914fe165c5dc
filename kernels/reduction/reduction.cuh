#pragma once
// Reduction family: the int32 sum of n elements (seed 004: reduce1..reduce9 after the CUDA samples),
// CUB's DeviceReduce::Sum as the library variant, and our own single-pass vectorised kernel.
//
// The timed region is the same for every variant: input already on the device -> the final sum in
// out[0] on the device. The seed finishes the block partial sums on the CPU; we instead run the same
// kernel again over the partials until one value is left, so that the figure includes all of the work
// and can be compared with CUB.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "common/device_buffer.cuh"

namespace gpuperf::reduction {

// Threads per block of every seed variant (the CUDA samples' default).
constexpr int kBlockSize = 256;

// Scratch space a launcher may use; allocated once per problem size, outside the timed region.
struct Workspace {
  explicit Workspace(std::int64_t n);
  DeviceBuffer<int> partials_a;             // block sums of an odd pass
  DeviceBuffer<int> partials_b;             // block sums of an even pass
  DeviceBuffer<unsigned char> cub_storage;  // CUB's temporary storage
  DeviceBuffer<unsigned int> blocks_done;   // single-pass kernels: blocks finished; reset by the last block
};

struct Args {
  const int* in;
  std::int64_t n;
  int* out;  // one element: the sum
  Workspace* workspace;
};

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// One pass of a block-partial kernel: blocks_for(n) blocks write one partial sum each.
struct Pass {
  std::int64_t (*blocks_for)(std::int64_t n);
  void (*launch)(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream);
};

// Temporary storage cub_device_reduce_sum needs for n elements.
std::size_t cub_storage_bytes(std::int64_t n);

// Runs pass over the input, then over its partial sums, until one value is left in args.out.
void reduce_in_passes(const Pass& pass, const Args& args, cudaStream_t stream);

// Blocks for kernels that read `per_thread` elements per thread, one block per tile.
inline std::int64_t blocks_for_tiles(std::int64_t n, std::int64_t per_thread) {
  const std::int64_t tile = kBlockSize * per_thread;
  return (n + tile - 1) / tile;
}

// Every variant's launcher, one per line of variants.def.
#define GPUPERF_VARIANT(name) void name(const Args& args, cudaStream_t stream);
#include "reduction/variants.def"
#undef GPUPERF_VARIANT

}  // namespace gpuperf::reduction
