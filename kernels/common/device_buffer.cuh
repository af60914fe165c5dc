#pragma once
// Owning, typed device allocation: device memory (never managed memory: timings must not include page
// migration), taken from the device's stream-ordered pool. Where the benchmark program keeps freed memory
// in that pool (keep_freed_device_memory(), as gpuperf_bench does), a case's buffers reuse what earlier
// cases freed, and the driver does no reclaiming between cases that could slow the next one down
// (perf_tests/harness/sampler.cu says what it cost). Elsewhere the pool hands memory back as cudaFree
// does; a device without pools gets cudaMalloc's memory. Every address is at least 256-byte aligned, as
// any CUDA allocation's.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/cuda_check.cuh"

namespace gpuperf {

// Whether the device this process uses has stream-ordered memory pools; some platforms do not (some
// virtualised GPUs), and there every buffer is cudaMalloc's, as before the pool. Asked once: a process of
// the harness uses one device.
inline bool device_has_memory_pools() {
  static const bool supported = [] {
    int device = 0, value = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return false;
    return cudaDeviceGetAttribute(&value, cudaDevAttrMemoryPoolsSupported, device) == cudaSuccess && value != 0;
  }();
  return supported;
}

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // Ready for any stream when it returns, as cudaMalloc's memory is.
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ == 0) return;
    if (!device_has_memory_pools()) {
      GPUPERF_CUDA_CHECK(cudaMalloc(&data_, bytes()));
      return;
    }
    GPUPERF_CUDA_CHECK(cudaMallocAsync(&data_, bytes(), cudaStreamLegacy));
    GPUPERF_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  }
  // As cudaFree does, waits for all work on the device first: a kernel still running on any stream may be
  // using the buffer.
  ~DeviceBuffer() {
    if (data_ == nullptr) return;
    if (!device_has_memory_pools()) {
      GPUPERF_CUDA_CHECK_NOTHROW(cudaFree(data_));
      return;
    }
    GPUPERF_CUDA_CHECK_NOTHROW(cudaDeviceSynchronize());
    GPUPERF_CUDA_CHECK_NOTHROW(cudaFreeAsync(data_, cudaStreamLegacy));
    GPUPERF_CUDA_CHECK_NOTHROW(cudaStreamSynchronize(cudaStreamLegacy));
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    if (count_ > 0) GPUPERF_CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  void from_host(const std::vector<T>& host) {
    if (host.size() != count_) throw std::invalid_argument("DeviceBuffer::from_host: size mismatch");
    if (count_ > 0) GPUPERF_CUDA_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Freed buffers stay in the current device's pool for later ones, instead of going back to the driver
// at the next synchronisation. Once per process, before the first case (the benchmark program).
inline void keep_freed_device_memory() {
  if (!device_has_memory_pools()) return;
  int device = 0;
  GPUPERF_CUDA_CHECK(cudaGetDevice(&device));
  cudaMemPool_t pool = nullptr;
  GPUPERF_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t keep_all = UINT64_MAX;
  GPUPERF_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
}

}  // namespace gpuperf
