#pragma once
// The results' context: the strings the benchmark binary adds to Google Benchmark's JSON "context"
// (benchmark::AddCustomContext) and the gate reads back. The keys are named here once, and the GPU's
// identity is written and read by the pair of functions below, so that writer and reader cannot drift.

#include <string>
#include <utility>
#include <vector>

#include "formats/gpu_identity.h"
#include "formats/json_fields.h"

namespace gpuperf::formats {

// The GPU (gpu_identity.h). Counts are written as decimal text ("132"), as every context value is a string.
inline constexpr const char* kContextGpuName = "gpu_name";
inline constexpr const char* kContextGpuSlug = "gpu_slug";
inline constexpr const char* kContextGpuUuid = "gpu_uuid";
inline constexpr const char* kContextGpuComputeCapability = "gpu_compute_capability";
inline constexpr const char* kContextGpuSmCount = "gpu_sm_count";
inline constexpr const char* kContextGpuMemoryMib = "gpu_memory_mib";  // [MiB]
inline constexpr const char* kContextDriverVersion = "driver_version";
inline constexpr const char* kContextCudaRuntime = "cuda_runtime";
// The rest of what the binary says about the run.
inline constexpr const char* kContextGpuL2Bytes = "gpu_l2_bytes";        // [bytes]
inline constexpr const char* kContextHardwareGuard = "hardware_guard";   // "nvml", else "off: <why>"
inline constexpr const char* kContextReferenceCheck = "reference_check";  // "on" or "off"
inline constexpr const char* kContextHarnessVersion = "harness_version";  // formats/version.h
inline constexpr const char* kContextGitCommit = "git_commit";            // $GPUPERF_GIT_COMMIT, when set
inline constexpr const char* kContextMeasuringMethod = "measuring_method";  // formats/measuring_method.h, "2"

using ContextEntries = std::vector<std::pair<std::string, std::string>>;  // key, value, in writing order

// The entries of `gpu`, in the order above; an unknown count is written as "".
ContextEntries gpu_context_entries(const GpuIdentity& gpu);

// A context value as text: "" when absent or null; a number (another writer's) is read as its JSON text.
// InputError (the reader's) for any other type.
std::string context_value(const ObjectReader& context, const char* key);

// The entry that says how the perf binary measured: kMeasuringMethodVersion, as decimal text.
std::pair<std::string, std::string> measuring_method_context_entry();

// The measuring method a context of our perf binary names: kMeasuringMethodUnrecorded when it says none (a
// file written before the method was versioned). InputError (the reader's) for anything but a positive
// whole number, as text ("2") or as a JSON integer.
int measuring_method_from_context(const ObjectReader& context);

// The GPU a context names: what gpu_context_entries wrote. A count that is not a whole number reads as
// unknown; names are not checked here (the caller holds them to formats/names.h).
GpuIdentity gpu_identity_from_context(const ObjectReader& context);

}  // namespace gpuperf::formats
