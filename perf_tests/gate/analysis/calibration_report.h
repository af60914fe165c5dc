#pragma once
// The reports of scripts/calibrate.sh from a CalibrationReport: DIR/calibration.md, a table per mode
// (caught / trials per benchmark and slowdown, the smallest slowdown caught reliably, the false alarms on
// clean runs), and DIR/calibration.json, every cell's counts.

#include <string>

#include "gate/analysis/calibration.h"

namespace gpuperf::gate::analysis {

std::string calibration_markdown(const CalibrationReport& report);
std::string calibration_json(const CalibrationReport& report);

}  // namespace gpuperf::gate::analysis
