#include "common/case_set.h"

#include <algorithm>
#include <stdexcept>

#include "common/case_references.h"
#include "formats/escape.h"

namespace gpuperf {

void CaseSet::fail(const std::string& what) const {
  std::string variants;
  for (const std::string& name : variant_names_) variants += (variants.empty() ? "" : ", ") + name;
  const std::string set = kind_ + (variants.empty() ? "" : " of " + formats::escape_console(variants));
  throw std::invalid_argument("register_" + family_ + ": " + set + ": " + what);
}

std::vector<Point> CaseSet::checked_points() const {
  if (variant_names_.empty()) fail("no variant: add one with .variant(name, run)");
  for (auto it = variant_names_.begin(); it != variant_names_.end(); ++it) {
    if (std::find(variant_names_.begin(), it, *it) != it) {
      fail("the variant '" + formats::escape_console(*it) + "' is given twice: give each its own name");
    }
  }
  if (axes_given_ == 0) fail("no sizes: give .sizes({perf sizes}) or .axes({...})");
  if (axes_given_ > 1) fail(".sizes() or .axes() is given " + std::to_string(axes_given_) + " times: give one, once");
  try {
    return axes_product(axes_);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
}

void CaseSet::add_cases(Registry& registry, const std::vector<Point>& points,
                        const std::function<void(Case&, std::size_t, const Point&)>& describe) const {
  for (std::size_t v = 0; v < variant_names_.size(); ++v) {
    for (const Point& point : points) {
      Case c;
      c.variant = variant_names_[v];
      c.shape = point.shape();
      c.roles = point.roles();
      c.compared_with = compared_with_;
      c.speedup_over = speedup_over_naive(registry, speedup_over_given_ ? naive_variant_ : variant_names_.front(), c);
      describe(c, v, point);
      if (each_case_) each_case_(c, point);
      registry.add(std::move(c));
    }
  }
}

}  // namespace gpuperf
