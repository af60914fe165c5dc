#include "gate/statistics/statistics.h"

#include <algorithm>
#include <limits>

namespace gpuperf::gate {

double median_in_place(std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t middle = values.size() / 2;
  const auto middle_it = values.begin() + static_cast<std::ptrdiff_t>(middle);
  std::nth_element(values.begin(), middle_it, values.end());
  if (values.size() % 2 == 1) return *middle_it;
  const double below = *std::max_element(values.begin(), middle_it);
  return 0.5 * (below + *middle_it);
}

double median(std::vector<double> values) { return median_in_place(values); }

}  // namespace gpuperf::gate
