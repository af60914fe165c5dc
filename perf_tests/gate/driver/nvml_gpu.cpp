#include "gate/driver/nvml_gpu.h"

#include <dlfcn.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"

namespace gpuperf::gate::driver {
namespace {

// NVML's C API (nvml.h), the few calls made here; nvmlDevice_t is an opaque pointer.
constexpr int kNvmlSuccess = 0;
constexpr unsigned kNameBufferSize = 96;   // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kTextBufferSize = 96;   // above NVML_DEVICE_UUID_V2_BUFFER_SIZE and the driver version's 80
struct NvmlMemory {                        // nvmlMemory_t [bytes]
  unsigned long long total, free, used;
};
using InitFn = int (*)();
using ShutdownFn = int (*)();
using CountFn = int (*)(unsigned*);
using ByIndexFn = int (*)(unsigned, void**);
using ByUuidFn = int (*)(const char*, void**);
using DeviceTextFn = int (*)(void*, char*, unsigned);
using DriverVersionFn = int (*)(char*, unsigned);
using CapabilityFn = int (*)(void*, int*, int*);
using MemoryFn = int (*)(void*, NvmlMemory*);
using ParentFn = int (*)(void*, void**);  // nvmlDeviceGetDeviceHandleFromMigDeviceHandle

template <typename F>
bool bind(void* library, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(library, name));
  return fn != nullptr;
}

// The library stays loaded for the process: closing it would unload what NVML's init set up.
class NvmlLibrary {
 public:
  explicit NvmlLibrary(std::string& why_not) {
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      why_not = "libnvidia-ml.so.1 not found (no NVIDIA driver on this machine?)";
      return;
    }
    ok_ = bind(library, "nvmlInit_v2", init) && bind(library, "nvmlShutdown", shutdown) &&
          bind(library, "nvmlDeviceGetCount_v2", count) && bind(library, "nvmlDeviceGetHandleByIndex_v2", by_index) &&
          bind(library, "nvmlDeviceGetHandleByUUID", by_uuid) && bind(library, "nvmlDeviceGetName", name) &&
          bind(library, "nvmlDeviceGetUUID", uuid) && bind(library, "nvmlSystemGetDriverVersion", driver) &&
          bind(library, "nvmlDeviceGetCudaComputeCapability", capability) &&
          bind(library, "nvmlDeviceGetMemoryInfo", memory);
    if (!ok_) why_not = "libnvidia-ml.so.1 lacks a needed function (driver too old?)";
    bind(library, "nvmlDeviceGetDeviceHandleFromMigDeviceHandle", mig_parent);  // MIG drivers only (R450+)
  }
  bool ok() const { return ok_; }

  InitFn init = nullptr;
  ShutdownFn shutdown = nullptr;
  CountFn count = nullptr;
  ByIndexFn by_index = nullptr;
  ByUuidFn by_uuid = nullptr;
  DeviceTextFn name = nullptr;
  DeviceTextFn uuid = nullptr;
  DriverVersionFn driver = nullptr;
  CapabilityFn capability = nullptr;
  MemoryFn memory = nullptr;
  ParentFn mig_parent = nullptr;  // nullptr where the driver has no MIG

 private:
  bool ok_ = false;
};

// Every GPU's UUID, in NVML's order.
std::vector<std::string> nvml_uuids(const NvmlLibrary& nvml) {
  std::vector<std::string> uuids;
  unsigned count = 0;
  if (nvml.count(&count) != kNvmlSuccess) return uuids;
  for (unsigned i = 0; i < count; ++i) {
    void* device = nullptr;
    char uuid[kTextBufferSize] = {};
    if (nvml.by_index(i, &device) == kNvmlSuccess && nvml.uuid(device, uuid, sizeof uuid) == kNvmlSuccess) {
      uuids.emplace_back(uuid);
    }
  }
  return uuids;
}

// The device CUDA shows first, or nullptr with `why_not`. InputError for a UUID prefix two GPUs share.
void* first_visible_device(const NvmlLibrary& nvml, std::string& why_not) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const VisibleDevice first = parse_visible_device(visible);
  void* device = nullptr;
  switch (first.kind) {
    case VisibleDevice::Kind::kNone:
      why_not = first.why;
      return nullptr;
    case VisibleDevice::Kind::kMigUuid: {
      void* mig = nullptr;
      if (nvml.mig_parent == nullptr) {
        why_not = "CUDA_VISIBLE_DEVICES names the MIG device " + first.uuid +
                  ", and this NVML has no MIG calls: give the GPU's UUID (nvidia-smi -L)";
      } else if (nvml.by_uuid(first.uuid.c_str(), &mig) != kNvmlSuccess ||
                 nvml.mig_parent(mig, &device) != kNvmlSuccess) {
        why_not = "NVML does not know CUDA_VISIBLE_DEVICES's MIG device " + first.uuid + " (nvidia-smi -L lists them)";
        device = nullptr;
      }
      return device;
    }
    case VisibleDevice::Kind::kGpuUuid: {
      std::string error;
      const std::string uuid = match_uuid_prefix(first.uuid, nvml_uuids(nvml), error);
      if (uuid.empty() && error.find("several") != std::string::npos) throw formats::InputError(error);
      if (!uuid.empty() && nvml.by_uuid(uuid.c_str(), &device) == kNvmlSuccess) return device;
      why_not = uuid.empty() ? error : "NVML cannot open device " + uuid;
      return nullptr;
    }
    case VisibleDevice::Kind::kIndex:
      break;
  }
  unsigned count = 0;
  if (nvml.count(&count) != kNvmlSuccess || static_cast<unsigned long>(first.index) >= count) {
    why_not = visible == nullptr ? "NVML sees no device" : "no device visible (CUDA_VISIBLE_DEVICES=" + std::string(visible) + ")";
    return nullptr;
  }
  if (nvml.by_index(static_cast<unsigned>(first.index), &device) == kNvmlSuccess) return device;
  why_not = "NVML cannot open device " + std::to_string(first.index);
  return nullptr;
}

// The name and slug held to the name rule: the slug names the baseline file.
formats::GpuIdentity checked(formats::GpuIdentity gpu, const std::string& source) {
  if (gpu.slug.empty()) gpu.slug = formats::gpu_slug(gpu.name);
  for (const auto& [kind, value] :
       {std::pair{formats::NameKind::kGpu, gpu.name}, std::pair{formats::NameKind::kGpuSlug, gpu.slug}}) {
    if (const std::string error = formats::name_error(kind, value); !error.empty()) {
      throw formats::InputError(source + ": the GPU: " + error);
    }
  }
  return gpu;
}

std::optional<formats::GpuIdentity> read_nvml(std::string& why_none) {
  static const NvmlLibrary nvml(why_none);
  if (!nvml.ok()) {
    if (why_none.empty()) why_none = "libnvidia-ml.so.1 could not be used";
    return std::nullopt;
  }
  if (nvml.init() != kNvmlSuccess) {
    why_none = "nvmlInit failed";
    return std::nullopt;
  }
  std::optional<formats::GpuIdentity> gpu;
  if (void* device = first_visible_device(nvml, why_none); device != nullptr) {
    char name[kNameBufferSize] = {}, uuid[kTextBufferSize] = {}, driver[kTextBufferSize] = {};
    int major = 0, minor = 0;
    NvmlMemory memory{};
    if (nvml.name(device, name, sizeof name) != kNvmlSuccess || nvml.uuid(device, uuid, sizeof uuid) != kNvmlSuccess) {
      why_none = "NVML cannot read the device's name or UUID";
    } else {
      gpu = formats::GpuIdentity{};
      gpu->name = name;
      gpu->uuid = uuid;
      if (nvml.driver(driver, sizeof driver) == kNvmlSuccess) gpu->driver = driver;
      if (nvml.capability(device, &major, &minor) == kNvmlSuccess) {
        gpu->compute_capability = std::to_string(major) + "." + std::to_string(minor);
      }
      if (nvml.memory(device, &memory) == kNvmlSuccess) gpu->memory_mib = static_cast<long long>(memory.total >> 20);
    }
  }
  nvml.shutdown();
  if (!gpu) return std::nullopt;
  return checked(*gpu, "NVML");
}

}  // namespace

VisibleDevice parse_visible_device(const char* visible) {
  VisibleDevice device;
  if (visible == nullptr) return device;  // device 0
  std::string first = std::string(visible).substr(0, std::string(visible).find(','));
  // CUDA ignores spaces around an entry.
  first.erase(0, first.find_first_not_of(" \t"));
  first.erase(first.find_last_not_of(" \t") + 1);
  const auto none = [&](const std::string& why) {
    device.kind = VisibleDevice::Kind::kNone;
    device.why = why + " (CUDA_VISIBLE_DEVICES=" + std::string(visible) + ")";
    return device;
  };
  if (first.rfind("MIG-GPU-", 0) == 0) {  // MIG-GPU-<uuid>/<gi>/<ci>, drivers before R470: its GPU named
    device.kind = VisibleDevice::Kind::kGpuUuid;
    device.uuid = first.substr(4, first.find('/') - 4);
    return device;
  }
  if (first.rfind("MIG-", 0) == 0) {
    device.kind = first.size() > 4 ? VisibleDevice::Kind::kMigUuid : VisibleDevice::Kind::kNone;
    device.uuid = first;
    return first.size() > 4 ? device : none("no device visible: an empty MIG UUID");
  }
  if (first.rfind("GPU-", 0) == 0) {
    if (first.size() == 4) return none("no device visible: an empty GPU UUID");
    device.kind = VisibleDevice::Kind::kGpuUuid;
    device.uuid = first;
    return device;
  }
  char* end = nullptr;
  const long index = first.empty() ? -1 : std::strtol(first.c_str(), &end, 10);
  if (index < 0 || *end != '\0') return none("no device visible");
  device.index = index;
  return device;
}

std::string match_uuid_prefix(const std::string& prefix, const std::vector<std::string>& uuids, std::string& error) {
  std::vector<std::string> matches;
  for (const std::string& uuid : uuids) {
    if (uuid.rfind(prefix, 0) == 0) matches.push_back(uuid);
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) {
    error = "no GPU's UUID begins with CUDA_VISIBLE_DEVICES's " + prefix + " (nvidia-smi -L lists them)";
  } else {
    error = "CUDA_VISIBLE_DEVICES's " + prefix + " begins the UUIDs of several GPUs (" + matches[0] + ", " +
            matches[1] + "): give more of the UUID";
  }
  return "";
}

std::optional<formats::GpuIdentity> parse_test_gpu_identity(const std::string& text, const std::string& source,
                                                            std::string& why_none) {
  const nlohmann::json json = formats::parse_json_document(text, source);
  const formats::ObjectReader doc(json, source, "",
                                  std::string("a test GPU identity (") + kTestGpuIdentityVariable +
                                      ") is {\"name\", \"uuid\"[, \"slug\", \"driver\", \"memory_mib\"]} or "
                                      "{\"none\": \"why\"}");
  if (const std::optional<std::string> none = doc.optional_string("none")) {
    why_none = *none;
    return std::nullopt;
  }
  formats::GpuIdentity gpu;
  gpu.name = doc.non_empty_string("name");
  gpu.uuid = doc.non_empty_string("uuid");
  gpu.slug = doc.optional_string("slug").value_or("");
  gpu.driver = doc.optional_string("driver").value_or("");
  gpu.memory_mib = doc.optional_integer("memory_mib", 1);
  return checked(gpu, source);
}

std::optional<formats::GpuIdentity> identify_gpu(std::string& why_none) {
  const char* test_file = std::getenv(kTestGpuIdentityVariable);
  if (test_file != nullptr && *test_file != '\0') {
    return parse_test_gpu_identity(
        formats::read_text_file(test_file, std::string("it is named by ") + kTestGpuIdentityVariable), test_file,
        why_none);
  }
  return read_nvml(why_none);
}

}  // namespace gpuperf::gate::driver
