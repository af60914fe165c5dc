#pragma once
// The few NVML queries the hardware guard needs, loaded from the driver's libnvidia-ml.so.1 at run time,
// so that building needs no NVML header or library and a machine without the driver still runs.

#include <optional>
#include <string>

namespace gpuperf {

struct ClockState {
  unsigned sm_clock_mhz = 0;     // [MHz]
  unsigned mem_clock_mhz = 0;    // [MHz]
  unsigned long long reasons = 0;  // NVML clocks-event (throttle) reason bits
  unsigned other_processes = 0;  // compute processes on the GPU besides this one
};

class Nvml {
 public:
  // Opens NVML for the device with this PCI bus id ("0000:3b:00.0"); unavailable() says why not.
  explicit Nvml(const std::string& pci_bus_id);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  bool available() const { return device_ != nullptr; }
  const std::string& unavailable_reason() const { return why_; }
  std::optional<ClockState> read() const;
  std::string driver_version() const;

  // Reasons that make a sample slower for reasons other than the code: thermal and power slowdowns.
  // (Idle, application clock settings and display clocks are not.)
  static bool is_throttled(unsigned long long reasons);
  static bool is_power_capped(unsigned long long reasons);
  static std::string describe(unsigned long long reasons);

 private:
  void* library_ = nullptr;
  void* device_ = nullptr;
  std::string why_;
};

}  // namespace gpuperf
