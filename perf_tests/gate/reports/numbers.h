#pragma once
// How numbers are written in every report, so that console, Markdown and JSON agree: values with their
// units, changes with their intervals, p-values, percentages, throughput. The words around them are
// wording.h's.

#include <string>

#include "formats/number_text.h"
#include "gate/judging/comparison.h"

namespace gpuperf::gate {

using formats::format_number;
using formats::format_pct;
using formats::format_value;

// "+4.1% [+2.3, +6.0]": the change (ratio - 1) in percent with its interval.
std::string format_change(const BenchmarkComparison& row);
// "2e-11", "0.03".
std::string format_p(double p);
// Achieved throughput of the current median: only for time benchmarks with bytes (flops) per run; 0 when
// not applicable. [GB/s], [TFLOP/s]
double achieved_gb_per_s(const BenchmarkComparison& row);
double achieved_tflop_per_s(const BenchmarkComparison& row);

}  // namespace gpuperf::gate
