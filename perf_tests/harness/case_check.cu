#include "harness/case_check.h"

#include "common/cuda_check.cuh"

namespace gpuperf {

CheckResult run_checked(Instance& instance, std::uint64_t seed, cudaStream_t stream, Verify verify,
                        const std::function<void(cudaStream_t)>& then_run) {
  const char* step = "generate";
  try {
    instance.generate(seed);
    step = "poison";
    instance.poison();
    GPUPERF_CUDA_CHECK(cudaDeviceSynchronize());
    step = "run";
    instance.run(stream);
    GPUPERF_CHECK_LAUNCH();
    GPUPERF_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (then_run) {
      step = "repeated run";
      then_run(stream);
      GPUPERF_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    if (verify == Verify::kNo) return CheckResult::pass();
    step = "verify";
    CheckResult result = instance.verify();
    if (!result.ok) result.message = "wrong result (seed " + std::to_string(seed) + "): " + result.message;
    return result;
  } catch (const std::exception& e) {
    return CheckResult::fail(std::string("failed in ") + step + " (seed " + std::to_string(seed) + "): " + e.what());
  }
}

}  // namespace gpuperf
