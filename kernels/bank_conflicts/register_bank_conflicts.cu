// The bank-conflicts family's registry: its variants, its sizes, and how one case is checked.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bank_conflicts/bank_conflicts.cuh"
#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/device_compare.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"

namespace gpuperf {
namespace {

using bank_conflicts::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
  bool transposes;  // false: copy_frame, whose output is its input
};

// The seed's naive transpose, which the other transposes' speedups are over (copy_frame is no transpose:
// it is compared with nothing of its family).
constexpr const char* kNaiveTranspose = "naive_global_transpose";

// The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and one
// line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name, transposes) {#name, bank_conflicts::name, transposes},
#include "bank_conflicts/variants.def"
#undef GPUPERF_VARIANT
};

struct MatrixSize {
  int n;  // the matrix is n x n
  unsigned roles;
};

// 1 (a single element), 33 and 1023 (one past / one short of a tile multiple), 1000 (neither) catch
// bounds bugs in partial tiles; 4096 (64 MiB per matrix) and 8192 (256 MiB) are several times any L2.
const MatrixSize kSizes[] = {
    {1, kCorrectness}, {33, kCorrectness}, {1000, kCorrectness}, {1023, kCorrectness},
    {4096, kPerf},     {8192, kBoth},
};

constexpr std::size_t kMismatchesShown = 5;

// Exact, bitwise comparison of out with in (copy) or in transposed. A poisoned (NaN) element never
// equals a random input in [-1, 1). Walks the output in 64x64 blocks so the transposed reads of `in`
// stay in cache. Local helper: common/compare.h has no float-exact or matrix-indexed comparison.
CheckResult compare_transpose_exact(const std::vector<float>& in, const std::vector<float>& out, int n,
                                    bool transposed) {
  constexpr int kBlock = 64;
  const std::size_t size = static_cast<std::size_t>(n) * n;
  if (in.size() != size || out.size() != size) return CheckResult::fail("buffer sizes differ from n*n");
  std::size_t bad = 0;
  std::ostringstream first;
  first.precision(9);
  for (int r0 = 0; r0 < n; r0 += kBlock) {
    for (int c0 = 0; c0 < n; c0 += kBlock) {
      for (int r = r0; r < std::min(n, r0 + kBlock); ++r) {
        for (int c = c0; c < std::min(n, c0 + kBlock); ++c) {
          const std::size_t row_major = static_cast<std::size_t>(r) * n + c;
          const float got = out[row_major];
          const float want = in[transposed ? static_cast<std::size_t>(c) * n + r : row_major];
          if (std::memcmp(&got, &want, sizeof(float)) == 0) continue;
          if (bad++ < kMismatchesShown) {
            first << " out[" << r << "][" << c << "] got " << got << " want " << want << ";";
          }
        }
      }
    }
  }
  if (bad == 0) return CheckResult::pass();
  return CheckResult::fail(std::to_string(bad) + " of " + std::to_string(size) + " elements differ:" + first.str());
}

// out[r][c] of the n x n output: in[c][r] (a transpose) or in[r][c] (copy_frame). For the large sizes,
// compared on the GPU bit for bit (common/device_compare.cuh).
struct TransposeSource {
  const float* in;
  int n;
  bool transposed;
  __device__ float operator()(std::int64_t i) const {
    const std::int64_t r = i / n;
    const std::int64_t c = i % n;
    return in[transposed ? c * n + r : i];
  }
};

class TransposeInstance final : public Instance {
 public:
  TransposeInstance(const Variant& variant, int n)
      : variant_(variant), n_(n), in_(static_cast<std::size_t>(n) * n), out_(static_cast<std::size_t>(n) * n) {}

  void generate(std::uint64_t seed) override { fill_uniform(in_, -1.0f, 1.0f, seed); }
  void poison() override { gpuperf::poison(out_); }
  void run(cudaStream_t stream) override { variant_.launch({in_.get(), out_.get(), n_}, stream); }
  CheckResult verify() override {
    const std::int64_t elements = std::int64_t{n_} * n_;
    if (!checked_on_host(elements)) {
      return compare_equal_on_device(TransposeSource{in_.get(), n_, variant_.transposes}, out_.get(), elements);
    }
    return compare_transpose_exact(in_.to_host(), out_.to_host(), n_, variant_.transposes);
  }

 private:
  const Variant& variant_;
  int n_;
  DeviceBuffer<float> in_;
  DeviceBuffer<float> out_;
};

}  // namespace

void register_bank_conflicts(Registry& registry) {
  add_variant_cases(registry, kVariants, kSizes, [&registry](Case& c, const Variant& variant, const MatrixSize& size) {
    c.shape = shape({{"n", size.n}});
    const double elements = static_cast<double>(size.n) * size.n;
    c.bytes = GlobalMemoryBytes().reads<float>(elements).writes<float>(elements);  // each read once, written once
    c.compared_with = device_copy_ceiling();
    if (variant.transposes) c.speedup_over = speedup_over_naive(registry, kNaiveTranspose, c);
    c.make = [&variant, n = size.n] { return std::make_unique<TransposeInstance>(variant, n); };
  });
}

}  // namespace gpuperf
