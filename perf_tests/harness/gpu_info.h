#pragma once
// Which GPU this process runs on: the facts a baseline is keyed by and a report must name.

#include <optional>
#include <string>

#include "formats/gpu_identity.h"

namespace gpuperf {

// Its identity (the uuid is also the run lock's key), and what the harness needs besides.
struct GpuInfo : formats::GpuIdentity {
  long l2_bytes = 0;  // [bytes]
};

// formats::gpu_slug (formats/names.h): "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3".
std::string gpu_slug(const std::string& name);

// The current device, or nullopt with `why` set when there is no usable CUDA device.
std::optional<GpuInfo> query_gpu(std::string& why);

}  // namespace gpuperf
