#pragma once
// The GPU a team's suite runs on, as the driver identifies it: a Google Benchmark binary writes no GPU into
// its results, so the driver asks NVML (libnvidia-ml.so.1, loaded at run time: the gate links no CUDA).
// The device is the one CUDA will show the suite first: CUDA_VISIBLE_DEVICES's first entry (a UUID
// "GPU-...", or an index), else device 0. NVML numbers devices in PCI order, CUDA by default fastest first
// (CUDA_DEVICE_ORDER=FASTEST_FIRST): on a host of mixed GPUs give CUDA_VISIBLE_DEVICES a UUID.
//
// For tests only: GPUPERF_TEST_GPU_IDENTITY names a JSON file that stands in for NVML on a machine
// without a GPU: {"name": ..., "uuid": ..., "slug": ... (optional, else made from the name), "driver": ...
// (optional)}, or {"none": "why"} for a machine without one.

#include <optional>
#include <string>

#include "formats/gpu_identity.h"

namespace gpuperf::gate::driver {

inline constexpr const char* kTestGpuIdentityVariable = "GPUPERF_TEST_GPU_IDENTITY";

// The GPU: its name, UUID, slug (formats gpu_slug()), driver version and compute capability where NVML
// says. nullopt where there is none to run on, `why_none` saying why ("libnvidia-ml.so.1 not found", "no
// device visible"). formats::InputError for a test identity file that cannot be read, or a name or slug
// that breaks the name rule.
std::optional<formats::GpuIdentity> identify_gpu(std::string& why_none);

// The test identity file's text read as above; `source` names it. InputError where it is neither form.
std::optional<formats::GpuIdentity> parse_test_gpu_identity(const std::string& text, const std::string& source,
                                                            std::string& why_none);

}  // namespace gpuperf::gate::driver
