// ld_volatile_shared_u32 (seed 003, codes 3 and 4, on Hopper): one block of w warps; every thread
// reads the SM clock, issues i independent `ld.volatile.shared.u32` of its one table word into i
// distinct registers, and reads the clock again; the loaded values are written out afterwards.
//
// What changes from the seed, and why:
//   - 32-bit words (the seed loaded f64): one warp-wide load of 32 distinct banks is then exactly one
//     128-byte bank wavefront on Hopper, so c is the number of wavefronts per load.
//   - The seed's second clock read does not wait for the loads (it depends on nothing), so it times
//     their issue. Here the bracket is tied by data dependencies that neither the compiler nor ptxas can
//     reorder: the loads' address depends on the start reading, and the end reading is predicated on the
//     OR of every loaded value (non-zero by construction), so it issues only once every load has
//     returned; every store addresses through end, so none moves into the bracket. T is therefore
//     the time until the data can be used (load-to-use latency and throughput).
//   - The clock-read overhead is measured in the same launch as the seed does it (two back-to-back
//     clock reads) and subtracted on the host. (A first version subtracted a whole empty bracket -- clock,
//     dependent op, predicate, clock -- and measured 32 cycles for it on an H200, leaving 2 cycles of
//     "latency": on Hopper that chain's own dependency stalls overlap the load, so it is not a cost to
//     subtract.)
#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cuda_check.cuh"
#include "smem_latency/smem_latency.cuh"

namespace gpuperf::smem_latency {
namespace {

constexpr int kMaxThreads = kMaxWarps * kWarpSize;

// `zero` is 0 at run time but a kernel argument, so ptxas cannot fold the dependencies built from it.
template <int kLoads>
__global__ void __launch_bounds__(kMaxThreads)
    ld_volatile_shared_u32_kernel(const int* table, int congestion, std::uint32_t zero, int* values,
                                  std::uint32_t* clocks) {
  __shared__ int shared_table[kTableWords];
  for (int k = threadIdx.x; k < kTableWords; k += blockDim.x) shared_table[k] = table[k];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  const auto base =
      static_cast<std::uint32_t>(__cvta_generic_to_shared(&shared_table[table_index(lane, congestion)]));
  __syncthreads();

  // The clock-read overhead (seed 3.2): two back-to-back reads of the clock, in the same launch.
  std::uint32_t clock_first;
  std::uint32_t clock_second;
  asm volatile("mov.u32 %0, %%clock;\n\tmov.u32 %1, %%clock;" : "=r"(clock_first), "=r"(clock_second) : : "memory");

  // The measured bracket: every warp starts together (seed code 3's bar.sync).
  std::uint32_t start;
  asm volatile("bar.sync 0;\n\tmov.u32 %0, %%clock;" : "=r"(start) : : "memory");
  const std::uint32_t address = base | (start & zero);  // base, after start
  std::uint32_t loaded[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(loaded[k]) : "r"(address) : "memory");
  }
  std::uint32_t any = loaded[0];
#pragma unroll
  for (int k = 1; k < kLoads; ++k) any |= loaded[k];
  // Table values are non-zero, so the predicate holds and end is read; were it not, end would stay at
  // start and the host would see a non-positive figure.
  std::uint32_t end = start;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.u32 p, %1, %2;\n\t"
      "@p mov.u32 %0, %%clock;\n\t}"
      : "+r"(end)
      : "r"(any), "r"(zero)
      : "memory");

  // Every store's address depends on end, so no store can move into the bracket.
  const std::uint32_t after_end = end & zero;  // 0
  int* const values_out = values + after_end;
  std::uint32_t* const clocks_out = clocks + after_end;
#pragma unroll
  for (int k = 0; k < kLoads; ++k) values_out[k * blockDim.x + threadIdx.x] = static_cast<int>(loaded[k]);
  if (lane == 0) {
    clocks_out[kStartOffset + warp] = start;
    clocks_out[kEndOffset + warp] = end;
    clocks_out[kOverheadOffset + warp] = clock_second - clock_first;
  }
}

using Kernel = void (*)(const int*, int, std::uint32_t, int*, std::uint32_t*);

template <int... kIndex>
std::array<Kernel, sizeof...(kIndex)> make_kernels(std::integer_sequence<int, kIndex...>) {
  return {&ld_volatile_shared_u32_kernel<kIndex + 1>...};
}

// kKernels[i - 1] issues i loads per thread.
const std::array<Kernel, kMaxLoads> kKernels = make_kernels(std::make_integer_sequence<int, kMaxLoads>{});

void check_range(const char* what, int value, int max) {
  if (value < 1 || value > max) {
    throw std::invalid_argument(std::string("smem_latency: ") + what + " = " + std::to_string(value) +
                                " is outside 1.." + std::to_string(max));
  }
}

}  // namespace

void ld_volatile_shared_u32(const Args& args, cudaStream_t stream) {
  const Config& config = args.config;
  check_range("loads per thread (i)", config.loads, kMaxLoads);
  check_range("warps (w)", config.warps, kMaxWarps);
  check_range("congestion (c)", config.congestion, kMaxCongestion);
  const Kernel kernel = kKernels[static_cast<std::size_t>(config.loads - 1)];
  kernel<<<1, config.warps * kWarpSize, 0, stream>>>(args.table, config.congestion, 0u, args.values, args.clocks);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::smem_latency
