// The launch gate on a real GPU (part of gpuperf_correctness, which exits 77 without one): work behind
// it waits for the host, and a host that never opens it is reported, not hung on.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include <cuda_runtime.h>

#include "harness/launch_gate.cuh"

namespace gpuperf {
namespace {

using namespace std::chrono_literals;

class LaunchGateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(cudaStreamCreate(&stream_), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&done_), cudaSuccess);
  }
  void TearDown() override {
    cudaEventDestroy(done_);
    cudaStreamDestroy(stream_);
  }
  cudaStream_t stream_ = nullptr;
  cudaEvent_t done_ = nullptr;
};

TEST_F(LaunchGateTest, HoldsTheStreamUntilTheHostIsDone) {
  LaunchGate gate;
  {
    const LaunchGate::Held held = gate.hold(stream_);
    ASSERT_EQ(cudaEventRecord(done_, stream_), cudaSuccess);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(cudaEventQuery(done_), cudaErrorNotReady) << "the work ran before the gate opened";
  }
  ASSERT_EQ(cudaEventSynchronize(done_), cudaSuccess);
  EXPECT_NO_THROW(gate.check());
}

TEST_F(LaunchGateTest, GivesUpAfterItsTimeoutAndSaysSo) {
  LaunchGate gate(0.05);
  {
    const LaunchGate::Held held = gate.hold(stream_);
    std::this_thread::sleep_for(300ms);
  }
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  EXPECT_THROW(gate.check(), std::runtime_error);
  {
    const LaunchGate::Held held = gate.hold(stream_);
  }
  ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  EXPECT_NO_THROW(gate.check()) << "the next sample starts afresh";
}

}  // namespace
}  // namespace gpuperf
