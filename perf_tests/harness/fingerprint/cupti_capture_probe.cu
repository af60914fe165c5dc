// LaunchCapture checked on a GPU, by hand (not a CTest test: it needs a GPU and CUPTI to itself).
// Two kernels of its own are captured, the first launched twice with a cudaMemset between the two launches;
// the fingerprint must hold exactly two kernel entries (a memset is no kernel, so the two launches merge),
// each with a SASS hash and the static shared memory, stack frame and registers that cudaFuncGetAttributes
// gives, and exactly one copy entry: the memset, of its size, after the first launch (after_launches 1).
// The cudaMemset before begin() must not be in it.
//   cmake --build <build> --target cupti_capture_probe
//   <build>/perf_tests/harness/fingerprint/cupti_capture_probe
// Exit codes: 0 as expected, 1 not (each difference printed), 2 could not run (no GPU, no CUPTI, CUDA error).

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "harness/fingerprint/cupti_capture.h"

namespace fp = gpuperf::fingerprint;
namespace fmt = gpuperf::formats;

constexpr int kPass = 0;
constexpr int kFail = 1;
constexpr int kCannotRun = 2;

constexpr int kSharedFloats = 100;        // 400 bytes of static shared memory
constexpr int kDynamicSharedBytes = 256;  // [bytes], 64 floats
constexpr int kLocalFloats = 64;          // indexed at run time, so the array lives in the stack frame
constexpr int kBlocks = 2;
constexpr int kThreads = 128;

__global__ void shared_array_kernel(float* data) {
  __shared__ float tile[kSharedFloats];
  extern __shared__ float dynamic[];
  if (threadIdx.x < kSharedFloats) tile[threadIdx.x] = data[threadIdx.x];
  if (threadIdx.x < kDynamicSharedBytes / sizeof(float)) dynamic[threadIdx.x] = 2.0f * data[threadIdx.x];
  __syncthreads();
  data[blockIdx.x * blockDim.x + threadIdx.x] =
      tile[(threadIdx.x * 7) % kSharedFloats] + dynamic[threadIdx.x % (kDynamicSharedBytes / sizeof(float))];
}

__global__ void local_array_kernel(float* data, int shift) {
  float values[kLocalFloats];
  for (int i = 0; i < kLocalFloats; ++i) values[i] = data[i] * static_cast<float>(i + shift);
  data[threadIdx.x] = values[(threadIdx.x * 13 + shift) % kLocalFloats];
}

namespace {

bool cuda_ok(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return true;
  std::printf("cupti_capture_probe: %s: %s: %s\n", call, cudaGetErrorName(status), cudaGetErrorString(status));
  return false;
}

// Counts and prints each check that fails.
class Checks {
 public:
  void expect(bool ok, const std::string& what) {
    if (ok) return;
    std::printf("FAIL: %s\n", what.c_str());
    ++failures_;
  }
  void expect_equal(long long actual, long long expected, const std::string& what) {
    expect(actual == expected, what + ": " + std::to_string(actual) + ", expected " + std::to_string(expected));
  }
  bool passed() const { return failures_ == 0; }

 private:
  int failures_ = 0;
};

void check_kernel(Checks& checks, const fmt::KernelLaunch& launch, const char* name, int launches, int grid,
                  int dynamic_shared_bytes, const cudaFuncAttributes& attributes) {
  const std::string at = std::string(name) + ": ";
  checks.expect(launch.mangled_name.find(name) != std::string::npos, at + "mangled name " + launch.mangled_name);
  checks.expect_equal(launch.launches, launches, at + "launches");
  checks.expect_equal(launch.grid[0], grid, at + "grid.x");
  checks.expect_equal(launch.block[0], kThreads, at + "block.x");
  checks.expect_equal(launch.dynamic_shared_memory_bytes, dynamic_shared_bytes, at + "dynamic shared memory");
  checks.expect_equal(launch.static_shared_memory_bytes, static_cast<long long>(attributes.sharedSizeBytes),
                      at + "static shared memory (cudaFuncGetAttributes sharedSizeBytes)");
  checks.expect_equal(launch.local_memory_per_thread_bytes, static_cast<long long>(attributes.localSizeBytes),
                      at + "stack frame (cudaFuncGetAttributes localSizeBytes)");
  checks.expect_equal(launch.registers_per_thread, attributes.numRegs,
                      at + "registers (cudaFuncGetAttributes numRegs)");
  checks.expect(!launch.sass_hash.empty(), at + "no SASS hash: the module's cubin was not seen");
}

}  // namespace

int main() {
  // Before any CUDA call, so that the module-load callback sees this program's module.
  fp::LaunchCapture& capture = fp::LaunchCapture::instance();
  if (!capture.available()) {
    std::printf("cupti_capture_probe: cannot run: %s\n", capture.status().c_str());
    return kCannotRun;
  }
  cudaFuncAttributes shared_attributes{};
  cudaFuncAttributes local_attributes{};
  float* data = nullptr;
  constexpr std::size_t kDataBytes = kBlocks * kThreads * sizeof(float);
  if (!cuda_ok(cudaFuncGetAttributes(&shared_attributes, shared_array_kernel), "cudaFuncGetAttributes") ||
      !cuda_ok(cudaFuncGetAttributes(&local_attributes, local_array_kernel), "cudaFuncGetAttributes") ||
      !cuda_ok(cudaMalloc(&data, kDataBytes), "cudaMalloc") ||
      !cuda_ok(cudaMemset(data, 0, kDataBytes), "cudaMemset")) {
    return kCannotRun;
  }

  capture.set_libraries({{"cupti_capture_probe", "1"}});
  capture.begin();
  shared_array_kernel<<<kBlocks, kThreads, kDynamicSharedBytes>>>(data);
  const cudaError_t memset = cudaMemset(data, 0, kDataBytes);
  shared_array_kernel<<<kBlocks, kThreads, kDynamicSharedBytes>>>(data);
  local_array_kernel<<<1, kThreads>>>(data, 3);
  const cudaError_t launched = cudaGetLastError();
  const fmt::Fingerprint fingerprint = capture.end();
  std::printf("%s\n", fmt::to_text(fingerprint).c_str());
  if (!cuda_ok(memset, "cudaMemset") || !cuda_ok(launched, "kernel launch") || !cuda_ok(cudaFree(data), "cudaFree")) {
    return kCannotRun;
  }

  Checks checks;
  // Without a stack frame the second kernel would not test where local memory is read from.
  checks.expect(local_attributes.localSizeBytes > 0, "local_array_kernel has no stack frame: fix the probe");
  checks.expect(fingerprint.capture_status == fmt::kCapturedByCupti, "capture_status " + fingerprint.capture_status);
  checks.expect(fingerprint.libraries.count("cupti_capture_probe") == 1, "libraries not carried over");
  checks.expect_equal(static_cast<long long>(fingerprint.kernels.size()), 2, "kernel entries");
  if (fingerprint.kernels.size() == 2) {
    check_kernel(checks, fingerprint.kernels[0], "shared_array_kernel", 2, kBlocks, kDynamicSharedBytes,
                 shared_attributes);
    check_kernel(checks, fingerprint.kernels[1], "local_array_kernel", 1, 1, 0, local_attributes);
  }
  checks.expect(fingerprint.covers_copies, "covers_copies is false: copies and sets were not captured");
  checks.expect_equal(static_cast<long long>(fingerprint.copies.size()), 1, "copy entries (the one memset)");
  if (fingerprint.copies.size() == 1) {
    const gpuperf::formats::CopyOrSet& set = fingerprint.copies[0];
    checks.expect(set.kind == "memset", "copies[0].kind " + set.kind + ", expected memset");
    checks.expect_equal(set.bytes, static_cast<long long>(kDataBytes), "copies[0].bytes");
    checks.expect_equal(set.after_launches, 1, "copies[0].after_launches (between the two launches)");
    checks.expect_equal(set.count, 1, "copies[0].count");
  }
  std::printf("cupti_capture_probe: %s\n", checks.passed() ? "PASS" : "FAIL");
  return checks.passed() ? kPass : kFail;
}
