#include "gate/driver/suite_pace.h"

#include <sstream>

namespace gpuperf::gate::driver {
namespace {

// "0.02", "0.5": the shortest text that reads back as `seconds`, as both tools parse it.
std::string pace_seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

// Whether `argument` is the option `option`, alone or as "option=value".
bool pace_option_is(const std::string& argument, const std::string& option) {
  return argument == option || argument.rfind(option + "=", 0) == 0;
}

}  // namespace

PaceChoice gbench_pace(const std::vector<std::string>& arguments) {
  for (const std::string& argument : arguments) {
    if (argument.rfind("--benchmark_min_time", 0) == 0) return {};
  }
  // A bare number of seconds: Google Benchmark 1.7 (Debian 12) refuses the "s" suffix, 1.8 takes both.
  const std::string flag = "--benchmark_min_time=" + pace_seconds_text(kGbenchRepetitionTimeS);
  return {{flag},
          "each repetition of a benchmark runs for at least " + pace_seconds_text(kGbenchRepetitionTimeS) + " s (" +
              flag + ", the driver's choice: the suite's ARGS do not set it; a MinTime() or Iterations() in the "
              "suite's code wins over it). Give ARGS --benchmark_min_time=<seconds> to choose another"};
}

PaceChoice nvbench_pace(const std::vector<std::string>& arguments) {
  for (const std::string& argument : arguments) {
    for (const char* option : {"--min-time", "--max-noise", "--stopping-criterion", "--timeout"}) {
      if (pace_option_is(argument, option)) return {};
    }
  }
  const std::string seconds = pace_seconds_text(kNvbenchStateTimeS);
  return {{"--min-time", seconds},
          "each state runs until at least " + seconds + " s of GPU time (--min-time " + seconds +
              ", the driver's choice: the suite's ARGS set none of --min-time, --max-noise, --stopping-criterion, "
              "--timeout). Give ARGS --min-time <seconds> to choose another"};
}

}  // namespace gpuperf::gate::driver
