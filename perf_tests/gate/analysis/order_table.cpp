#include "gate/analysis/order_table.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <regex>
#include <system_error>

#include "formats/input_error.h"
#include "gate/judging/verdict.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::analysis {
namespace {

// A benchmark's process medians in one way, over its rounds, with their unit.
struct RoundMedians {
  std::string unit;
  std::vector<double> values;  // [unit]
};

// way -> benchmark -> process medians over rounds.
using MediansByWay = std::map<std::string, std::map<std::string, RoundMedians>>;

MediansByWay medians_by_way(const std::vector<OrderRun>& runs) {
  MediansByWay ways;
  std::map<std::string, std::pair<std::string, std::string>> units;  // name -> (unit, the file that set it)
  for (const OrderRun& run : runs) {
    for (const auto& [name, samples] : run.results.benchmarks) {
      const std::optional<double> m = process_median(run.results, name, kMinSamples);
      if (!m) continue;
      const auto [unit, inserted] = units.emplace(name, std::make_pair(samples.unit, run.results.source));
      if (!inserted && unit->second.first != samples.unit) {
        throw formats::InputError(run.results.source + ": benchmark '" + name + "' is in " + samples.unit + " here but in " +
                         unit->second.first + " in " + unit->second.second +
                         " - pass the processes of one benchmark binary only");
      }
      RoundMedians& medians = ways[run.way][name];
      medians.unit = samples.unit;
      medians.values.push_back(*m);
    }
  }
  return ways;
}

}  // namespace

std::optional<OrderRunName> parse_order_run_name(const std::string& file_name) {
  static const std::regex pattern(R"(^([A-Za-z0-9_-]+)\.round([0-9]{1,6})\.json$)");
  std::smatch match;
  if (!std::regex_match(file_name, match, pattern)) return std::nullopt;
  return OrderRunName{match[1].str(), std::stoi(match[2].str())};
}

std::vector<std::string> list_order_run_files(const std::string& dir) {
  std::error_code error;
  std::filesystem::directory_iterator it(dir, error);
  if (error) {
    throw formats::InputError("cannot read the folder " + dir + ": " + error.message() +
                     " - give the --out folder of scripts/order_check.sh");
  }
  std::vector<std::string> paths;
  for (const std::filesystem::directory_entry& entry : it) {
    if (parse_order_run_name(entry.path().filename().string())) paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

double nearest_rank_percentile(std::vector<double> values, double p) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(std::lround(static_cast<double>(values.size() - 1) * p));
  return values[index];
}

OrderTable build_order_table(const std::vector<OrderRun>& runs) {
  const MediansByWay ways = medians_by_way(runs);
  const auto checked = ways.find(kCheckedWay);
  if (checked == ways.end()) {
    throw formats::InputError(std::string("no process of the way '") + kCheckedWay + "' gives a benchmark " +
                     std::to_string(kMinSamples) + " or more valid samples: every way is compared with it - run " +
                     "scripts/order_check.sh again (it times " + kCheckedWay + " first in every round)");
  }
  OrderTable table;
  std::vector<double> spreads;
  for (const auto& [name, medians] : checked->second) {
    const auto [low, high] = std::minmax_element(medians.values.begin(), medians.values.end());
    CheckedBenchmark& benchmark = table.checked[name];
    benchmark.unit = medians.unit;
    benchmark.median = median(medians.values);
    benchmark.spread_pct = (*high / *low - 1.0) * 100.0;
    spreads.push_back(benchmark.spread_pct);
  }
  table.checked_spread_median_pct = median(spreads);
  table.checked_spread_largest_pct = *std::max_element(spreads.begin(), spreads.end());

  for (const auto& [way, benchmarks] : ways) {
    if (way == kCheckedWay) continue;
    OrderWay row;
    row.way = way;
    std::vector<double> absolute;
    for (const auto& [name, medians] : benchmarks) {
      const auto reference = table.checked.find(name);
      if (reference == table.checked.end()) continue;
      const double difference = (median(medians.values) / reference->second.median - 1.0) * 100.0;
      row.rows.push_back({name, difference});
      absolute.push_back(std::fabs(difference));
      if (row.rows.size() == 1 || std::fabs(difference) > std::fabs(row.largest.difference_pct)) {
        row.largest = row.rows.back();
      }
    }
    if (row.rows.empty()) continue;  // nothing in common with the checked suite: nothing to compare
    row.median_abs_pct = median(absolute);
    row.percentile_abs_pct = nearest_rank_percentile(absolute, kOrderPercentile);
    table.ways.push_back(std::move(row));
  }
  return table;
}

}  // namespace gpuperf::gate::analysis
