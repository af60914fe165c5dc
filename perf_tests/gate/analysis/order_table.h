#pragma once
// The table of scripts/order_check.sh: does a benchmark's time depend on how it is run? Each way of running
// the suite (unchecked, reverse, family, alone) against the suite run in registry order with
// reference checks ("checked"), from one results file per way and round (DIR/<way>.round<r>.json).
//
// A benchmark's figure for a way is the median over rounds of its process medians (the gate's median,
// statistics.h, of the valid samples the gate's results reader keeps: throttled repetitions left out, a
// process with fewer than kMinSamples of them gives none) [us, or cycles for cycle-metric cases].

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gate/inputs/results.h"

namespace gpuperf::gate::analysis {

// The way every other one is compared with: registry order, every case checked against its reference.
inline constexpr const char* kCheckedWay = "checked";
// A benchmark further than this from the checked suite in some way is listed by name [percent].
inline constexpr double kOrderListedBeyondPct = 1.0;
// The percentile of the absolute differences the table shows beside their median and largest.
inline constexpr double kOrderPercentile = 0.9;

// One process of scripts/order_check.sh: the way it ran and its round, from its file name.
struct OrderRun {
  std::string way;
  int round = 0;
  ResultsFile results;
};

// "<way>.round<r>.json" split; nullopt for any other file name (the logs beside them, the table itself).
struct OrderRunName {
  std::string way;  // letters, digits, '_' and '-'
  int round = 0;
};
std::optional<OrderRunName> parse_order_run_name(const std::string& file_name);

// The <way>.round<r>.json files of `dir`, sorted by name; InputError when the folder cannot be read.
std::vector<std::string> list_order_run_files(const std::string& dir);

// One benchmark of the checked suite.
struct CheckedBenchmark {
  std::string unit;          // kUnitMicroseconds or kUnitCycles
  double median = 0.0;       // over rounds, of the process medians [unit]
  double spread_pct = 0.0;   // max / min - 1 of the process medians over rounds [percent]
};

// One benchmark in one way against the checked suite.
struct OrderDifference {
  std::string name;
  double difference_pct = 0.0;  // median over rounds / checked median - 1 [percent]
};

struct OrderWay {
  std::string way;
  std::vector<OrderDifference> rows;  // the benchmarks it shares with the checked suite, by name
  double median_abs_pct = 0.0;        // of |difference_pct| [percent]
  double percentile_abs_pct = 0.0;    // kOrderPercentile of |difference_pct|, nearest rank [percent]
  OrderDifference largest;            // the largest |difference_pct| (the first by name on a tie)
};

struct OrderTable {
  std::map<std::string, CheckedBenchmark> checked;  // by benchmark name
  double checked_spread_median_pct = 0.0;           // over the checked benchmarks [percent]
  double checked_spread_largest_pct = 0.0;          // [percent]
  std::vector<OrderWay> ways;                       // every way but the checked one, by name
};

// The table from every process; InputError when no process of the checked way gives a median, or when a
// benchmark is timed in cycles in one process and in microseconds in another.
OrderTable build_order_table(const std::vector<OrderRun>& runs);

// The value at fraction `p` of `values` sorted, by nearest rank (index round((n - 1) p)); NaN when empty.
double nearest_rank_percentile(std::vector<double> values, double p);

}  // namespace gpuperf::gate::analysis
