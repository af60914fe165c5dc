#pragma once
// Properties of the current device that launch configurations depend on, read once per process.

namespace gpuperf {

int device_sm_count();

}  // namespace gpuperf
