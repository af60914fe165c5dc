#pragma once
// The registry: every benchmark case of every kernel family, from which both the correctness tests and
// the perf benchmarks are generated. A family adds its cases in register_<family>(Registry&), which
// add_family() calls under the name the family was declared with in CMake (gpuperf_add_family): that
// one name is the cases' family, the CTest tests' and the correctness filter's, so they cannot drift.
// Adding a variant is its file (kernel and launcher) and one line in its family's variants.def. A family
// may instead be declared in one file with common/family.h, a layer over this one (docs/kernels.md).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace gpuperf {

struct CheckResult {
  bool ok = true;
  std::string message;  // on failure: what differs, with the first few mismatching indices

  static CheckResult pass() { return {}; }
  static CheckResult fail(std::string why) { return {false, std::move(why)}; }
};

// Figures reported beside a case's timing (occupancy, threads per block, ...), name -> value.
using Counters = std::map<std::string, double>;

// One case, prepared: device buffers allocated for one problem size, inputs ready to be filled.
class Instance {
 public:
  virtual ~Instance() = default;
  // Fill every input with fresh random data drawn from seed (never zeros).
  virtual void generate(std::uint64_t seed) = 0;
  // Overwrite every output with the poison pattern (common/poison.cuh).
  virtual void poison() = 0;
  // Enqueue the variant's work on stream: exactly the region that is timed. No allocation, no
  // synchronisation, no host work that depends on the device.
  virtual void run(cudaStream_t stream) = 0;
  // After run() and a synchronisation: compare the outputs with the family's reference.
  virtual CheckResult verify() = 0;
  // Cycle-metric cases only: the figure of the last run, in SM clock cycles.
  virtual double cycles() const { return 0.0; }
  // Extra figures to report with every sample (constant for the instance).
  virtual Counters counters() const { return {}; }
};

enum class Metric {
  kTime,    // device time of run(), from CUDA events [microseconds]
  kCycles,  // Instance::cycles() after run() [SM clock cycles]
};

// Which generated suites a case belongs to.
enum Role : unsigned { kCorrectness = 1u, kPerf = 2u, kBoth = kCorrectness | kPerf };

// What a case needs of the GPU beyond what every architecture the project builds for has. On a GPU
// without it the case is not applicable: listed by name with the reason, never run, never a failure.
struct Requirements {
  int min_compute_capability = 0;         // major x 10 + minor (80: sm_80, Ampere)
  int shared_memory_per_block_bytes = 0;  // opted-in shared memory one block needs [bytes]
};

// The figures of a GPU that Requirements are checked against.
struct DeviceCapabilities {
  int compute_capability = 0;                // major x 10 + minor
  int shared_memory_per_block_optin_bytes = 0;  // cudaDevAttrMaxSharedMemoryPerBlockOptin [bytes]
};

// Empty when a case with these needs runs on the device; else why not, e.g.
// "needs compute capability 8.0 or newer; this GPU has 7.5".
std::string not_applicable_reason(const Requirements& needs, const DeviceCapabilities& device);

// A case's name, "family/variant/shape": what benchmarks, baselines and references are keyed by.
inline std::string case_name(const std::string& family, const std::string& variant, const std::string& shape) {
  return family + "/" + variant + "/" + shape;
}

struct Case {
  std::string family;   // "reduction"; left empty by register_<family>(): add_family() sets it
  std::string variant;  // "reduce9_shfl_down": says what the variant changes
  std::string shape;    // "n:33554432": the problem size or swept parameter, as axis:value pairs (shape())
  unsigned roles = kBoth;
  Metric metric = Metric::kTime;
  double bytes = 0.0;   // fewest bytes one run() must move through device memory (GlobalMemoryBytes) [bytes]
  double flops = 0.0;   // arithmetic of one run() [floating-point operations]
  // Runs of run() inside one timed sample, for kernels too short to time one launch at a time.
  int runs_per_sample = 1;
  Requirements needs;
  // What reports show this case's throughput against, by case name (family/variant/shape); empty: none.
  // compared_with: the perf benchmark whose throughput is this GPU's ceiling for this case (a ceiling
  // family's bandwidth, cuBLAS for matmul); a report shows the case's TFLOP/s as a % of its TFLOP/s where
  // that benchmark counts flops, else its GB/s as a % of its GB/s. Empty for the ceilings themselves
  // and for cycle-metric cases.
  std::string compared_with;
  // speedup_over: the family's naive variant (the seed's) at the same shape; a report shows the time
  // ratio. Empty for that variant itself, and where the family has no naive variant at this shape.
  std::string speedup_over;
  std::function<std::unique_ptr<Instance>()> make;

  std::string name() const { return case_name(family, variant, shape); }
};

class Registry {
 public:
  // Runs register_family(*this) with `family` as the family of every case it adds. Throws
  // std::invalid_argument when it adds a case of another family, or no correctness case or no perf
  // case (a family nothing checks, or nothing times, would pass its CTest test having judged nothing),
  // and when the family's name breaks the rule of formats/names.h.
  void add_family(const std::string& family, void (*register_family)(Registry&));
  // Throws std::invalid_argument on a duplicate name, an incomplete case, or a variant, shape or name that
  // breaks the rule of formats/names.h (the message names it, escaped, and gives the rule).
  void add(Case c);
  // The name of case variant/shape of the family being added: how register_<family>() names its own
  // cases in compared_with / speedup_over, as it is not told its family's name. Throws std::logic_error
  // outside add_family().
  std::string name_in_family(const std::string& variant, const std::string& shape) const;
  // Throws std::invalid_argument, naming both cases, where a compared_with or speedup_over names no
  // registered case, the case itself, or (from a perf case) a case that is never timed. Call it once
  // every family is added, as a reference may name a case added later. A reference into a family with
  // no case here is not checked: a build of a few families (GPUPERF_ONLY_FAMILIES) leaves it out.
  void validate_references() const;
  // The case named `name`, or nullptr.
  const Case* find(const std::string& name) const;
  const std::vector<Case>& cases() const { return cases_; }

 private:
  std::vector<Case> cases_;
  std::string adding_family_;  // while add_family() runs
};

// Every family's cases, references validated; generated by CMake from the families gpuperf_add_family()
// declared.
void register_all_families(Registry& registry);

}  // namespace gpuperf
