// Input of cubin_sass_test.cpp, compiled to a cubin for sm_90 when the test is built (CMakeLists.txt):
// two kernels that differ in what the test can see. reverse_tile stages a tile through static shared
// memory; sum_of_products keeps 32 loaded values live at once, so it needs more registers. The test
// finds them by their mangled names: change a signature here, change the test.

constexpr int kTile = 128;  // [floats] per block

__global__ void reverse_tile(float* out, const float* in) {
  __shared__ float tile[kTile];
  const int base = blockIdx.x * kTile;
  tile[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[kTile - 1 - threadIdx.x];
}

__global__ void sum_of_products(float* out, const float* a, const float* b, int stride) {
  constexpr int kTerms = 32;
  float x[kTerms];
  float y[kTerms];
#pragma unroll
  for (int i = 0; i < kTerms; ++i) {
    x[i] = a[i * stride + threadIdx.x];
    y[i] = b[i * stride + threadIdx.x];
  }
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < kTerms; ++i) sum += x[i] * y[kTerms - 1 - i];
  out[threadIdx.x] = sum;
}
