// Two published benchmarks timed by code written apart from the harness (nothing shared with it), to check
// the harness's numbers and to find what moves them (docs/results.md, "Two benchmarks against independent
// timings" and "Where a buffer lands"):
//   ce   count_equal/global_atomic_per_element/n:33554432,match:0.25: one atomicAdd on one counter per
//        matching element, 256 threads a block
//   cub  reduction/cub_device_reduce_sum/n:33554432: cub::DeviceReduce::Sum over ints in [-3, 3]
// Inputs as the harness draws them (splitmix64 of seed and index, the same ranges and match rule). Every
// sample's result is checked. A sample: the L2 flushed as the harness flushes it (cudaMemsetAsync of 2 x L2
// bytes), then CUDA events around the work (for ce, the counter's reset and the kernel, as the harness
// times it); the median of 30 samples after 5 warm-ups.
//
//   independent_timing <ce|cub> flush       how the L2's state before a sample moves the time: flushed by a
//                                           memset (dirty lines), by a read (clean lines), not flushed
//   independent_timing <ce|cub> history H   after the allocation history H: none; free1g (1 GiB allocated,
//                                           freed); touchfree1g / touchfree3g (1 or 3 GiB written, freed, a
//                                           pause of 0.2 s a GiB); hold1g (1 GiB written and kept);
//                                           flushfirst (the flush buffer allocated before the inputs, as
//                                           the harness does; otherwise it comes after them)
//   independent_timing <ce|cub> sweep       the hot small buffer at 96 places: for ce the counter, for cub
//                                           its temporary storage (the blocks' partial sums) with the output
//                                           64 KiB after it; offsets i x 4 KiB (i < 64) and 8 MiB + i x 1 MiB
//                                           (i < 32) of one allocation, everything else fixed
//   independent_timing cub sweep-input      cub's 128 MiB input at offsets j x 32 MiB (j < 32) of a 1.125 GiB
//                                           allocation
// Each prints one line per measurement: "<workload> <way> median_us=<us>". Built as the target
// independent_timing of a build folder (perf_tests/independent_timing), or alone:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o independent_timing perf_tests/independent/independent_timing.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <cub/device/device_reduce.cuh>

#define CK(call)                                                                                 \
  do {                                                                                           \
    const cudaError_t e = (call);                                                                \
    if (e != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "CUDA error %s at line %d\n", cudaGetErrorString(e), __LINE__);       \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

namespace {

constexpr std::int64_t kN = std::int64_t{1} << 25;
constexpr std::size_t kGiB = std::size_t{1} << 30;
constexpr std::size_t kMiB = std::size_t{1} << 20;

__host__ __device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__global__ void fill(int* out, std::int64_t n, int lo, std::uint32_t span, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = lo + static_cast<int>(splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(i))) % span);
}

// b = a where a draw is below `threshold` (match 0.25: 0.25 x 2^32), else a + 1.
__global__ void make_b(const int* a, int* b, std::int64_t n, std::uint64_t threshold, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t draw = splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(i))) >> 32;
    b[i] = draw < threshold ? a[i] : a[i] + 1;
  }
}

__global__ void count_equal_per_element(const int* a, const int* b, std::int64_t n, int* count) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n && a[i] == b[i]) atomicAdd(count, 1);
}

__global__ void read_all(const int4* p, std::size_t count, int* sink) {
  int acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
    const int4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;  // never in practice; keeps the loads
}

template <typename T>
T* device_alloc(std::size_t bytes) {
  void* p = nullptr;
  CK(cudaMalloc(&p, bytes));
  return static_cast<T*>(p);
}

int device_int(const int* p) {
  int value = 0;
  CK(cudaMemcpy(&value, p, sizeof value, cudaMemcpyDeviceToHost));
  return value;
}

std::vector<int> to_host(const int* p) {
  std::vector<int> h(kN);
  CK(cudaMemcpy(h.data(), p, kN * sizeof(int), cudaMemcpyDeviceToHost));
  return h;
}

class Timer {
 public:
  explicit Timer(cudaStream_t stream) : stream_(stream) {
    CK(cudaEventCreate(&start_));
    CK(cudaEventCreate(&stop_));
    int device = 0, l2 = 0;
    CK(cudaGetDevice(&device));
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    flush_bytes_ = 2 * static_cast<std::size_t>(l2);
  }
  std::size_t flush_bytes() const { return flush_bytes_; }

  // Median of 30 samples after 5 warm-ups [us]: before() outside the events, work() between them; every
  // sample's result checked.
  double median_us(const std::function<void()>& before, const std::function<void()>& work,
                   const std::function<bool()>& correct) const {
    std::vector<double> samples;
    for (int r = 0; r < 35; ++r) {
      before();
      CK(cudaEventRecord(start_, stream_));
      work();
      CK(cudaGetLastError());
      CK(cudaEventRecord(stop_, stream_));
      CK(cudaEventSynchronize(stop_));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, start_, stop_));
      if (!correct()) {
        std::fprintf(stderr, "wrong result in sample %d\n", r);
        std::exit(1);
      }
      if (r >= 5) samples.push_back(ms * 1e3);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_, stop_;
  std::size_t flush_bytes_ = 0;
};

// The allocation history before the inputs are allocated (the `history` command).
void run_history(const std::string& history) {
  if (history == "none" || history == "flushfirst") return;
  const int gib = history == "touchfree3g" ? 3 : 1;
  if (history != "free1g" && history != "touchfree1g" && history != "touchfree3g" && history != "hold1g") {
    std::fprintf(stderr, "unknown history '%s'\n", history.c_str());
    std::exit(2);
  }
  std::vector<char*> blocks(gib);
  for (char*& block : blocks) block = device_alloc<char>(kGiB);
  if (history != "free1g") {
    for (char* block : blocks) CK(cudaMemset(block, 1, kGiB));
  }
  CK(cudaDeviceSynchronize());
  if (history == "hold1g") return;
  for (char* block : blocks) CK(cudaFree(block));
  if (history != "free1g") std::this_thread::sleep_for(std::chrono::milliseconds(200 * gib));
}

// The two workloads: inputs made and checked once; run() enqueues one timed run on the stream.
struct CountEqual {
  int* a = nullptr;
  int* b = nullptr;
  int* count = nullptr;  // where the atomics go
  long long expected = 0;

  CountEqual(cudaStream_t s, int* counter) : a(device_alloc<int>(kN * sizeof(int))), b(device_alloc<int>(kN * sizeof(int))) {
    count = counter != nullptr ? counter : device_alloc<int>(sizeof(int));
    fill<<<4096, 256, 0, s>>>(a, kN, -1000000, 2000001u, 12345);
    make_b<<<4096, 256, 0, s>>>(a, b, kN, static_cast<std::uint64_t>(0.25 * 4294967296.0), splitmix64(12345 ^ 0xC0FFEEull));
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    const std::vector<int> ha = to_host(a), hb = to_host(b);
    for (std::int64_t i = 0; i < kN; ++i) expected += ha[i] == hb[i];
  }
  void run(cudaStream_t s) const {
    CK(cudaMemsetAsync(count, 0, sizeof(int), s));
    count_equal_per_element<<<static_cast<unsigned>((kN + 255) / 256), 256, 0, s>>>(a, b, kN, count);
  }
  bool correct() const { return device_int(count) == expected; }
};

struct CubSum {
  int* in = nullptr;
  int* out = nullptr;
  void* temp = nullptr;  // the blocks' partial sums
  std::size_t temp_bytes = 0;
  long long expected = 0;

  CubSum(cudaStream_t s, int* input, void* temp_storage, int* output) : in(input), out(output), temp(temp_storage) {
    if (in == nullptr) in = device_alloc<int>(kN * sizeof(int));
    if (out == nullptr) out = device_alloc<int>(sizeof(int));
    CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, kN, s));
    if (temp == nullptr) temp = device_alloc<char>(temp_bytes);
    refill(s);
  }
  void refill(cudaStream_t s) {
    fill<<<4096, 256, 0, s>>>(in, kN, -3, 7u, 777);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    expected = 0;
    for (int v : to_host(in)) expected += v;
  }
  void run(cudaStream_t s) const {
    std::size_t bytes = temp_bytes;
    CK(cub::DeviceReduce::Sum(temp, bytes, in, out, kN, s));
  }
  bool correct() const { return device_int(out) == expected; }
};

// The 96 places of the `sweep` command [bytes from the start of one allocation].
std::vector<std::size_t> sweep_offsets() {
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < 64; ++i) offsets.push_back(i * 4096);
  for (std::size_t i = 0; i < 32; ++i) offsets.push_back(8 * kMiB + i * kMiB);
  return offsets;
}

int usage() {
  std::fprintf(stderr, "usage: independent_timing <ce|cub> <flush|history H|sweep> | cub sweep-input (see the header)\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string workload = argv[1], command = argv[2];
  if ((workload != "ce" && workload != "cub") || (command == "history" && argc != 4)) return usage();
  const bool ce = workload == "ce";
  if (command == "history") run_history(argv[3]);

  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  const Timer timer(s);
  char* flush_buffer = nullptr;
  if (command == "history" && std::string(argv[3]) == "flushfirst") flush_buffer = device_alloc<char>(timer.flush_bytes());
  // The workload's own buffers: those the command moves come from `region`.
  char* region = nullptr;
  if (command == "sweep") region = device_alloc<char>(41 * kMiB);
  if (command == "sweep-input") region = device_alloc<char>(kGiB + 128 * kMiB);
  // Unless the history says otherwise, the flush buffer comes after the workload's buffers (allocated on
  // first use): the order the numbers of docs/results.md before "Where a buffer lands" had.
  const auto memset_flush = [&] {
    if (flush_buffer == nullptr) flush_buffer = device_alloc<char>(timer.flush_bytes());
    CK(cudaMemsetAsync(flush_buffer, 0, timer.flush_bytes(), s));
  };
  const auto print = [&](const std::string& way, double us) {
    std::printf("%s %s median_us=%.2f\n", workload.c_str(), way.c_str(), us);
  };

  if (command == "flush" || command == "history") {
    const std::string way = command == "history" ? std::string("history=") + argv[3] : "flush=memset";
    if (ce) {
      const CountEqual work(s, nullptr);
      print(way, timer.median_us(memset_flush, [&] { work.run(s); }, [&] { return work.correct(); }));
      if (command == "flush") {
        print("flush=none", timer.median_us([] {}, [&] { work.run(s); }, [&] { return work.correct(); }));
      }
    } else {
      const CubSum work(s, nullptr, nullptr, nullptr);
      print(way, timer.median_us(memset_flush, [&] { work.run(s); }, [&] { return work.correct(); }));
      if (command == "flush") {
        char* clean = device_alloc<char>(timer.flush_bytes());
        int* sink = device_alloc<int>(sizeof(int));
        CK(cudaMemset(clean, 1, timer.flush_bytes()));
        const auto read_flush = [&] {
          read_all<<<1056, 256, 0, s>>>(reinterpret_cast<const int4*>(clean), timer.flush_bytes() / 16, sink);
        };
        print("flush=read", timer.median_us(read_flush, [&] { work.run(s); }, [&] { return work.correct(); }));
        print("flush=none", timer.median_us([] {}, [&] { work.run(s); }, [&] { return work.correct(); }));
      }
    }
  } else if (command == "sweep") {
    // Inputs made once; only the hot small buffer moves.
    if (ce) {
      CountEqual work(s, nullptr);
      for (const std::size_t offset : sweep_offsets()) {
        work.count = reinterpret_cast<int*>(region + offset);
        print("offset=" + std::to_string(offset), timer.median_us(memset_flush, [&] { work.run(s); }, [&] { return work.correct(); }));
      }
    } else {
      CubSum work(s, nullptr, region, reinterpret_cast<int*>(region + 64 * 1024));
      for (const std::size_t offset : sweep_offsets()) {
        work.temp = region + offset;
        work.out = reinterpret_cast<int*>(region + offset + 64 * 1024);
        print("offset=" + std::to_string(offset), timer.median_us(memset_flush, [&] { work.run(s); }, [&] { return work.correct(); }));
      }
    }
  } else if (command == "sweep-input" && !ce) {
    CubSum work(s, reinterpret_cast<int*>(region), nullptr, nullptr);
    for (std::size_t j = 0; j < 32; ++j) {
      work.in = reinterpret_cast<int*>(region + j * 32 * kMiB);
      work.refill(s);
      print("input_offset_mib=" + std::to_string(j * 32), timer.median_us(memset_flush, [&] { work.run(s); },
                                                                         [&] { return work.correct(); }));
    }
  } else {
    return usage();
  }
  return 0;
}
