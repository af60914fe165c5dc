#include "gate/judging/comparison.h"

#include <algorithm>
#include <tuple>

namespace gpuperf::gate {

void sort_by_severity(std::vector<BenchmarkComparison>& rows) {
  std::sort(rows.begin(), rows.end(), [](const BenchmarkComparison& a, const BenchmarkComparison& b) {
    return std::tie(a.verdict, a.name) < std::tie(b.verdict, b.name);
  });
}

}  // namespace gpuperf::gate
