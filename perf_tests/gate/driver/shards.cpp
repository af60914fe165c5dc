#include "gate/driver/shards.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include "formats/input_error.h"

namespace gpuperf::gate::driver {
namespace {

// The samples a timing process takes of a case beside the timed ones: the warm-up
// (perf_tests/harness/sampler.cu, kWarmupSamples).
constexpr int kWarmupSamples = 5;
// A case's set-up in a timing process, whatever its samples: inputs made, one run, memory released. On an
// H100 a whole-suite timing process spent 1.7 s of its 5 s beside its samples, over 108 cases [s].
constexpr double kSetupSeconds = 0.015;

double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  static const std::regex kShape("([0-9]{1,3})/([0-9]{1,3})");
  std::smatch match;
  if (std::regex_match(text, match, kShape)) {
    const Shard shard{std::stoi(match[1]), std::stoi(match[2])};
    if (shard.count >= 1 && shard.count <= kMaxShards && shard.index >= 1 && shard.index <= shard.count) return shard;
  }
  throw formats::InputError("--shard '" + text + "' is not I/N with 1 <= I <= N <= " + std::to_string(kMaxShards) +
                            ": give the shard's number and how many there are, e.g. --shard 2/4");
}

std::string shard_name(const Shard& shard) {
  if (shard.count == 1) return "families";
  return "families_" + std::to_string(shard.index) + "of" + std::to_string(shard.count);
}

std::vector<CaseCost> case_costs(const formats::CaseListing& listing, const Baseline& baseline, int repetitions) {
  std::vector<CaseCost> costs;
  std::vector<double> known;
  const int samples = repetitions + kWarmupSamples;
  for (const formats::ListedCase& listed : listing.cases) {
    if (!listed.perf) continue;
    const auto entry = baseline.benchmarks.find(listed.name);
    double seconds = std::nan("");
    if (entry != baseline.benchmarks.end() && entry->second.unit == "us") {
      seconds = kSetupSeconds + samples * entry->second.median * 1e-6;
      known.push_back(seconds);
    }
    costs.push_back({listed.name, seconds});
  }
  const double typical = known.empty() ? kSetupSeconds : median_of(known);
  for (CaseCost& cost : costs) {
    if (std::isnan(cost.seconds)) cost.seconds = typical;
  }
  return costs;
}

std::vector<std::string> shard_cases(const std::vector<CaseCost>& cases, const Shard& shard) {
  const int n = static_cast<int>(cases.size());
  const int parts = shard.count;
  std::vector<double> before(n + 1, 0.0);  // before[i]: the cost of cases [0, i)
  for (int i = 0; i < n; ++i) before[i + 1] = before[i] + cases[i].seconds;
  // cut[j]: the first case of part j (0-based), cut[parts] = n. Each cut goes to the case boundary nearest
  // its share of the total, after the previous cut, leaving a case for every later part where it can.
  std::vector<int> cut(parts + 1, 0);
  cut[parts] = n;
  for (int j = 1; j < parts; ++j) {
    const double target = before[n] * j / parts;
    int at = static_cast<int>(std::lower_bound(before.begin(), before.end(), target) - before.begin());
    if (at > 0 && target - before[at - 1] < before[std::min(at, n)] - target) --at;
    const int lowest = std::min(cut[j - 1] + 1, n);
    const int highest = std::max(lowest, n - (parts - j));
    cut[j] = std::clamp(at, lowest, highest);
  }
  std::vector<std::string> names;
  for (int i = cut[shard.index - 1]; i < cut[shard.index]; ++i) names.push_back(cases[i].name);
  return names;
}

}  // namespace gpuperf::gate::driver
