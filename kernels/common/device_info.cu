#include "common/device_info.h"

#include "common/cuda_check.cuh"

namespace gpuperf {

int device_sm_count() {
  static const int count = [] {
    int device = 0;
    int sms = 0;
    GPUPERF_CUDA_CHECK(cudaGetDevice(&device));
    GPUPERF_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
  }();
  return count;
}

}  // namespace gpuperf
