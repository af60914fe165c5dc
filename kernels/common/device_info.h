#pragma once
// Properties of the current device that launch configurations depend on, read once per process.

#include <string>

#include "common/registry.h"

namespace gpuperf {

int device_sm_count();

// The current device's figures for Requirements (common/registry.h).
DeviceCapabilities device_capabilities();

// Empty when this build holds code the current device can run; else what to do about it. The build's
// architectures are CMAKE_CUDA_ARCHITECTURES as configured.
std::string missing_kernel_image();

// The message for a GPU of compute capability `cc` (major x 10 + minor) that no built architecture serves.
std::string no_kernel_image_message(int cc, const std::string& built_for);

}  // namespace gpuperf
