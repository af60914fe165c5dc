// The GPU comparisons and library sums of kernels/common on a real GPU (part of gpuperf_correctness, which
// exits 77 without one): on the same data they find what the host comparisons find, so a large case
// checked on the GPU is checked as strictly as a small one checked on the host.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/compare.h"
#include "common/device_buffer.cuh"
#include "common/device_compare.cuh"
#include "common/device_sums.cuh"
#include "common/random_fill.cuh"

namespace gpuperf {
namespace {

constexpr std::int64_t kElements = 1000003;  // odd: no multiple of a block or a vector width
constexpr double kAbsTol = 1e-6;
constexpr double kRelTol = 1e-6;

// The reference of a made-up kernel out[i] = 3 x[i] - 1, evaluated on either side.
struct ThreeXMinusOne {
  const float* x;
  __host__ __device__ double operator()(std::int64_t i) const { return 3.0 * x[i] - 1.0; }
};

struct Source {
  const float* in;
  __device__ float operator()(std::int64_t i) const { return in[i]; }
};

__global__ void three_x_minus_one(const float* x, float* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = 3.0f * x[i] - 1.0f;
}

// The part of a failure message both sides word alike: "<count> of <n> elements <what>: [<first>] got".
std::string head_of(const std::string& message) { return message.substr(0, message.find(" got ")); }

class DeviceCompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fill_uniform(x_, -1.0f, 1.0f, 20261124);
    three_x_minus_one<<<(kElements + 255) / 256, 256>>>(x_.get(), out_.get(), kElements);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  void set_out(std::int64_t i, float value) {
    ASSERT_EQ(cudaMemcpy(out_.get() + i, &value, sizeof value, cudaMemcpyHostToDevice), cudaSuccess);
  }
  CheckResult on_host() {
    const std::vector<float> x = x_.to_host();
    return compare_close(expected_values(ThreeXMinusOne{x.data()}, kElements), out_.to_host(), kAbsTol, kRelTol);
  }
  CheckResult on_device() {
    return compare_close_on_device(ThreeXMinusOne{x_.get()}, out_.get(), kElements, kAbsTol, kRelTol);
  }

  DeviceBuffer<float> x_{kElements};
  DeviceBuffer<float> out_{kElements};
};

TEST_F(DeviceCompareTest, RightOutputPassesOnBothSides) {
  EXPECT_TRUE(on_host().ok) << on_host().message;
  EXPECT_TRUE(on_device().ok) << on_device().message;
}

TEST_F(DeviceCompareTest, BothSidesFindTheSameMismatches) {
  const std::vector<float> out = out_.to_host();
  set_out(kElements - 1, out[kElements - 1] + 0.01f);          // the last element, off
  set_out(500000, std::numeric_limits<float>::quiet_NaN());    // never written (the poison is a NaN)
  set_out(17, out[17] * (1.0f + 1e-5f) + 1e-5f);                // just outside the tolerance
  const CheckResult host = on_host();
  const CheckResult device = on_device();
  ASSERT_FALSE(host.ok);
  ASSERT_FALSE(device.ok);
  EXPECT_EQ(head_of(device.message), "3 of 1000003 elements outside abs 1e-06 + rel 1e-06: [17]") << device.message;
  EXPECT_EQ(head_of(device.message), head_of(host.message)) << host.message << "\n" << device.message;
}

TEST_F(DeviceCompareTest, EqualBitsFindsAPoisonedWord) {
  // out compared with itself passes; one element poisoned (all bits set) in a copy of it does not.
  DeviceBuffer<float> copy(kElements);
  ASSERT_EQ(cudaMemcpy(copy.get(), out_.get(), out_.bytes(), cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_TRUE(compare_equal_on_device(Source{out_.get()}, copy.get(), kElements).ok);
  ASSERT_EQ(cudaMemset(copy.get() + 123456, 0xFF, sizeof(float)), cudaSuccess);
  const CheckResult result = compare_equal_on_device(Source{out_.get()}, copy.get(), kElements);
  ASSERT_FALSE(result.ok);
  EXPECT_EQ(head_of(result.message), "1 of 1000003 elements differ: [123456]") << result.message;
}

TEST_F(DeviceCompareTest, NoElementsPass) {
  EXPECT_TRUE(compare_close_on_device(ThreeXMinusOne{x_.get()}, out_.get(), 0, 0.0, 0.0).ok);
}

TEST(DeviceSumsTest, AgreeWithTheHost) {
  constexpr std::int64_t n = (std::int64_t{1} << 22) + 5;
  DeviceBuffer<int> a(n);
  DeviceBuffer<int> b(n);
  fill_uniform(a, -1000, 1000, 7);
  fill_uniform(b, -1, 1, 8);
  const std::vector<int> host_a = a.to_host();
  const std::vector<int> host_b = b.to_host();
  std::int64_t sum = 0;
  std::int64_t equal = 0;
  for (std::size_t i = 0; i < host_a.size(); ++i) {
    sum += host_a[i];
    equal += host_a[i] == host_b[i] ? 1 : 0;
  }
  ASSERT_GT(equal, 0);  // b in [-1, 1] meets a in [-1000, 1000] now and then
  EXPECT_EQ(sum_on_device(a.get(), n), sum);
  EXPECT_EQ(count_equal_on_device(a.get(), b.get(), n), equal);
  EXPECT_EQ(count_equal_on_device(a.get(), a.get(), n), n);
}

}  // namespace
}  // namespace gpuperf
