// The ceiling family's registry: its variants, its sizes, and how one case is checked.
#include <sstream>
#include <string>
#include <vector>

#include "ceiling/ceiling.cuh"
#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/device_compare.cuh"
#include "common/device_sums.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"

namespace gpuperf {
namespace {

using ceiling::Launcher;
using ceiling::Operation;

struct Variant {
  const char* name;
  Operation op;
  Launcher launch;
  std::int64_t (*partials_for)(std::int64_t n);  // kRead only: how many block sums the launcher writes
};

// The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and one
// line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name, launcher, operation, partials_for) {#name, operation, ceiling::launcher, partials_for},
#include "ceiling/variants.def"
#undef GPUPERF_VARIANT
};

// 2^28 int32 = 1 GiB (the ceilings GPU.md quotes), the size other families' compared_with names
// (common/case_references.h); 1 and the prime 1000003 (not a multiple of 4) check the tails.
const Size kSizes[] = {
    {1, kCorrectness},
    {1000003, kCorrectness},
    {kCeilingPerfElements, kBoth},
};

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

class CeilingInstance final : public Instance {
 public:
  CeilingInstance(const Variant& variant, std::int64_t n)
      : variant_(variant),
        n_(n),
        in_(variant.op == Operation::kFill ? 0 : static_cast<std::size_t>(n)),
        out_(variant.op == Operation::kRead ? 0 : static_cast<std::size_t>(n)),
        partials_(variant.op == Operation::kRead ? static_cast<std::size_t>(variant.partials_for(n)) : 0) {}

  void generate(std::uint64_t seed) override {
    if (variant_.op == Operation::kCopy) fill_uniform(in_, kCopyMin, kCopyMax, seed);
    if (variant_.op == Operation::kRead) fill_uniform(in_, kReadMin, kReadMax, seed);
    fill_byte_ = fill_byte_from(seed);
  }
  void poison() override {
    if (out_.size() > 0) gpuperf::poison(out_);
    if (partials_.size() > 0) gpuperf::poison(partials_);
  }
  void run(cudaStream_t stream) override {
    variant_.launch({in_.get(), out_.get(), partials_.get(), n_, fill_byte_}, stream);
  }

  CheckResult verify() override {
    const bool on_host = checked_on_host(n_);
    switch (variant_.op) {
      case Operation::kCopy: {
        if (!on_host) return compare_equal_on_device(CopiedWord{in_.get()}, out_.get(), n_);
        const std::vector<int> in = in_.to_host();
        return compare_words(out_.to_host(), [&in](std::size_t i) { return in[i]; });
      }
      case Operation::kRead: {
        std::int64_t expected = 0;
        if (on_host) {
          for (int v : in_.to_host()) expected += v;
        } else {
          expected = sum_on_device(in_.get(), n_);  // a library's sum (common/device_sums.cuh)
        }
        std::int64_t actual = 0;
        for (int partial : partials_.to_host()) actual += partial;
        return compare_exact({expected}, {actual});
      }
      case Operation::kFill: {
        const int word = static_cast<int>(0x01010101u * fill_byte_);
        if (!on_host) return compare_equal_on_device(FilledWord{word}, out_.get(), n_);
        return compare_words(out_.to_host(), [word](std::size_t) { return word; });
      }
    }
    return CheckResult::fail("unknown operation");
  }

 private:
  Variant variant_;
  std::int64_t n_;
  DeviceBuffer<int> in_;
  DeviceBuffer<int> out_;
  DeviceBuffer<int> partials_;
  unsigned char fill_byte_ = 1;
};

}  // namespace

void register_ceiling(Registry& registry) {
  add_variant_cases(registry, kVariants, kSizes, [](Case& c, const Variant& variant, const Size& size) {
    c.shape = shape({{"n", size.n}});
    c.bytes = bytes_moved(variant.op, size.n);
    // No compared_with or speedup_over: these are what the other families are compared with.
    c.make = [&variant, n = size.n] { return std::make_unique<CeilingInstance>(variant, n); };
  });
}

}  // namespace gpuperf
