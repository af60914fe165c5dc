#include "common/registry.h"

#include <algorithm>
#include <stdexcept>

namespace gpuperf {

void Registry::add(Case c) {
  if (c.family.empty() || c.variant.empty() || c.shape.empty() || !c.make) {
    throw std::invalid_argument("registry: case '" + c.name() + "' needs a family, variant, shape and make()");
  }
  if (c.runs_per_sample < 1) throw std::invalid_argument("registry: " + c.name() + ": runs_per_sample < 1");
  const auto same = [&](const Case& other) { return other.name() == c.name(); };
  if (std::any_of(cases_.begin(), cases_.end(), same)) {
    throw std::invalid_argument("registry: duplicate case name '" + c.name() + "'");
  }
  cases_.push_back(std::move(c));
}

}  // namespace gpuperf
