#pragma once
// How LaunchCapture::end() waits for the device, chosen where the capture is linked: the harness's
// processes wait with the CUDA runtime they run on (device_wait_runtime.cpp); the capture library CUDA
// loads into another program (inject.cpp) waits for nothing and links no CUDA runtime of its own, which
// would show among that program's libraries when it links the runtime statically, as CMake does by
// default (device_wait_none.cpp).

#include <string>

namespace gpuperf::fingerprint {

// Waits until the current device has finished its work: "" when it has, else the failing call and its
// error ("CUDA error in cudaDeviceSynchronize: ...").
std::string wait_for_current_device();

}  // namespace gpuperf::fingerprint
