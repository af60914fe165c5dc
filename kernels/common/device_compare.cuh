#pragma once
// Reference checks on the GPU, for outputs too large to bring to the host quickly (common/check_side.h
// says which). A family writes its reference expression once, as a __host__ __device__ functor
// expected(i), and hands it host copies of the inputs for the host comparison (expected_values() and
// common/compare.h), device pointers for these.
//
// A GPU comparison reports what the host one does, with one mismatch shown (the lowest index) rather than
// five. correctness.harness (perf_tests/harness/device_compare_test.cu) checks that both sides agree on
// the same data: counts, first index, NaN and poisoned elements.

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include "common/check_side.h"
#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/mismatches.h"
#include "common/registry.h"

namespace gpuperf {

// expected(i) for i in [0, n) on the host, for the host comparisons of common/compare.h.
template <typename Expected>
std::vector<double> expected_values(const Expected& expected, std::int64_t n) {
  std::vector<double> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = expected(i);
  return values;
}

namespace device_compare {

// |actual - expected| <= abs_tol + rel_tol * |expected|, false for NaN (as common/compare.h's).
struct Close {
  double abs_tol;
  double rel_tol;
  __device__ bool operator()(double expected, double actual) const {
    return fabs(actual - expected) <= abs_tol + rel_tol * fabs(expected);
  }
};

// The same bits: copies and transposes move words, they compute nothing.
template <typename T>
struct SameBits {
  static_assert(sizeof(T) == sizeof(unsigned) || sizeof(T) == sizeof(unsigned long long), "words of 4 or 8 bytes");
  using Bits = std::conditional_t<sizeof(T) == sizeof(unsigned), unsigned, unsigned long long>;
  __device__ bool operator()(T expected, T actual) const {
    Bits e;
    Bits a;
    memcpy(&e, &expected, sizeof e);
    memcpy(&a, &actual, sizeof a);
    return e == a;
  }
};

template <typename Expected, typename T, typename Accept>
__global__ void count_mismatches(Expected expected, const T* actual, std::int64_t n, Accept accept, Mismatches* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    if (accept(expected(i), actual[i])) continue;
    atomicAdd(&out->count, 1ull);
    atomicMin(&out->first, static_cast<unsigned long long>(i));
  }
}

template <typename Expected, typename T>
__global__ void read_first_mismatch(Expected expected, const T* actual, Mismatches* out) {
  if (out->count == 0) return;
  out->expected = static_cast<double>(expected(static_cast<std::int64_t>(out->first)));
  out->actual = static_cast<double>(actual[out->first]);
}

template <typename Expected, typename T, typename Accept>
Mismatches find(const Expected& expected, const T* actual, std::int64_t n, Accept accept) {
  DeviceBuffer<Mismatches> found(1);
  const Mismatches none{0, static_cast<unsigned long long>(n), 0.0, 0.0};
  GPUPERF_CUDA_CHECK(cudaMemcpy(found.get(), &none, sizeof none, cudaMemcpyHostToDevice));
  if (n > 0) {
    constexpr int kThreads = 256;
    constexpr std::int64_t kMaxBlocks = 8192;
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(kMaxBlocks, (n + kThreads - 1) / kThreads));
    count_mismatches<<<blocks, kThreads>>>(expected, actual, n, accept, found.get());
    GPUPERF_CHECK_LAUNCH();
    read_first_mismatch<<<1, 1>>>(expected, actual, found.get());
    GPUPERF_CHECK_LAUNCH();
  }
  return found.to_host()[0];  // synchronises
}

}  // namespace device_compare

// Element i of the n-element device array `actual` passes when it is within abs_tol + rel_tol *
// |expected(i)| of expected(i), evaluated on the GPU (expected: a __host__ __device__ functor reading
// device pointers). NaN never passes. Synchronises the device.
template <typename Expected, typename T>
CheckResult compare_close_on_device(const Expected& expected, const T* actual, std::int64_t n, double abs_tol,
                                    double rel_tol) {
  const auto found = device_compare::find(expected, actual, n, device_compare::Close{abs_tol, rel_tol});
  return describe_gpu_mismatches(found, n, tolerance_words(abs_tol, rel_tol));
}

// Element i of `actual` passes when its bits equal those of expected(i) (of type T). Synchronises.
template <typename Expected, typename T>
CheckResult compare_equal_on_device(const Expected& expected, const T* actual, std::int64_t n) {
  const auto found = device_compare::find(expected, actual, n, device_compare::SameBits<T>{});
  return describe_gpu_mismatches(found, n, "differ");
}

}  // namespace gpuperf
