// The cases of a family in one file (common/family.h) on a real GPU (part of gpuperf_correctness, which
// exits 77 without one): a right kernel passes its check, and the bugs the Instance contract exists to
// catch fail it: a tail left unwritten, an output written once and then no more (poisoned before every
// checked run), a wrong integer, a wrong sum; the point's axes reach the launcher.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/compare.h"
#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/family.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "harness/case_check.h"

namespace {

constexpr float kA = 1.5f;
constexpr int kThreads = 256;

// out = a x + y; `stop` elements written (n: all; less: a tail bug).
__global__ void saxpy_kernel(const float* x, const float* y, float* out, std::int64_t stop) {
  const std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i < stop) out[i] = kA * x[i] + y[i];
}
void saxpy_up_to(const float* x, const float* y, float* out, std::int64_t stop, cudaStream_t stream) {
  if (stop <= 0) return;
  saxpy_kernel<<<static_cast<unsigned>((stop + kThreads - 1) / kThreads), kThreads, 0, stream>>>(x, y, out, stop);
  GPUPERF_CHECK_LAUNCH();
}

// out = x + y + offset over ints, with `threads` threads a block (a block-size axis).
__global__ void add_kernel(const int* x, const int* y, int* out, std::int64_t n, int offset) {
  const std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i] + offset;
}
void add(const int* x, const int* y, int* out, std::int64_t n, int threads, int offset, cudaStream_t stream) {
  if (n == 0) return;
  add_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads, 0, stream>>>(x, y, out, n, offset);
  GPUPERF_CHECK_LAUNCH();
}

// out[0] = the sum of in[first..n), by atomics (first = 1: a sum that leaves an element out).
__global__ void sum_kernel(const int* in, std::int64_t n, std::int64_t first, int* out) {
  const std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i >= first && i < n) atomicAdd(out, in[i]);
}

// A state of the team's own for the lambda cases: an int sum.
struct Sum {
  explicit Sum(const gpuperf::Point& p) : n(p.get("n")), in(static_cast<std::size_t>(n)), out(1) {}
  std::int64_t n;
  gpuperf::DeviceBuffer<int> in;
  gpuperf::DeviceBuffer<int> out;
};
void sum_from(Sum& s, std::int64_t first, cudaStream_t stream) {
  GPUPERF_CUDA_CHECK(cudaMemsetAsync(s.out.get(), 0, sizeof(int), stream));
  sum_kernel<<<static_cast<unsigned>((s.n + kThreads - 1) / kThreads), kThreads, 0, stream>>>(s.in.get(), s.n, first,
                                                                                              s.out.get());
  GPUPERF_CHECK_LAUNCH();
}

int runs_of_once = 0;  // how often the variant "once" ran: it writes its output the first time only

}  // namespace

GPUPERF_FAMILY(gpu_onefile) {
  using gpuperf::Point;
  family.elementwise<float(float, float)>()
      .sizes({std::int64_t{1} << 20})
      .expected([](std::int64_t i, const float* x, const float* y) { return double{kA} * x[i] + y[i]; })
      .tolerance(1e-6, 1e-6)  // one or two float roundings of |a x + y| <= 2.5
      .variant("right", [](const float* x, const float* y, float* out, std::int64_t n, cudaStream_t s) {
        saxpy_up_to(x, y, out, n, s);
      })
      .variant("tail_left_out", [](const float* x, const float* y, float* out, std::int64_t n, cudaStream_t s) {
        saxpy_up_to(x, y, out, n / 4 * 4, s);
      })
      .variant("once", [](const float* x, const float* y, float* out, std::int64_t n, cudaStream_t s) {
        if (runs_of_once++ == 0) saxpy_up_to(x, y, out, n, s);
      });
  family.elementwise<int(int, int)>()
      .axes({gpuperf::size_axis("n", {1 << 20}), gpuperf::int_axis("threads", {64, 1024})})
      .expected([](std::int64_t i, const int* x, const int* y) { return x[i] + y[i]; })
      .variant("add", [](const int* x, const int* y, int* out, std::int64_t n, cudaStream_t s, const Point& p) {
        add(x, y, out, n, static_cast<int>(p.get("threads")), 0, s);
      })
      .variant("add_off_by_one", [](const int* x, const int* y, int* out, std::int64_t n, cudaStream_t s, const Point& p) {
        add(x, y, out, n, static_cast<int>(p.get("threads")), 1, s);
      });
  family.cases<Sum>()
      .sizes({1 << 20})
      .inputs([](Sum& s, std::uint64_t seed) { gpuperf::fill_uniform(s.in, -3, 3, seed); })
      .poison([](Sum& s) { gpuperf::poison(s.out); })
      .check([](Sum& s) {
        std::int64_t sum = 0;
        for (int v : s.in.to_host()) sum += v;
        return gpuperf::compare_exact({sum}, {std::int64_t{s.out.to_host()[0]}});
      })
      .variant("sum", [](Sum& s, cudaStream_t stream) { sum_from(s, 0, stream); })
      .variant("sum_first_left_out", [](Sum& s, cudaStream_t stream) { sum_from(s, 1, stream); });
}

namespace gpuperf {
namespace {

class FamilyGpuTest : public ::testing::Test {
 protected:
  void SetUp() override { registry_.add_family("gpu_onefile", register_gpu_onefile); }
  // One checked run of the case, as the correctness test and the perf test's first process do.
  CheckResult check(const std::string& variant_and_shape, std::uint64_t seed = 20261127) {
    const Case* c = registry_.find("gpu_onefile/" + variant_and_shape);
    if (c == nullptr) return CheckResult::fail("no case " + variant_and_shape);
    const std::unique_ptr<Instance> instance = c->make();
    return run_checked(*instance, seed, nullptr);
  }
  Registry registry_;
};

TEST_F(FamilyGpuTest, ARightElementWiseKernelPassesAtEverySize) {
  for (const char* shape : {"n:1", "n:1000003", "n:1048576"}) {
    const CheckResult result = check(std::string("right/") + shape);
    EXPECT_TRUE(result.ok) << shape << ": " << result.message;
  }
}

TEST_F(FamilyGpuTest, ATailLeftUnwrittenFailsAtTheOddSizeAndNamesTheElements) {
  const CheckResult odd = check("tail_left_out/n:1000003");
  EXPECT_FALSE(odd.ok);
  EXPECT_NE(odd.message.find("3 of 1000003 elements outside abs 1e-06 + rel 1e-06: [1000000] got "), std::string::npos)
      << odd.message;
  EXPECT_NE(odd.message.find("nan"), std::string::npos) << "poisoned: " << odd.message;
  EXPECT_TRUE(check("tail_left_out/n:1048576").ok) << "a multiple of 4 has no tail: why the odd sizes are checked";
}

TEST_F(FamilyGpuTest, AnOutputWrittenOnlyByAnEarlierRunIsPoisonedAway) {
  runs_of_once = 0;
  const Case* c = registry_.find("gpu_onefile/once/n:1000003");
  ASSERT_NE(c, nullptr);
  const std::unique_ptr<Instance> instance = c->make();
  EXPECT_TRUE(run_checked(*instance, 1, nullptr).ok) << "the first run writes the output";
  const CheckResult again = run_checked(*instance, 2, nullptr);
  EXPECT_FALSE(again.ok) << "fresh inputs and a poisoned output: the second run wrote nothing";
  EXPECT_NE(again.message.find("1000003 of 1000003 elements"), std::string::npos) << again.message;
}

TEST_F(FamilyGpuTest, IntegersAreComparedExactlyAndThePointReachesTheLauncher) {
  for (const char* shape : {"n:1,threads:64", "n:1000003,threads:1024", "n:1048576,threads:64"}) {
    const CheckResult result = check(std::string("add/") + shape);
    EXPECT_TRUE(result.ok) << shape << ": " << result.message;
  }
  const CheckResult off = check("add_off_by_one/n:1000003,threads:64");
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.message.find("1000003 of 1000003 elements differ"), std::string::npos) << off.message;
}

TEST_F(FamilyGpuTest, LambdaCasesCheckWhatTheTeamsCheckSays) {
  EXPECT_TRUE(check("sum/n:1").ok);
  EXPECT_TRUE(check("sum/n:1000003").ok);
  EXPECT_TRUE(check("sum/n:1048576").ok);
  // The element left out is in [-3, 3]: the sum differs unless it was 0 (1 in 7), so of 4 seeds some fail.
  int failures = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) failures += check("sum_first_left_out/n:1000003", seed).ok ? 0 : 1;
  EXPECT_GE(failures, 1) << "a sum that leaves an element out fails";
}

}  // namespace
}  // namespace gpuperf
