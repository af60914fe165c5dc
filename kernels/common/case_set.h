#pragma once
// What the builders of a family's one file (common/elementwise_cases.h, common/lambda_cases.h) share:
// the variants, the axes and the hook on every case, and how they become registry cases. One case per
// variant (in the order given) and point of the axes' product (in its order), named family/variant/shape
// with the point's roles; the first variant is the one the others' speedups are shown over.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "common/axes.h"
#include "common/registry.h"

namespace gpuperf {

// A set of cases declared in a family's file, added to the registry by Family::add_cases().
class CaseSet {
 public:
  virtual ~CaseSet() = default;
  // Checks the set and adds its cases; std::invalid_argument, naming the family and the set, saying what
  // to change.
  virtual void add_to(Registry& registry) const = 0;

 protected:
  // kind: "element-wise cases", "cases"; family: the family's name, for messages (register_<family>).
  CaseSet(std::string kind, std::string family) : kind_(std::move(kind)), family_(std::move(family)) {}

  // std::invalid_argument "register_<family>: <kind> of <variants>: <what>".
  [[noreturn]] void fail(const std::string& what) const;
  // The checks every set passes: one variant at least, no variant twice, axes given once; then the
  // points of the axes' product (axes_product's errors, prefixed as fail() does).
  std::vector<Point> checked_points() const;
  // One case per variant and point: variant, shape, roles, compared_with and speedup_over set, then describe(case,
  // variant index, point) fills in the rest (make, bytes, flops), then the hook of each_case().
  void add_cases(Registry& registry, const std::vector<Point>& points,
                 const std::function<void(Case&, std::size_t, const Point&)>& describe) const;

  std::vector<std::string> variant_names_;
  std::vector<Axis> axes_;
  int axes_given_ = 0;  // calls of sizes() and axes(): one is right
  std::function<void(Case&, const Point&)> each_case_;
  std::string compared_with_;            // Case::compared_with of every case; empty: none
  bool speedup_over_given_ = false;      // speedup_over(): naive_variant_ instead of the first variant
  std::string naive_variant_;

 private:
  std::string kind_;
  std::string family_;
};

// The chained settings every builder has, returning the builder itself (Builder: the derived class).
template <typename Builder>
class CaseSetSettings : public CaseSet {
 public:
  // The cases' axes, in the order their values appear in the shape (common/axes.h).
  Builder& axes(std::vector<Axis> axes) {
    axes_ = std::move(axes);
    ++axes_given_;
    return self();
  }
  // One axis, "n": perf_sizes timed and checked, correctness_sizes checked, perf_only_sizes timed only
  // (common/axes.h, size_axis).
  Builder& sizes(const std::vector<std::int64_t>& perf_sizes,
                 const std::vector<std::int64_t>& correctness_sizes = kOddSizes,
                 const std::vector<std::int64_t>& perf_only_sizes = {}) {
    return axes({size_axis("n", perf_sizes, correctness_sizes, perf_only_sizes)});
  }
  // What every case's throughput is shown against (Case::compared_with), by case name: a ceiling
  // (common/case_references.h, device_copy_ceiling()) or a library's case. Default: none.
  Builder& compared_with(std::string case_name) {
    compared_with_ = std::move(case_name);
    return self();
  }
  // The variant whose case at the same shape the speedups are over (Case::speedup_over), when it is not
  // the set's first: a variant of another set of the family (the naive one), or "" for none.
  Builder& speedup_over(std::string naive_variant) {
    naive_variant_ = std::move(naive_variant);
    speedup_over_given_ = true;
    return self();
  }
  // Sets anything else of each case (registry.h's Case: compared_with, needs, runs_per_sample, ...),
  // after the builder has: hook(case, point).
  Builder& each_case(std::function<void(Case&, const Point&)> hook) {
    each_case_ = std::move(hook);
    return self();
  }

 protected:
  using CaseSet::CaseSet;
  Builder& self() { return static_cast<Builder&>(*this); }
};

}  // namespace gpuperf
