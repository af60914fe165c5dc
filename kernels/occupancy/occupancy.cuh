#pragma once
// Occupancy family (seeds 000/001 "occupancy"; seed 002 "enough parallelism": threads per block, waves
// and the tail effect).
//
//  (a) block_size_sweep: one memory-bound kernel, y[i] = a*x[i] + b, one element per thread, at block
//      sizes 32..1024: how many warps an SM holds at each size, and what that does to bandwidth.
//  (b) register_limited, shared_memory_limited: the same work at 256 threads per block, with residency
//      cut to 2 blocks (16 warps, 25%) per SM by the kernel's registers or its shared memory.
//  (c) wave_sweep: a compute-bound kernel, one block per SM, each block a fixed amount of work,
//      launched with 1.0 .. 3.0 waves of blocks: a partial wave costs a whole one (the tail effect).
//
// Every case reports the residency the runtime computes for its launch (Residency, below).

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace gpuperf::occupancy {

// What the runtime reports for one kernel at one launch configuration.
struct Residency {
  int active_blocks_per_sm = 0;            // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  double occupancy_pct = 0.0;              // active warps / most warps an SM holds [%]
  int registers_per_thread = 0;            // cudaFuncAttributes::numRegs
  std::size_t shared_bytes_per_block = 0;  // static + dynamic shared memory [bytes]
};

// Threads an SM can hold (cudaDevAttrMaxThreadsPerMultiProcessor; 2048 on Hopper), read once.
int max_threads_per_sm();

// Asks the runtime about `kernel` (a __global__ function's address) launched with `block` threads
// and `dynamic_shared_bytes` of dynamic shared memory.
Residency residency_of(const void* kernel, int block, std::size_t dynamic_shared_bytes);

// ---- (a), (b): y[i] = a * x[i] + b over n floats, one element per thread, grid = ceil(n / block).

struct AxpbArgs {
  const float* x;
  float* y;
  std::int64_t n;
  float a;
  float b;
};

// Threads per block of the (b) variants.
constexpr int kLimitedBlock = 256;

// Every (a)/(b) variant is a pair: prepare(block) runs once per instance, outside the timed region
// (sets the kernel's attributes and returns the runtime's residency at that block size); launch()
// enqueues the kernel.
using AxpbPrepare = Residency (*)(int block);
using AxpbLauncher = void (*)(const AxpbArgs& args, int block, cudaStream_t stream);

// Every variant's pair, one per line of variants.def.
#define GPUPERF_VARIANT(name, prepare, launcher, any_block) \
  Residency prepare(int block);                             \
  void launcher(const AxpbArgs& args, int block, cudaStream_t stream);
#include "occupancy/variants.def"
#undef GPUPERF_VARIANT

// ---- (c): fixed work per block, one block per SM.

constexpr int kWaveThreads = 1024;     // threads per block
constexpr int kWaveChains = 4;         // independent FMA chains per thread
constexpr int kWaveIterations = 4096;  // FMAs per chain
// Dynamic shared memory per block: more than half an SM's 228 KB, so one block fills an SM.
constexpr std::size_t kWaveSharedBytes = 128 * 1024;

struct WaveArgs {
  const int* start;  // kWaveThreads integers: thread t's chains start at start[t] + block + chain
  float* out;        // blocks * kWaveThreads: out[b * kWaveThreads + t] = result of thread (b, kWaveThreads-1-t)
  int blocks;
  float multiplier;  // every chain: v = fma(v, multiplier, increment[chain]), kWaveIterations times
  float increment[kWaveChains];
};

Residency fixed_work_prepare();
void fixed_work_blocks(const WaveArgs& args, cudaStream_t stream);

}  // namespace gpuperf::occupancy
