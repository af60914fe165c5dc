// The ceiling family in one file (common/family.h): its sizes, how each operation is checked, and one
// set of cases per line of variants.def (a variant's operation decides its buffers and its check, so each
// line is a set of its own, in the file's order). These are what the other families are compared with:
// no compared_with, no speedups.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "ceiling/ceiling.cuh"
#include "common/case_references.h"
#include "common/check_side.h"
#include "common/compare.h"
#include "common/device_compare.cuh"
#include "common/device_sums.cuh"
#include "common/family.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"

namespace gpuperf {
namespace {

using ceiling::Operation;

// 2^28 int32 = 1 GiB (the ceilings GPU.md quotes), the size other families' compared_with names
// (common/case_references.h); checked at 1 and the prime 1000003 (not a multiple of 4): the tails.
const std::vector<std::int64_t> kCeilingPerfSizes = {kCeilingPerfElements};

// Fewest bytes one run moves: a copy reads and writes every element, the others touch each once (the
// read's block sums written: not counted).
double bytes_moved(Operation op, std::int64_t n) {
  switch (op) {
    case Operation::kCopy: return GlobalMemoryBytes().reads<int>(n).writes<int>(n);
    case Operation::kRead: return GlobalMemoryBytes().reads<int>(n);
    case Operation::kFill: return GlobalMemoryBytes().writes<int>(n);
  }
  return 0.0;
}

// Copy: the full int range below 2^30, so a misplaced element is caught. Read: [1, 7], all positive so
// that a skipped or doubled element always changes the sum, and every block sum stays far below 2^31.
constexpr int kCopyMin = -(1 << 30);
constexpr int kCopyMax = 1 << 30;
constexpr int kReadMin = 1;
constexpr int kReadMax = 7;

// The memset byte from the seed: never 0 (zeros hide nothing) and never the poison byte.
unsigned char fill_byte_from(std::uint64_t seed) {
  const auto byte = static_cast<unsigned char>(1 + seed % 254);  // 1..254
  return byte == kIntPoisonByte ? 0x55 : byte;
}

constexpr std::size_t kMismatchesShown = 5;

// Exact comparison of int32 words without widening 2^28 of them to int64 (compare_exact would need
// 4 GiB of host memory for the 1 GiB case). expected(i) gives the wanted word.
template <typename Expected>
CheckResult compare_words(const std::vector<int>& actual, Expected expected) {
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const int want = expected(i);
    if (actual[i] == want) continue;
    if (bad++ < kMismatchesShown) first << " [" << i << "] got " << actual[i] << " want " << want << ";";
  }
  if (bad == 0) return CheckResult::pass();
  return CheckResult::fail(std::to_string(bad) + " of " + std::to_string(actual.size()) +
                           " elements differ:" + first.str());
}

// The expected words of a copy and of a fill, compared on the GPU for the large sizes
// (common/device_compare.cuh).
struct CopiedWord {
  const int* in;
  __device__ int operator()(std::int64_t i) const { return in[i]; }
};
struct FilledWord {
  int word;
  __device__ int operator()(std::int64_t) const { return word; }
};

// The buffers of one size for a variant of operation kOp; a kRead variant writes kPartialsFor(n) block
// sums.
template <Operation kOp, std::int64_t (*kPartialsFor)(std::int64_t)>
struct CeilingState {
  explicit CeilingState(const Point& point)
      : n(point.get("n")),
        in(kOp == Operation::kFill ? 0 : static_cast<std::size_t>(n)),
        out(kOp == Operation::kRead ? 0 : static_cast<std::size_t>(n)),
        partials(partials_count(n)) {}

  static std::size_t partials_count(std::int64_t n) {
    if constexpr (kOp == Operation::kRead) {
      static_assert(kPartialsFor != nullptr, "ceiling/variants.def: a kRead variant names its partials_for");
      return static_cast<std::size_t>(kPartialsFor(n));
    } else {
      return 0;
    }
  }

  std::int64_t n;  // [int32 elements]
  DeviceBuffer<int> in;
  DeviceBuffer<int> out;
  DeviceBuffer<int> partials;
  unsigned char fill_byte = 1;
};

template <Operation kOp, std::int64_t (*kPartialsFor)(std::int64_t)>
CheckResult check_ceiling(CeilingState<kOp, kPartialsFor>& s) {
  const bool on_host = checked_on_host(s.n);
  if constexpr (kOp == Operation::kCopy) {
    if (!on_host) return compare_equal_on_device(CopiedWord{s.in.get()}, s.out.get(), s.n);
    const std::vector<int> in = s.in.to_host();
    return compare_words(s.out.to_host(), [&in](std::size_t i) { return in[i]; });
  } else if constexpr (kOp == Operation::kRead) {
    std::int64_t expected = 0;
    if (on_host) {
      for (int v : s.in.to_host()) expected += v;
    } else {
      expected = sum_on_device(s.in.get(), s.n);  // a library's sum (common/device_sums.cuh)
    }
    std::int64_t actual = 0;
    for (int partial : s.partials.to_host()) actual += partial;
    return compare_exact({expected}, {actual});
  } else {
    const int word = static_cast<int>(0x01010101u * s.fill_byte);
    if (!on_host) return compare_equal_on_device(FilledWord{word}, s.out.get(), s.n);
    return compare_words(s.out.to_host(), [word](std::size_t) { return word; });
  }
}

// The cases of one variant: every size, its operation's inputs, check and bytes.
template <Operation kOp, std::int64_t (*kPartialsFor)(std::int64_t)>
void add_ceiling_variant(Family& family, const char* name, ceiling::Launcher launch) {
  using State = CeilingState<kOp, kPartialsFor>;
  family.cases<State>()
      .sizes(kCeilingPerfSizes)
      .inputs([](State& s, std::uint64_t seed) {
        if constexpr (kOp == Operation::kCopy) fill_uniform(s.in, kCopyMin, kCopyMax, seed);
        if constexpr (kOp == Operation::kRead) fill_uniform(s.in, kReadMin, kReadMax, seed);
        s.fill_byte = fill_byte_from(seed);
      })
      .poison([](State& s) {
        if (s.out.size() > 0) poison(s.out);
        if (s.partials.size() > 0) poison(s.partials);
      })
      .check(check_ceiling<kOp, kPartialsFor>)
      .bytes([](const Point& p) { return bytes_moved(kOp, p.get("n")); })
      .variant(name, [launch](State& s, cudaStream_t stream) {
        launch({s.in.get(), s.out.get(), s.partials.get(), s.n, s.fill_byte}, stream);
      });
}

}  // namespace
}  // namespace gpuperf

GPUPERF_FAMILY(ceiling) {
  using gpuperf::ceiling::Operation;
  namespace ceiling = gpuperf::ceiling;
  // The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and
  // one line there.
#define GPUPERF_VARIANT(name, launcher, operation, partials_for) \
  gpuperf::add_ceiling_variant<operation, partials_for>(family, #name, ceiling::launcher);
#include "ceiling/variants.def"
#undef GPUPERF_VARIANT
}
