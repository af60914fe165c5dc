#include "harness/slowdown_injection.cuh"

#include <stdexcept>

#include "common/cuda_check.cuh"
#include "harness/event_timer.cuh"

namespace gpuperf {
namespace {

__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

}  // namespace

std::vector<SlowdownRule> parse_slowdown_rules(const std::string& spec) {
  std::vector<SlowdownRule> rules;
  std::size_t begin = 0;
  while (begin <= spec.size()) {
    const std::size_t end = std::min(spec.find(';', begin), spec.size());
    const std::string item = spec.substr(begin, end - begin);
    begin = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.rfind('=');
    const std::string hint = "; expected '<regex>=<percent>', e.g. 'reduction/.*=5'";
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("GPUPERF_INJECT_SLOWDOWN: '" + item + "'" + hint);
    SlowdownRule rule;
    rule.pattern = item.substr(0, eq);
    try {
      rule.regex = std::regex(rule.pattern);
      std::size_t used = 0;
      rule.percent = std::stod(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) throw std::invalid_argument("trailing characters");
    } catch (const std::exception& e) {
      throw std::invalid_argument("GPUPERF_INJECT_SLOWDOWN: '" + item + "': " + e.what() + hint);
    }
    if (!(rule.percent >= 0.0 && rule.percent <= 1000.0)) {
      throw std::invalid_argument("GPUPERF_INJECT_SLOWDOWN: '" + item + "': percent must be in [0, 1000]");
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::optional<double> slowdown_for(const std::vector<SlowdownRule>& rules, const std::string& name) {
  for (const SlowdownRule& rule : rules) {
    if (std::regex_match(name, rule.regex)) return rule.percent;
  }
  return std::nullopt;
}

SpinDelay::SpinDelay() {
  constexpr long long kCalibrationCycles = 20'000'000;  // ~10 ms at 2 GHz: well above timer resolution
  cudaStream_t stream = nullptr;
  EventTimer timer;
  spin_kernel<<<1, 1, 0, stream>>>(kCalibrationCycles / 10);  // warm-up: module load, clocks up
  GPUPERF_CHECK_LAUNCH();
  timer.start(stream);
  spin_kernel<<<1, 1, 0, stream>>>(kCalibrationCycles);
  GPUPERF_CHECK_LAUNCH();
  timer.stop(stream);
  cycles_per_us_ = static_cast<double>(kCalibrationCycles) / timer.elapsed_us();
}

void SpinDelay::enqueue(cudaStream_t stream, double microseconds) const {
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<long long>(microseconds * cycles_per_us_));
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf
