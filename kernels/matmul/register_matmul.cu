// The matmul family's registry: its variants, its sizes, and how one case is checked. Written by hand,
// not with common/family.h: its shapes are a list of (m, n, k) triples with a reference each (CPU or
// cuBLAS), not a product of axes, and its tolerance, requirements and runs per sample vary by variant.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"
#include "matmul/matmul.cuh"

namespace gpuperf {
namespace {

using matmul::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
  bool tf32;  // products in TF32 (10-bit mantissa): looser tolerance
  // Rough throughput on an H100/H200 [TFLOP/s], only to pick runs_per_sample for short runs.
  double rough_tflops;
  const Requirements* needs = nullptr;  // beyond every built architecture, if anything
};

// The variants in variants.def's order; the first is the seed's naive variant, which the others' speedups
// are over. Adding a variant: its file <name>.cu with its launcher, and one line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name, tf32, rough_tflops, needs) {#name, matmul::name, tf32, rough_tflops, needs},
#include "matmul/variants.def"
#undef GPUPERF_VARIANT
};

enum class Reference {
  kCpuDouble,   // CPU, double precision: exact enough to judge FP32
  kCublasFp32,  // cuBLAS SGEMM in FP32, where the CPU would take too long
};

struct ProblemSize {
  int m;
  int n;
  int k;
  unsigned roles;
  Reference reference;
};

// 1 x 1 x 1 and sizes that are multiples of no tile (16, 128, BK, 4) catch edge bugs; 257 x 260 x 76 has
// N and K multiples of 4, so the float4 / 16-byte cp.async paths run there with partial tiles in all
// three dimensions. 1024^3 is the seed's size; 4096^3 is the usual SGEMM yardstick (3 x 64 MiB, several
// times any L2); 1000 x 1001 x 999 times the unaligned paths.
const ProblemSize kSizes[] = {
    {1, 1, 1, kCorrectness, Reference::kCpuDouble},
    {17, 33, 65, kCorrectness, Reference::kCpuDouble},
    {127, 129, 131, kCorrectness, Reference::kCpuDouble},
    {257, 260, 76, kCorrectness, Reference::kCpuDouble},
    {1000, 1001, 999, kBoth, Reference::kCpuDouble},
    {1024, 1024, 1024, kPerf, Reference::kCublasFp32},
    {4096, 4096, 4096, kPerf, Reference::kCublasFp32},
};

// Relative Frobenius-norm error allowed, ||C - C_ref|| / ||C_ref||. FP32 summation error grows like
// sqrt(K) * 2^-24 (~2e-6 at K = 4096); against cuBLAS both sides carry it. TF32 rounds the operands to
// 11 significant bits (~5e-4 per product).
constexpr double kFp32VsDouble = 1e-5;
constexpr double kFp32VsCublas = 1e-4;
constexpr double kTf32 = 5e-3;

// Inputs uniform in [-1, 1): no zeros, no growth with K beyond sqrt(K).
constexpr float kInputMin = -1.0f;
constexpr float kInputMax = 1.0f;

// Runs below this are batched in one timed sample [microseconds].
constexpr double kMinSampleUs = 20.0;

double flops_of(const ProblemSize& s) { return 2.0 * s.m * s.n * s.k; }

// The cuBLAS variant a variant's TFLOP/s are shown as a % of: the one that multiplies alike (TF32
// products or FP32), as SGEMM_CUDA shows each kernel against cuBLAS.
const Variant& library_variant_for(const Variant& variant) {
  const Launcher library = variant.tf32 ? matmul::cublas_sgemm_tf32 : matmul::cublas_sgemm;
  for (const Variant& candidate : kVariants) {
    if (candidate.launch == library) return candidate;
  }
  throw std::logic_error(std::string("matmul: no cuBLAS variant in the table for ") + variant.name);
}

// The first few elements far off the reference, as (row, col), to go with compare_relative_norm's
// verdict: "far" is beyond the allowed relative error times the reference's RMS.
std::string first_far_elements(const std::vector<double>& expected, const std::vector<float>& actual, int n,
                               double max_rel_error) {
  double sum2 = 0.0;
  for (double v : expected) sum2 += v * v;
  const double threshold = max_rel_error * std::sqrt(sum2 / static_cast<double>(expected.size()));
  std::ostringstream out;
  out.precision(9);
  int shown = 0;
  for (std::size_t i = 0; i < expected.size() && shown < 5; ++i) {
    const double error = std::abs(static_cast<double>(actual[i]) - expected[i]);
    if (error <= threshold) continue;  // false for NaN
    out << " [" << i / n << "," << i % n << "] got " << actual[i] << " want " << expected[i] << ";";
    ++shown;
  }
  return out.str();
}

class MatmulInstance final : public Instance {
 public:
  MatmulInstance(const Variant& variant, const ProblemSize& size)
      : variant_(variant),
        size_(size),
        a_(static_cast<std::size_t>(size.m) * size.k),
        b_(static_cast<std::size_t>(size.k) * size.n),
        c_(static_cast<std::size_t>(size.m) * size.n),
        reference_c_(size.reference == Reference::kCublasFp32 ? c_.size() : 0) {}

  void generate(std::uint64_t seed) override {
    fill_uniform(a_, kInputMin, kInputMax, seed);
    fill_uniform(b_, kInputMin, kInputMax, seed ^ 0x9E3779B97F4A7C15ull);  // a different stream for B
    reference_valid_ = false;
  }
  void poison() override { gpuperf::poison(c_); }
  void run(cudaStream_t stream) override { variant_.launch(args(c_.get()), stream); }

  CheckResult verify() override {
    if (!reference_valid_) compute_reference();
    const std::vector<float> actual = c_.to_host();
    const double tolerance = variant_.tf32                                   ? kTf32
                             : size_.reference == Reference::kCpuDouble ? kFp32VsDouble
                                                                          : kFp32VsCublas;
    CheckResult result = compare_relative_norm(reference_, actual, tolerance);
    if (!result.ok) {
      result.message = std::string("vs ") +
                       (size_.reference == Reference::kCpuDouble ? "CPU double" : "cuBLAS FP32") +
                       " reference: " + result.message + "; first far elements:" +
                       first_far_elements(reference_, actual, size_.n, tolerance);
    }
    return result;
  }

 private:
  matmul::Args args(float* c) { return {a_.get(), b_.get(), c, size_.m, size_.n, size_.k, &cublas_}; }

  void compute_reference() {
    reference_.assign(c_.size(), 0.0);
    if (size_.reference == Reference::kCpuDouble) {
      const std::vector<float> a = a_.to_host();
      const std::vector<float> b = b_.to_host();
      matmul::cpu_reference(a.data(), b.data(), reference_.data(), size_.m, size_.n, size_.k);
    } else {
      matmul::cublas_sgemm(args(reference_c_.get()), nullptr);
      const std::vector<float> c = reference_c_.to_host();  // synchronous with the legacy stream
      std::copy(c.begin(), c.end(), reference_.begin());
    }
    reference_valid_ = true;
  }

  const Variant& variant_;
  ProblemSize size_;
  DeviceBuffer<float> a_;
  DeviceBuffer<float> b_;
  DeviceBuffer<float> c_;
  DeviceBuffer<float> reference_c_;  // cuBLAS reference sizes only
  matmul::CublasContext cublas_;
  std::vector<double> reference_;
  bool reference_valid_ = false;
};

}  // namespace

void register_matmul(Registry& registry) {
  add_variant_cases(registry, kVariants, kSizes, [&registry](Case& c, const Variant& variant, const ProblemSize& size) {
    c.shape = shape({{"m", size.m}, {"n", size.n}, {"k", size.k}});
    // A and B read once, C written once.
    c.bytes = GlobalMemoryBytes()
                  .reads<float>(static_cast<double>(size.m) * size.k)
                  .reads<float>(static_cast<double>(size.k) * size.n)
                  .writes<float>(static_cast<double>(size.m) * size.n);
    c.flops = flops_of(size);
    const Variant& library = library_variant_for(variant);
    if (&library != &variant) c.compared_with = registry.name_in_family(library.name, c.shape);
    c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
    const double rough_us = flops_of(size) / (variant.rough_tflops * 1e6);
    c.runs_per_sample = std::max(1, static_cast<int>(std::ceil(kMinSampleUs / rough_us)));
    if (variant.needs != nullptr) c.needs = *variant.needs;
    c.make = [&variant, size] { return std::make_unique<MatmulInstance>(variant, size); };
  });
}

}  // namespace gpuperf
