#pragma once
// A benchmark's history on one GPU model: one point per stored run, oldest first, what change points and
// drift are found in and what the dashboard draws.

#include <string>
#include <vector>

namespace gpuperf::gate::history {

struct SeriesPoint {
  std::string run_key;
  std::string commit;
  std::string date;                     // ISO 8601 UTC
  std::string gpu_uuid;                 // the machine: a change of machine is a known source of offsets
  std::vector<double> process_medians;  // [the benchmark's unit]
  double value = 0.0;                   // the median of process_medians: the point drawn and analysed
  std::string verdict;
  std::string code_hash;                // changes where the benchmark's code changed
  std::string baseline_recorded;        // changes where the baseline was re-recorded
};

struct Series {
  std::string gpu_slug;
  std::string benchmark;
  std::string unit;
  std::vector<SeriesPoint> points;  // oldest first (by date, then by the order they were stored)
};

}  // namespace gpuperf::gate::history
