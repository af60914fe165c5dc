#pragma once
// What a case's throughput is shown against (Case::compared_with, Case::speedup_over), named once, for
// every family's register_<family>() to set where it makes its cases.

#include <cstdint>
#include <string>

#include "common/case_shape.h"
#include "common/registry.h"

namespace gpuperf {

// The size at which the ceiling family (kernels/ceiling) times this GPU's memory-bandwidth ceilings
// [int32 elements]: 2^28 = 1 GiB, many times any L2. Its largest shape: the one others compare with.
inline constexpr std::int64_t kCeilingPerfElements = std::int64_t{1} << 28;

// A ceiling benchmark by variant: ceiling_benchmark("device_copy") is "ceiling/device_copy/n:268435456".
// "ceiling" is that family's folder name; Registry::validate_references() stops start-up if it or the
// variant drifts.
inline std::string ceiling_benchmark(const std::string& variant) {
  return case_name("ceiling", variant, shape({{"n", kCeilingPerfElements}}));
}

// For kernels that read and write device memory (copies, transposes, element-wise maps).
inline std::string device_copy_ceiling() { return ceiling_benchmark("device_copy"); }
// For kernels that only read it (reductions, counts).
inline std::string read_only_ceiling() { return ceiling_benchmark("read_only_stream"); }

// Case::speedup_over for case c of the family being added: its naive variant at c's shape; empty for
// the naive variant itself, or when naive_variant is empty (none).
inline std::string speedup_over_naive(const Registry& registry, const std::string& naive_variant, const Case& c) {
  if (naive_variant.empty() || c.variant == naive_variant) return "";
  return registry.name_in_family(naive_variant, c.shape);
}

}  // namespace gpuperf
