// The bank-conflicts family in one file (common/family.h): its sizes, how a transpose (or a copy) is
// checked bit for bit, and one set of cases per line of variants.def (whether a variant transposes
// decides its reference and its speedup's base, so each line is a set of its own, in the file's order).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bank_conflicts/bank_conflicts.cuh"
#include "common/case_references.h"
#include "common/check_side.h"
#include "common/device_compare.cuh"
#include "common/family.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"

namespace gpuperf {
namespace {

// The seed's naive transpose, which the other transposes' speedups are over (copy_frame is no transpose:
// it is compared with nothing of its family).
constexpr const char* kNaiveTranspose = "naive_global_transpose";

// The matrix is n x n. 1 (a single element), 33 and 1023 (one past / one short of a tile multiple), 1000
// (neither) catch bounds bugs in partial tiles; 4096 (64 MiB per matrix, timed only) and 8192 (256 MiB)
// are several times any L2.
const std::vector<std::int64_t> kTransposeCheckedSizes = {1, 33, 1000, 1023};
const std::vector<std::int64_t> kTransposePerfSizes = {8192};      // timed and checked
const std::vector<std::int64_t> kTransposePerfOnlySizes = {4096};  // timed only

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

// The n x n input and output of one size.
struct TransposeState {
  explicit TransposeState(const Point& point)
      : n(static_cast<int>(point.get("n"))),
        in(static_cast<std::size_t>(n) * n),
        out(static_cast<std::size_t>(n) * n) {}

  int n;
  DeviceBuffer<float> in;
  DeviceBuffer<float> out;
};

template <bool kTransposes>
CheckResult check_transpose(TransposeState& s) {
  const std::int64_t elements = std::int64_t{s.n} * s.n;
  if (!checked_on_host(elements)) {
    return compare_equal_on_device(TransposeSource{s.in.get(), s.n, kTransposes}, s.out.get(), elements);
  }
  return compare_transpose_exact(s.in.to_host(), s.out.to_host(), s.n, kTransposes);
}

// The cases of one variant: every size, each matrix read once and written once.
template <bool kTransposes>
void add_transpose_variant(Family& family, const char* name, bank_conflicts::Launcher launch) {
  family.cases<TransposeState>()
      .sizes(kTransposePerfSizes, kTransposeCheckedSizes, kTransposePerfOnlySizes)
      .inputs([](TransposeState& s, std::uint64_t seed) { fill_uniform(s.in, -1.0f, 1.0f, seed); })
      .poison([](TransposeState& s) { poison(s.out); })
      .check(check_transpose<kTransposes>)
      .bytes([](const Point& p) {
        const double elements = static_cast<double>(p.get("n")) * static_cast<double>(p.get("n"));
        return GlobalMemoryBytes().reads<float>(elements).writes<float>(elements);
      })
      .compared_with(device_copy_ceiling())
      .speedup_over(kTransposes ? kNaiveTranspose : "")
      .variant(name, [launch](TransposeState& s, cudaStream_t stream) {
        launch({s.in.get(), s.out.get(), s.n}, stream);
      });
}

}  // namespace
}  // namespace gpuperf

GPUPERF_FAMILY(bank_conflicts) {
  // The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and
  // one line there.
#define GPUPERF_VARIANT(name, transposes) \
  gpuperf::add_transpose_variant<transposes>(family, #name, gpuperf::bank_conflicts::name);
#include "bank_conflicts/variants.def"
#undef GPUPERF_VARIANT
}
