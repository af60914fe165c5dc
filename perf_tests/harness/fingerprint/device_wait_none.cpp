#include "harness/fingerprint/device_wait.h"

namespace gpuperf::fingerprint {

// The capture library ends its window at the program's exit only (LaunchCapture::end(false)).
std::string wait_for_current_device() { return "the capture library does not wait for the device"; }

}  // namespace gpuperf::fingerprint
