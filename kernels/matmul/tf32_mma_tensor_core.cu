// tf32_mma_tensor_core (ours): what it changes vs blocktile_2d_vec4, and why:
//  - the products run on tensor cores: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (inline PTX),
//    operands rounded to TF32 (10-bit mantissa), accumulation in FP32. Hopper's fastest path,
//    wgmma, is deliberately not used: this is the Ampere-style warp-level MMA that cuBLAS TF32 beats;
//  - a 128 x 128 block tile, 8 warps in 2 x 4, each warp a 64 x 32 tile = 4 x 4 MMA tiles (64 FP32
//    accumulators per thread); BK = 32 per shared-memory stage;
//  - shared tiles are filled by cp.async (global -> shared without registers) in a 3-stage pipeline:
//    while the block computes on stage s, the loads of the next two tiles are in flight;
//  - A fragments come from shared memory by ldmatrix.x4 (4 registers, one instruction), B fragments by
//    32-bit loads; shared rows are padded (A: 32 + 4, B: 128 + 8 floats) so both are conflict-free
//    (8 rows x 16 bytes of A, 4 rows x 8 columns of B fall on 32 different banks);
//  - blocks are numbered in groups of 8 block-rows (as Triton does) so the blocks resident together
//    share panels of A and B in L2.
// Edges: out-of-range elements are zero-filled by cp.async's src-size operand and C stores are guarded.
// 16-byte cp.async needs 16-byte aligned rows: when K % 4 != 0 or N % 4 != 0 the same kernel is
// instantiated with 4-byte cp.async per element.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "matmul/matmul.cuh"

namespace gpuperf::matmul {
namespace {

constexpr int kBM = 128;
constexpr int kBN = 128;
constexpr int kBK = 32;
constexpr int kStages = 3;
constexpr int kThreads = 256;
constexpr int kWarpM = 64;  // warps: 2 along M
constexpr int kWarpN = 32;  //        4 along N
constexpr int kMmaTilesM = kWarpM / 16;
constexpr int kMmaTilesN = kWarpN / 8;
constexpr int kAStride = kBK + 4;  // [floats]; 144 bytes: 16-byte aligned rows, conflict-free fragments
constexpr int kBStride = kBN + 8;  // [floats]; 544 bytes
constexpr int kAStageFloats = kBM * kAStride;
constexpr int kBStageFloats = kBK * kBStride;
constexpr int kSmemBytes = kStages * (kAStageFloats + kBStageFloats) * static_cast<int>(sizeof(float));
constexpr int kGroupM = 8;  // block-rows per group of the block order
// What the case declares in the registry (register_matmul.cu): cp.async, ldmatrix and TF32 mma.sync
// need sm_80; the two resident blocks' tiles need kSmemBytes of shared memory per block, which
// sm_86/89/120 (99 KiB) do not have.
#define GPUPERF_TF32_MMA_MIN_ARCH 800  // __CUDA_ARCH__ form of tf32_mma_tensor_core_needs
// cp.async and TF32 mma.sync exist from sm_80 on. Older architectures of the build still compile this
// file, with those instructions replaced by a trap: the registry never runs the case there.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < GPUPERF_TF32_MMA_MIN_ARCH
#define GPUPERF_SM80_ASM(...) __trap()
#else
#define GPUPERF_SM80_ASM(...) asm volatile(__VA_ARGS__)
#endif

static_assert(kThreads == (kBM / kWarpM) * (kBN / kWarpN) * 32, "one warp per warp tile");
static_assert((kBM * kBK / 4) % kThreads == 0 && (kBK * kBN / 4) % kThreads == 0, "whole float4 chunks");

__device__ __forceinline__ std::uint32_t smem_address(const float* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared; src_bytes = 0 writes zeros and reads nothing.
__device__ __forceinline__ void cp_async_16(float* dst, const float* src, bool valid) {
  GPUPERF_SM80_ASM("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address(dst)), "l"(src),
                   "r"(valid ? 16 : 0)
                   : "memory");
}

__device__ __forceinline__ void cp_async_4(float* dst, const float* src, bool valid) {
  GPUPERF_SM80_ASM("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_address(dst)), "l"(src),
                   "r"(valid ? 4 : 0)
                   : "memory");
}

__device__ __forceinline__ void cp_async_commit() { GPUPERF_SM80_ASM("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most `pending` of this thread's committed groups are still in flight.
template <int pending>
__device__ __forceinline__ void cp_async_wait() {
  GPUPERF_SM80_ASM("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
}

// FP32 bits -> TF32 operand, rounded to nearest (ties away from zero): add half a TF32 ulp (bit 12);
// the tensor core ignores the low 13 bits, which truncates the rest. One integer add instead of
// cvt.rna.tf32.f32; CUTLASS calls this round_half_ulp_truncate. Finite inputs round exactly as cvt.rna
// would (FLT_MAX rounds to Inf, as it should); Inf stays Inf.
__device__ __forceinline__ std::uint32_t to_tf32(std::uint32_t fp32_bits) { return fp32_bits + 0x1000u; }

// Four 8 x 4 FP32 matrices from shared memory, one register each, in the MMA A-fragment layout: lane l
// gives the address of row l % 8 of matrix l / 8 (16 bytes, 16-byte aligned) and receives word l % 4
// of row l / 4 of each matrix. (ldmatrix moves b16 pairs; 32-bit elements ride along as pairs.)
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address)
               : "memory");
}

// d += a * b for one 16 x 8 x 8 tile. Fragments (g = lane / 4, t = lane % 4):
//   a: (g, t) (g + 8, t) (g, t + 4) (g + 8, t + 4);  b: (k t, n g) (k t + 4, n g);
//   d: (g, 2t) (g, 2t + 1) (g + 8, 2t) (g + 8, 2t + 1).
__device__ __forceinline__ void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  GPUPERF_SM80_ASM(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Issues the copies of the k-tile starting at k0 into one stage: A rows bm.., B columns bn...
template <bool kVec>
__device__ __forceinline__ void load_tile(float* as, float* bs, const float* a, const float* b, int m, int n, int k,
                                          int bm, int bn, int k0, int tid) {
  // The scalar path keeps its loops rolled: its 32 addresses per tile would not fit in registers.
#pragma unroll(kVec ? kBM * kBK / 4 / kThreads : 1)
  for (int i = 0; i < kBM * kBK / 4 / kThreads; ++i) {  // A: 128 rows x 8 chunks of 4 floats
    const int chunk = tid + i * kThreads;
    const int r = chunk / (kBK / 4);
    const int col = (chunk % (kBK / 4)) * 4;
    const int gr = bm + r;
    const int gc = k0 + col;
    float* dst = as + r * kAStride + col;
    if constexpr (kVec) {
      const bool valid = gr < m && gc < k;  // k % 4 == 0: a chunk is wholly in or out
      cp_async_16(dst, valid ? a + gr * k + gc : a, valid);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const bool valid = gr < m && gc + j < k;
        cp_async_4(dst + j, valid ? a + gr * k + gc + j : a, valid);
      }
    }
  }
#pragma unroll(kVec ? kBK * kBN / 4 / kThreads : 1)
  for (int i = 0; i < kBK * kBN / 4 / kThreads; ++i) {  // B: 32 rows x 32 chunks of 4 floats
    const int chunk = tid + i * kThreads;
    const int r = chunk / (kBN / 4);
    const int col = (chunk % (kBN / 4)) * 4;
    const int gr = k0 + r;
    const int gc = bn + col;
    float* dst = bs + r * kBStride + col;
    if constexpr (kVec) {
      const bool valid = gr < k && gc < n;  // n % 4 == 0
      cp_async_16(dst, valid ? b + gr * n + gc : b, valid);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const bool valid = gr < k && gc + j < n;
        cp_async_4(dst + j, valid ? b + gr * n + gc + j : b, valid);
      }
    }
  }
}

template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2)
    tf32_mma_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                    int k) {
  extern __shared__ __align__(16) float smem[];
  float* const as_base = smem;                            // kStages x [kBM][kAStride]
  float* const bs_base = smem + kStages * kAStageFloats;  // kStages x [kBK][kBStride]

  // Grouped block order: consecutive blocks walk down kGroupM block-rows, then to the next block-column.
  const int blocks_m = ceil_div(m, kBM);
  const int blocks_n = ceil_div(n, kBN);
  const int per_group = kGroupM * blocks_n;
  const int group = static_cast<int>(blockIdx.x) / per_group;
  const int first_m = group * kGroupM;
  const int group_rows = min(blocks_m - first_m, kGroupM);
  const int in_group = static_cast<int>(blockIdx.x) % per_group;
  const int bm = (first_m + in_group % group_rows) * kBM;
  const int bn = (in_group / group_rows) * kBN;

  const int tid = threadIdx.x;
  const int warp = tid >> 5;
  const int lane = tid & 31;
  const int wm = (warp / (kBN / kWarpN)) * kWarpM;  // warp tile origin inside the block tile
  const int wn = (warp % (kBN / kWarpN)) * kWarpN;
  const int g = lane >> 2;
  const int t = lane & 3;

  // A fragments by ldmatrix: this lane's row address inside a stage, for MMA tile 0 and k offset 0.
  // Matrices 0..3 = (rows 0-7, k 0-3), (rows 8-15, k 0-3), (rows 0-7, k 4-7), (rows 8-15, k 4-7): the
  // fragment registers a0..a3 in order.
  const int a_frag_row = wm + (lane & 7) + ((lane >> 3) & 1) * 8;
  const int a_frag_col = (lane >> 4) * 4;
  const std::uint32_t a_frag_address = smem_address(as_base + a_frag_row * kAStride + a_frag_col);

  float acc[kMmaTilesM][kMmaTilesN][4];
#pragma unroll
  for (int mi = 0; mi < kMmaTilesM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kMmaTilesN; ++ni) {
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[mi][ni][q] = 0.0f;
    }
  }

  const int tiles = (k + kBK - 1) / kBK;
  // Prologue: tiles 0 .. kStages-2 in flight, one commit group each (empty groups past the end keep
  // the count uniform, so wait_group's arithmetic holds for every k).
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles) {
      load_tile<kVec>(as_base + s * kAStageFloats, bs_base + s * kBStageFloats, a, b, m, n, k, bm, bn, s * kBK, tid);
    }
    cp_async_commit();
  }

  for (int kt = 0; kt < tiles; ++kt) {
    // Groups committed so far: kStages - 1 + kt; allowing kStages - 2 pending means groups 0..kt are
    // done: this thread's copies of tile kt have landed.
    cp_async_wait<kStages - 2>();
    // Everyone's copies of tile kt are visible, and everyone has finished computing on tile kt - 1,
    // whose stage is the one refilled just below.
    __syncthreads();
    const int next = kt + kStages - 1;
    if (next < tiles) {
      const int s = next % kStages;
      load_tile<kVec>(as_base + s * kAStageFloats, bs_base + s * kBStageFloats, a, b, m, n, k, bm, bn, next * kBK,
                      tid);
    }
    cp_async_commit();

    const std::uint32_t a_stage = a_frag_address + (kt % kStages) * kAStageFloats * 4;
    const float* bs = bs_base + (kt % kStages) * kBStageFloats;
#pragma unroll
    for (int kk = 0; kk < kBK; kk += 8) {
      std::uint32_t af[kMmaTilesM][4];
      std::uint32_t bf[kMmaTilesN][2];
#pragma unroll
      for (int mi = 0; mi < kMmaTilesM; ++mi) {
        ldmatrix_x4(af[mi], a_stage + (mi * 16 * kAStride + kk) * 4);
#pragma unroll
        for (int q = 0; q < 4; ++q) af[mi][q] = to_tf32(af[mi][q]);
      }
#pragma unroll
      for (int ni = 0; ni < kMmaTilesN; ++ni) {
        const float* p = bs + (kk + t) * kBStride + wn + ni * 8 + g;
        bf[ni][0] = to_tf32(__float_as_uint(p[0]));
        bf[ni][1] = to_tf32(__float_as_uint(p[4 * kBStride]));
      }
#pragma unroll
      for (int mi = 0; mi < kMmaTilesM; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kMmaTilesN; ++ni) mma_tf32(acc[mi][ni], af[mi], bf[ni]);
      }
    }
  }
  cp_async_wait<0>();  // only empty groups can be left; drain them before the block exits

#pragma unroll
  for (int mi = 0; mi < kMmaTilesM; ++mi) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {  // rows g and g + 8 of the MMA tile
      const int row = bm + wm + mi * 16 + g + half * 8;
      if (row >= m) continue;
      float* c_row = c + row * n;
#pragma unroll
      for (int ni = 0; ni < kMmaTilesN; ++ni) {
        const int col = bn + wn + ni * 8 + 2 * t;
        const float v0 = acc[mi][ni][half * 2 + 0];
        const float v1 = acc[mi][ni][half * 2 + 1];
        if constexpr (kVec) {  // n even and col even: col < n implies col + 1 < n, and 8-byte alignment
          if (col < n) *reinterpret_cast<float2*>(c_row + col) = make_float2(v0, v1);
        } else {
          if (col < n) c_row[col] = v0;
          if (col + 1 < n) c_row[col + 1] = v1;
        }
      }
    }
  }
}

template <bool kVec>
void launch(const Args& args, cudaStream_t stream) {
  // Over 48 KiB of dynamic shared memory must be opted into, once per kernel instantiation; the
  // largest shared-memory carveout lets two 105 KiB blocks share an SM.
  static const bool opted_in = [] {
    GPUPERF_CUDA_CHECK(
        cudaFuncSetAttribute(tf32_mma_kernel<kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    GPUPERF_CUDA_CHECK(cudaFuncSetAttribute(tf32_mma_kernel<kVec>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                            cudaSharedmemCarveoutMaxShared));
    return true;
  }();
  (void)opted_in;
  const int blocks = ceil_div(args.m, kBM) * ceil_div(args.n, kBN);
  tf32_mma_kernel<kVec><<<blocks, kThreads, kSmemBytes, stream>>>(args.a, args.b, args.c, args.m, args.n, args.k);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace

const Requirements tf32_mma_tensor_core_needs{GPUPERF_TF32_MMA_MIN_ARCH / 10, kSmemBytes};

void tf32_mma_tensor_core(const Args& args, cudaStream_t stream) {
  check_sizes(args);
  if (args.k % 4 == 0 && args.n % 4 == 0) {
    launch<true>(args, stream);
  } else {
    launch<false>(args, stream);
  }
}

}  // namespace gpuperf::matmul
