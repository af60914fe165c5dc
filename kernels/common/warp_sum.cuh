#pragma once
// The sum of one value per lane over a full warp, in every lane. From sm_80 on, one redux.sync
// instruction (__reduce_add_sync); on older architectures, which the build also compiles for, five
// butterfly shuffles give the same result.

namespace gpuperf {

template <typename T>
__device__ __forceinline__ T warp_sum(T value) {
  static_assert(sizeof(T) == 4, "redux.sync adds 32-bit integers");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, value);
#else
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
#endif
}

}  // namespace gpuperf
