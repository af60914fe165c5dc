#include "gate/driver/suite_format.h"

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/gbench_suite.h"
#include "gate/driver/gpuperf_suite.h"
#include "gate/driver/nvbench_suite.h"

namespace gpuperf::gate::driver {

const char* format_name(SuiteFormat format) {
  switch (format) {
    case SuiteFormat::kGpuperf:
      return "gpuperf";
    case SuiteFormat::kGbench:
      return "gbench";
    case SuiteFormat::kNvbench:
      return "nvbench";
  }
  return "";
}

SuiteFormat parse_suite_format(const std::string& text) {
  for (const SuiteFormat format : {SuiteFormat::kGpuperf, SuiteFormat::kGbench, SuiteFormat::kNvbench}) {
    if (text == format_name(format)) return format;
  }
  throw DriverStop(formats::kExitInvalidInput,
                   "--format '" + formats::escape_console(text) + "' is none of gpuperf, gbench, nvbench");
}

std::unique_ptr<Suite> make_suite(SuiteFormat format, const std::string& program, const std::string& family,
                                  const std::vector<std::string>& arguments) {
  if (format == SuiteFormat::kGpuperf) return std::make_unique<GpuperfSuite>(program);
  if (format == SuiteFormat::kGbench) return std::make_unique<GbenchSuite>(program, family, arguments);
  return std::make_unique<NvbenchSuite>(program, family, arguments);
}

}  // namespace gpuperf::gate::driver
