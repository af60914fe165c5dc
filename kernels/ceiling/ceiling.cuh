#pragma once
// Ceiling family: the GPU's own memory-bandwidth ceilings, measured by the harness in the same run as
// every other family, so that any memory-bound benchmark can be shown as a fraction of them.
//
//   device_copy       cudaMemcpyAsync device to device                 bytes = read + written = 2 * 4n
//   read_only_stream  a kernel that only reads (16-byte loads) and writes one int per block
//                                                                      bytes = read = 4n
//   memset            cudaMemsetAsync                                  bytes = written = 4n
//
// Every variant works on n int32 elements; the perf size n = 2^28 is 1 GiB, many times any L2.

#include <cstdint>

#include <cuda_runtime.h>

namespace gpuperf::ceiling {

// What a variant does to its buffers: decides which buffers it gets, how it is checked and how many
// bytes it must move.
enum class Operation {
  kCopy,  // out[i] = in[i]
  kRead,  // partials[b] = sum of the elements block b read; their sum is the sum of in
  kFill,  // every byte of out = fill_byte
};

struct Args {
  const int* in;            // n elements (kCopy, kRead)
  int* out;                 // n elements (kCopy, kFill)
  int* partials;            // kRead: one sum per block
  std::int64_t n;
  unsigned char fill_byte;  // kFill: the byte written
};

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// Every variant's launcher, one per line of variants.def.
#define GPUPERF_VARIANT(name, launcher, operation, partials_for) void launcher(const Args& args, cudaStream_t stream);
#include "ceiling/variants.def"
#undef GPUPERF_VARIANT

// Blocks read_only_stream launches for n elements: the partial sums it writes.
std::int64_t read_only_stream_blocks(std::int64_t n);

}  // namespace gpuperf::ceiling
