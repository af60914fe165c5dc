#pragma once
// The loop of the families registered by hand (matmul, occupancy, smem_latency: those common/family.h's
// builders do not fit), written once (as CUB's benchmarks share one base.cuh): for every variant, in the order of the family's table (its variants.def, the naive variant
// first), for every point (a problem size or a swept parameter, in order), one case. The loop names the
// case's variant and gives it the point's roles; the family's describe() fills in what is its own:
//
//   add_variant_cases(registry, kVariants, kSizes, [&](Case& c, const Variant& variant, const Size& size) {
//     c.shape = shape({{"n", size.n}});
//     c.bytes = GlobalMemoryBytes().reads<float>(size.n).writes<float>(size.n);
//     c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
//     c.make = [&variant, n = size.n] { return std::make_unique<CopyInstance>(variant, n); };
//   });
//
// A variant is anything with a `name` (the variant's name in the case names), a point anything with
// `roles` (Role bits). describe() gets references to the tables' own elements, so make() may keep one to a
// variant of a static table. Where a variant does not take every point (a stride-1-only kernel),
// describe() returns bool: false leaves that (variant, point) pair out; void: every pair is a case.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "common/registry.h"

namespace gpuperf {

// The point most families sweep: a problem size and what it is used for.
struct Size {
  std::int64_t n;  // [elements]
  unsigned roles;  // Role bits: kCorrectness, kPerf, kBoth
};

template <typename Variants, typename Points, typename Describe>
void add_variant_cases(Registry& registry, const Variants& variants, const Points& points, Describe&& describe) {
  for (const auto& variant : variants) {
    for (const auto& point : points) {
      Case c;
      c.variant = variant.name;
      c.roles = point.roles;
      using Result = decltype(describe(c, variant, point));
      if constexpr (std::is_same_v<Result, bool>) {
        if (!describe(c, variant, point)) continue;
      } else {
        static_assert(std::is_void_v<Result>,
                      "describe(Case&, variant, point) returns void (every pair is a case) or bool (false: none)");
        describe(c, variant, point);
      }
      registry.add(std::move(c));
    }
  }
}

}  // namespace gpuperf
