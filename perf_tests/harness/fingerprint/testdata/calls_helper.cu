// Input of cubin_sass_test.cpp, compiled with relocatable device code (-rdc=true) to a cubin for sm_90
// (CMakeLists.txt): there helper() keeps a section of its own instead of being copied into the kernel,
// and the kernel's hash must cover it through .nv.callgraph.

__device__ __noinline__ float helper(float x, int rounds) {
  for (int i = 0; i < rounds; ++i) x = x * 1.5f + 2.0f;
  return x;
}

__global__ void calls_helper(float* out, int rounds) { out[threadIdx.x] = helper(out[threadIdx.x], rounds); }
