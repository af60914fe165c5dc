// A team's nvbench suite of two CUDA kernels, as such suites are commonly written: nvbench times each
// state itself (CUDA events on the stream it hands the launch, L2 flushed between samples) and stops
// when the samples settle. The states, over their axes:
//   saxpy       y = a * x + y over Elements floats, grid-stride, a grid that fills the GPU
//               Elements in {2^24, 2^26}
//   reduce_sum  sum of Elements floats: a block sums in shared memory, one atomicAdd a block
//               Elements in {2^24, 2^26}, BlockSize in {128, 256}
// Our names of them (docs/suites.md): nvbench_suite/saxpy/Elements:67108864,
// nvbench_suite/reduce_sum/Elements:16777216,BlockSize:128, ...
// Run it alone (./nvbench_bench) or under perf_gate (perf.nvbench_suite).
#include <cuda_runtime.h>

#include <nvbench/nvbench.cuh>

#include <cstdio>
#include <cstdlib>

namespace {

#define CHECK_CUDA(call)                                                                               \
  do {                                                                                                 \
    const cudaError_t status = (call);                                                                 \
    if (status != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status)); \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

constexpr int kSaxpyThreads = 256;

__global__ void saxpy_kernel(float a, const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

// Each block sums a grid-stride share of x in shared memory (blockDim.x floats) and adds it to *sum.
__global__ void reduce_sum_kernel(const float* x, float* sum, long long n) {
  extern __shared__ float partial[];
  float own = 0.0f;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    own += x[i];
  }
  partial[threadIdx.x] = own;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}

// Blocks of `threads` threads that fill the GPU: the resident blocks of every SM.
template <typename Kernel>
long long full_gpu_blocks(Kernel kernel, int threads, size_t shared_bytes) {
  int device = 0, sms = 0, per_sm = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return static_cast<long long>(sms) * per_sm;
}

// A device buffer of n floats, zeroed, freed at the end.
struct DeviceFloats {
  explicit DeviceFloats(long long n) {
    CHECK_CUDA(cudaMalloc(&data, n * sizeof(float)));
    CHECK_CUDA(cudaMemset(data, 0, n * sizeof(float)));
  }
  ~DeviceFloats() { cudaFree(data); }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  float* data = nullptr;
};

void saxpy(nvbench::state& state) {
  const long long n = state.get_int64("Elements");
  DeviceFloats x(n), y(n);
  const long long needed = (n + kSaxpyThreads - 1) / kSaxpyThreads;
  const long long full = full_gpu_blocks(saxpy_kernel, kSaxpyThreads, 0);
  const int blocks = static_cast<int>(needed < full ? needed : full);
  state.add_element_count(n);
  state.add_global_memory_reads<float>(2 * n);  // x and y
  state.add_global_memory_writes<float>(n);     // y
  state.exec([&](nvbench::launch& launch) {
    saxpy_kernel<<<blocks, kSaxpyThreads, 0, launch.get_stream()>>>(2.0f, x.data, y.data, n);
  });
}

void reduce_sum(nvbench::state& state) {
  const long long n = state.get_int64("Elements");
  const int threads = static_cast<int>(state.get_int64("BlockSize"));
  DeviceFloats x(n), sum(1);
  const size_t shared_bytes = threads * sizeof(float);
  const long long needed = (n + threads - 1) / threads;
  const long long full = full_gpu_blocks(reduce_sum_kernel, threads, shared_bytes);
  const int blocks = static_cast<int>(needed < full ? needed : full);
  state.add_element_count(n);
  state.add_global_memory_reads<float>(n);
  state.add_global_memory_writes<float>(1);
  state.exec([&](nvbench::launch& launch) {
    reduce_sum_kernel<<<blocks, threads, shared_bytes, launch.get_stream()>>>(x.data, sum.data, n);
  });
}

}  // namespace

// 2^24 and 2^26 elements: at 2^20 (8-9 us a launch on an H200, 2026-11-29) the processes of one state spread
// by 0.7-1.1% and a clean A/B of them stayed ambiguous for rounds; at 2^23 by 0.3-0.4%, at 2^26 by 0.1%.
NVBENCH_BENCH(saxpy).add_int64_power_of_two_axis("Elements", nvbench::range(24, 26, 2));
NVBENCH_BENCH(reduce_sum)
    .add_int64_power_of_two_axis("Elements", nvbench::range(24, 26, 2))
    .add_int64_axis("BlockSize", {128, 256});
