#include "harness/nvml.h"

#include <dlfcn.h>
#include <unistd.h>

#include <vector>

namespace gpuperf {
namespace {

// The NVML ABI subset used here (nvml.h, stable since NVML 11).
using Return = int;
constexpr Return kSuccess = 0;
constexpr Return kInsufficientSize = 7;
constexpr int kClockSm = 1;
constexpr int kClockMem = 2;

struct ProcessInfo {  // nvmlProcessInfo_t (v2 layout, used by the _v3 query)
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};

// nvmlClocksEventReason* bits
constexpr unsigned long long kSwPowerCap = 0x4;
constexpr unsigned long long kHwSlowdown = 0x8;
constexpr unsigned long long kSwThermal = 0x20;
constexpr unsigned long long kHwThermal = 0x40;
constexpr unsigned long long kHwPowerBrake = 0x80;

struct Api {
  Return (*init)();
  Return (*shutdown)();
  Return (*handle_by_pci)(const char*, void**);
  Return (*clock_info)(void*, int, unsigned*);
  Return (*reasons)(void*, unsigned long long*);
  Return (*processes)(void*, unsigned*, ProcessInfo*);
  Return (*driver_version)(char*, unsigned);
};

Api& api() {
  static Api instance{};
  return instance;
}

template <typename F>
bool bind(void* library, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(library, name));
  return fn != nullptr;
}

}  // namespace

Nvml::Nvml(const std::string& pci_bus_id) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    why_ = "libnvidia-ml.so.1 not found (no NVIDIA driver on this machine?)";
    return;
  }
  Api& a = api();
  const bool bound = bind(library_, "nvmlInit_v2", a.init) && bind(library_, "nvmlShutdown", a.shutdown) &&
                     bind(library_, "nvmlDeviceGetHandleByPciBusId_v2", a.handle_by_pci) &&
                     bind(library_, "nvmlDeviceGetClockInfo", a.clock_info) &&
                     (bind(library_, "nvmlDeviceGetCurrentClocksEventReasons", a.reasons) ||
                      bind(library_, "nvmlDeviceGetCurrentClocksThrottleReasons", a.reasons)) &&
                     bind(library_, "nvmlDeviceGetComputeRunningProcesses_v3", a.processes) &&
                     bind(library_, "nvmlSystemGetDriverVersion", a.driver_version);
  if (!bound) {
    why_ = "libnvidia-ml.so.1 lacks a needed function (driver too old?)";
    return;
  }
  if (a.init() != kSuccess) {
    why_ = "nvmlInit failed";
    return;
  }
  void* device = nullptr;
  if (a.handle_by_pci(pci_bus_id.c_str(), &device) != kSuccess) {
    why_ = "NVML does not know the device at PCI bus id " + pci_bus_id;
    a.shutdown();
    return;
  }
  device_ = device;
}

Nvml::~Nvml() {
  if (device_ != nullptr) api().shutdown();
  if (library_ != nullptr) dlclose(library_);
}

std::optional<ClockState> Nvml::read() const {
  if (device_ == nullptr) return std::nullopt;
  const Api& a = api();
  ClockState state;
  if (a.clock_info(device_, kClockSm, &state.sm_clock_mhz) != kSuccess ||
      a.clock_info(device_, kClockMem, &state.mem_clock_mhz) != kSuccess ||
      a.reasons(device_, &state.reasons) != kSuccess) {
    return std::nullopt;
  }
  std::vector<ProcessInfo> processes(64);
  auto count = static_cast<unsigned>(processes.size());
  const Return status = a.processes(device_, &count, processes.data());
  if (status == kSuccess) {
    const auto self = static_cast<unsigned>(getpid());
    for (unsigned i = 0; i < count; ++i) state.other_processes += processes[i].pid != self ? 1 : 0;
  } else if (status == kInsufficientSize) {
    state.other_processes = count;  // more than 64 processes: certainly not alone
  }
  return state;
}

std::string Nvml::driver_version() const {
  char version[96] = {};
  if (device_ == nullptr || api().driver_version(version, sizeof version) != kSuccess) return {};
  return version;
}

bool Nvml::is_throttled(unsigned long long reasons) {
  return (reasons & (kHwSlowdown | kSwThermal | kHwThermal | kHwPowerBrake)) != 0;
}

bool Nvml::is_power_capped(unsigned long long reasons) { return (reasons & kSwPowerCap) != 0; }

std::string Nvml::describe(unsigned long long reasons) {
  std::string text;
  const auto add = [&](unsigned long long bit, const char* name) {
    if ((reasons & bit) == 0) return;
    if (!text.empty()) text += ", ";
    text += name;
  };
  add(kSwPowerCap, "SW power cap");
  add(kHwSlowdown, "HW slowdown");
  add(kSwThermal, "SW thermal slowdown");
  add(kHwThermal, "HW thermal slowdown");
  add(kHwPowerBrake, "HW power brake");
  return text.empty() ? "none" : text;
}

}  // namespace gpuperf
