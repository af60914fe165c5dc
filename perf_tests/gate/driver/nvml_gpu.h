#pragma once
// The GPU a team's suite runs on, as the driver identifies it: a Google Benchmark binary writes no GPU into
// its results, so the driver asks NVML (libnvidia-ml.so.1, loaded at run time: the gate links no CUDA).
// The device is the one CUDA will show the suite first: CUDA_VISIBLE_DEVICES's first entry, else device 0.
// An entry is read as CUDA reads it: an index; a GPU's UUID "GPU-..." or a prefix of it that only one
// GPU's UUID begins with (two: an error); a MIG device, "MIG-<uuid>" or "MIG-GPU-<uuid>/<gi>/<ci>",
// whose GPU (its parent, by NVML's MIG calls or by the UUID it names) is the one identified. NVML numbers devices in PCI order, CUDA by default fastest first
// (CUDA_DEVICE_ORDER=FASTEST_FIRST): on a host of mixed GPUs give CUDA_VISIBLE_DEVICES a UUID.
//
// For tests only: GPUPERF_TEST_GPU_IDENTITY names a JSON file that stands in for NVML on a machine
// without a GPU: {"name": ..., "uuid": ..., "slug": ... (optional, else made from the name), "driver": ...
// (optional), "memory_mib": ... (optional, NVML's total)}, or {"none": "why"} for a machine without one.

#include <optional>
#include <string>
#include <vector>

#include "formats/gpu_identity.h"

namespace gpuperf::gate::driver {

inline constexpr const char* kTestGpuIdentityVariable = "GPUPERF_TEST_GPU_IDENTITY";

// The GPU: its name, UUID, slug (formats gpu_slug()), driver version and compute capability where NVML
// says. nullopt where there is none to run on, `why_none` saying why ("libnvidia-ml.so.1 not found", "no
// device visible"). formats::InputError for a test identity file that cannot be read, or a name or slug
// that breaks the name rule.
std::optional<formats::GpuIdentity> identify_gpu(std::string& why_none);

// CUDA_VISIBLE_DEVICES's first entry, read (visible: the variable's value, nullptr where unset).
struct VisibleDevice {
  enum class Kind { kIndex, kGpuUuid, kMigUuid, kNone };
  Kind kind = Kind::kIndex;
  long index = 0;    // kIndex
  std::string uuid;  // kGpuUuid: "GPU-..." (whole, or a prefix); kMigUuid: "MIG-..." as NVML takes it, or the
                     // parent's "GPU-..." where the entry is MIG-GPU-<uuid>/<gi>/<ci>
  std::string why;   // kNone: why CUDA shows no device
};
VisibleDevice parse_visible_device(const char* visible);

// The one UUID of `uuids` that begins with `prefix`; "" and `error` set where none or several do.
std::string match_uuid_prefix(const std::string& prefix, const std::vector<std::string>& uuids, std::string& error);

// The test identity file's text read as above; `source` names it. InputError where it is neither form.
std::optional<formats::GpuIdentity> parse_test_gpu_identity(const std::string& text, const std::string& source,
                                                            std::string& why_none);

}  // namespace gpuperf::gate::driver
