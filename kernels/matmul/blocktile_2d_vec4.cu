// blocktile_2d_vec4 (ours; SGEMM_CUDA kernels 5-6 and the classic 128x128x8 SGEMM): what it changes
// vs tiled16_shared_memory, and why:
//  - each block computes a 128 x 128 tile of C and each of its 256 threads an 8 x 8 micro-tile, held
//    in registers: per k, a thread loads 8 + 8 values from shared memory for 64 FMAs (tiled16: 2 loads
//    per FMA), so the kernel is bound by the FP32 units instead of shared-memory bandwidth;
//  - the 8 x 8 micro-tile is split into 2 x 2 blocks of 4 x 4, 64 rows/columns apart, so that a warp's
//    float4 shared loads of B are consecutive (conflict-free) and its A loads are broadcasts;
//  - global loads are float4 (one per thread per tile of A and of B), A is stored transposed
//    (As[k][m], padded by 4 so the transposing stores do not conflict) so that A is read as float4 too;
//  - double buffering: the next tile's global loads are issued into registers before computing on the
//    current tile and stored to the other shared buffer afterwards: one __syncthreads per tile.
// Edges: tiles past M, N or K are zero-filled and C stores are guarded. float4 global access needs rows
// that start 16-byte aligned, so the vector path runs only when K % 4 == 0 and N % 4 == 0; otherwise the
// same kernel is instantiated with scalar, element-by-element guarded global loads and stores.
#include "common/cuda_check.cuh"
#include "matmul/matmul.cuh"

namespace gpuperf::matmul {
namespace {

constexpr int kBM = 128;  // rows of C per block
constexpr int kBN = 128;  // columns of C per block
constexpr int kBK = 8;    // depth of one shared-memory tile
constexpr int kThreads = 256;
constexpr int kAPad = 4;  // As row padding [floats]: keeps float4 alignment, removes store conflicts

template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2)
    blocktile_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                     int k) {
  __shared__ __align__(16) float as[2][kBK][kBM + kAPad];  // transposed: as[buf][k][m]
  __shared__ __align__(16) float bs[2][kBK][kBN];          // bs[buf][k][n]

  const int tid = threadIdx.x;
  const int bm = blockIdx.y * kBM;
  const int bn = blockIdx.x * kBN;

  // Loading: thread -> one float4 of the 128 x 8 A tile and one of the 8 x 128 B tile.
  const int a_row = tid >> 1;        // 0..127
  const int a_col = (tid & 1) * 4;   // 0, 4
  const int b_row = tid >> 5;        // 0..7
  const int b_col = (tid & 31) * 4;  // 0..124
  // Computing: thread (ty, tx) owns rows {ty*4 + i, 64 + ty*4 + i} and columns {tx*4 + j, 64 + tx*4 + j}.
  const int ty = tid >> 4;  // 0..15
  const int tx = tid & 15;  // 0..15

  float4 a_next;
  float4 b_next;
  const auto load_global = [&](int k0) {
    const int ar = bm + a_row;
    const int ac = k0 + a_col;
    const int br = k0 + b_row;
    const int bc = bn + b_col;
    if constexpr (kVec) {  // k % 4 == 0 and n % 4 == 0: a float4 is wholly inside or wholly outside
      a_next = (ar < m && ac < k) ? *reinterpret_cast<const float4*>(a + ar * k + ac) : make_float4(0, 0, 0, 0);
      b_next = (br < k && bc < n) ? *reinterpret_cast<const float4*>(b + br * n + bc) : make_float4(0, 0, 0, 0);
    } else {
      const bool a_in = ar < m;
      const float* a_src = a + static_cast<long long>(a_in ? ar : 0) * k;
      a_next.x = (a_in && ac + 0 < k) ? a_src[ac + 0] : 0.0f;
      a_next.y = (a_in && ac + 1 < k) ? a_src[ac + 1] : 0.0f;
      a_next.z = (a_in && ac + 2 < k) ? a_src[ac + 2] : 0.0f;
      a_next.w = (a_in && ac + 3 < k) ? a_src[ac + 3] : 0.0f;
      const bool b_in = br < k;
      const float* b_src = b + static_cast<long long>(b_in ? br : 0) * n;
      b_next.x = (b_in && bc + 0 < n) ? b_src[bc + 0] : 0.0f;
      b_next.y = (b_in && bc + 1 < n) ? b_src[bc + 1] : 0.0f;
      b_next.z = (b_in && bc + 2 < n) ? b_src[bc + 2] : 0.0f;
      b_next.w = (b_in && bc + 3 < n) ? b_src[bc + 3] : 0.0f;
    }
  };
  const auto store_shared = [&](int buf) {
    as[buf][a_col + 0][a_row] = a_next.x;
    as[buf][a_col + 1][a_row] = a_next.y;
    as[buf][a_col + 2][a_row] = a_next.z;
    as[buf][a_col + 3][a_row] = a_next.w;
    *reinterpret_cast<float4*>(&bs[buf][b_row][b_col]) = b_next;
  };

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
  }

  const int tiles = (k + kBK - 1) / kBK;
  load_global(0);
  store_shared(0);
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    const int buf = t & 1;
    // Buffer buf ^ 1 was last read in iteration t - 1, which every thread finished before the
    // __syncthreads that ended it: it may be overwritten below without a second barrier.
    if (t + 1 < tiles) load_global((t + 1) * kBK);
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float4 a_lo = *reinterpret_cast<const float4*>(&as[buf][kk][ty * 4]);
      const float4 a_hi = *reinterpret_cast<const float4*>(&as[buf][kk][64 + ty * 4]);
      const float4 b_lo = *reinterpret_cast<const float4*>(&bs[buf][kk][tx * 4]);
      const float4 b_hi = *reinterpret_cast<const float4*>(&bs[buf][kk][64 + tx * 4]);
      const float av[8] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
      const float bv[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
      for (int i = 0; i < 8; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
      }
    }
    if (t + 1 < tiles) store_shared(buf ^ 1);
    __syncthreads();  // the next tile is complete, and this one is free
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = bm + (i < 4 ? 0 : 64) + ty * 4 + (i & 3);
    if (row >= m) continue;
    float* c_row = c + static_cast<long long>(row) * n;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = bn + h * 64 + tx * 4;
      if constexpr (kVec) {
        if (col < n) {
          *reinterpret_cast<float4*>(c_row + col) =
              make_float4(acc[i][h * 4 + 0], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]);
        }
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (col + j < n) c_row[col + j] = acc[i][h * 4 + j];
        }
      }
    }
  }
}

}  // namespace

void blocktile_2d_vec4(const Args& args, cudaStream_t stream) {
  check_sizes(args);
  const dim3 grid(ceil_div(args.n, kBN), ceil_div(args.m, kBM));
  if (args.k % 4 == 0 && args.n % 4 == 0) {
    blocktile_kernel<true><<<grid, kThreads, 0, stream>>>(args.a, args.b, args.c, args.m, args.n, args.k);
  } else {
    blocktile_kernel<false><<<grid, kThreads, 0, stream>>>(args.a, args.b, args.c, args.m, args.n, args.k);
  }
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::matmul
