// A team's Google Benchmark suite of two CUDA kernels, as such suites are commonly written: each kernel
// timed with CUDA events around its launch, reported as manual time (UseManualTime), so that the host's
// launch overhead and synchronisation are not in the number.
//   BM_saxpy/<n>   y = a * x + y over n floats, grid-stride
//   BM_scale/<n>   out = a * x over n floats, one element a thread
// Run it alone (./saxpy_bench) or under perf_gate (perf.saxpy_suite).
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

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

constexpr int kThreads = 256;

__global__ void saxpy_kernel(float a, const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

__global__ void scale_kernel(float a, const float* x, float* out, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = a * x[i];
}

// Blocks that fill the GPU: the resident blocks of every SM.
int full_gpu_blocks() {
  int device = 0, sms = 0, per_sm = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, saxpy_kernel, kThreads, 0));
  return sms * per_sm;
}

// Two device buffers of n floats, filled, freed at the end.
struct Buffers {
  explicit Buffers(long long n) {
    CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&y, n * sizeof(float)));
    CHECK_CUDA(cudaMemset(x, 0, n * sizeof(float)));
    CHECK_CUDA(cudaMemset(y, 0, n * sizeof(float)));
  }
  ~Buffers() {
    cudaFree(x);
    cudaFree(y);
  }
  float* x = nullptr;
  float* y = nullptr;
};

// Times `launch` with CUDA events, one launch an iteration, as manual time [s].
template <typename Launch>
void time_with_events(benchmark::State& state, Launch launch) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  launch();  // warm-up: the first launch loads the module
  CHECK_CUDA(cudaDeviceSynchronize());
  for (auto _ : state) {
    CHECK_CUDA(cudaEventRecord(start));
    launch();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    state.SetIterationTime(ms / 1000.0);
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
}

void BM_saxpy(benchmark::State& state) {
  const long long n = state.range(0);
  Buffers buffers(n);
  const long long needed = (n + kThreads - 1) / kThreads;
  const int blocks = static_cast<int>(needed < full_gpu_blocks() ? needed : full_gpu_blocks());
  time_with_events(state, [&] { saxpy_kernel<<<blocks, kThreads>>>(2.0f, buffers.x, buffers.y, n); });
  state.SetBytesProcessed(state.iterations() * 3 * n * static_cast<long long>(sizeof(float)));
}

void BM_scale(benchmark::State& state) {
  const long long n = state.range(0);
  Buffers buffers(n);
  const int blocks = static_cast<int>((n + kThreads - 1) / kThreads);
  time_with_events(state, [&] { scale_kernel<<<blocks, kThreads>>>(2.0f, buffers.x, buffers.y, n); });
  state.SetBytesProcessed(state.iterations() * 2 * n * static_cast<long long>(sizeof(float)));
}

}  // namespace

// No MinTime: as most suites are written. Under perf_gate the driver chooses the pace where ARGS do not
// (docs/suites.md, "Pace and progress"); alone, Google Benchmark's default of 0.5 s applies. One size,
// 2^26 elements (230-300 us a launch on an H100): at 2^20 (8 us) one event pair around one launch spread
// the processes by 2-4% (an H100, 2026-11-27), too much for a 2% tolerance to decide without re-measuring.
BENCHMARK(BM_saxpy)->Arg(1 << 26)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_scale)->Arg(1 << 26)->UseManualTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
