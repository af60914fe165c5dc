#pragma once
// The registry's cases as `gpuperf_bench --list-cases` prints them: what each benchmark measures and the
// yardsticks it is read against (its GPU's ceiling, the seed's naive variant). The fleet report's
// source of row order, families, units, bytes, flops and yardsticks.

#include <string>
#include <vector>

namespace gpuperf::formats {

// The listing format this gate reads. The harness bumps it when a field changes meaning or disappears.
inline constexpr int kCaseListingSchemaVersion = 1;

struct ListedCase {
  std::string name;     // "reduction/reduce9_shfl_down_last_warp/n:33554432": the benchmark's run name
  std::string family;   // "reduction"
  std::string variant;  // "reduce9_shfl_down_last_warp"
  std::string shape;    // "n:33554432"
  std::string unit;     // "us" or "cycles"
  double bytes = 0.0;   // fewest bytes one run moves through device memory [bytes]
  double flops = 0.0;   // arithmetic of one run [floating-point operations]
  bool perf = true;     // has the "perf" role: timed by the perf suite (correctness-only cases are not)
  // The benchmark whose throughput is this case's ceiling on the same GPU ("ceiling/read_only_stream/
  // n:268435456", cuBLAS for matmul); empty when none.
  std::string compared_with;
  // The seed's naive variant at the same shape: speedup = its time / this time; empty when none.
  std::string speedup_over;
};

struct CaseListing {
  std::vector<ListedCase> cases;  // in registry order
};

// Parses a listing; `source` names it in messages. InputError for corrupt JSON, a schema_version other than
// kCaseListingSchemaVersion, missing or mistyped fields, a unit other than us or cycles, negative or
// non-finite bytes or flops, or a name listed twice.
CaseListing parse_case_listing(const std::string& text, const std::string& source);
CaseListing load_case_listing(const std::string& path);

}  // namespace gpuperf::formats
