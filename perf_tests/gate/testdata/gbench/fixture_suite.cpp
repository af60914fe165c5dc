// The Google Benchmark suite that wrote this folder's fixtures: a team's suite as the gate meets it, with
// manual time (a GPU suite's CUDA events, here a fixed time per iteration so that the tests can assert the
// samples), real time, a template, named arguments, threads and a failing benchmark. No GPU needed.
// Built and run with Debian's libbenchmark-dev 1.7.1 (make_fixtures.sh), not by the project's build:
//   g++ -O2 -std=c++17 fixture_suite.cpp -lbenchmark -lpthread -o fixture_suite
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

// saxpy over n floats; the iteration's time is set to 2 us + 10 ns per element [seconds], as a GPU suite
// sets the time its CUDA events measured.
void BM_saxpy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) y[i] = 2.5f * x[i] + y[i];
    benchmark::DoNotOptimize(y.data());
    state.SetIterationTime(2e-6 + 1e-8 * static_cast<double>(n));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(3 * n * sizeof(float)));
}
BENCHMARK(BM_saxpy)->Arg(1024)->Arg(4096)->UseManualTime();

template <typename T>
void BM_copy(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<T> from(n, T(1)), to(n);
  for (auto _ : state) {
    std::copy(from.begin(), from.end(), to.begin());
    benchmark::ClobberMemory();
  }
}
BENCHMARK_TEMPLATE(BM_copy, float)->Arg(4096)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_gemm(benchmark::State& state) {
  for (auto _ : state) {
    state.SetIterationTime(1e-6 * static_cast<double>(state.range(0)) * static_cast<double>(state.range(1)) / 64.0);
  }
  // A counter named as one of the harness's: another suite's counters are not the harness's and are not read.
  state.counters["throttled"] = 1;
}
BENCHMARK(BM_gemm)->ArgNames({"m", "n"})->Args({64, 32})->UseManualTime();

void BM_spin(benchmark::State& state) {
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (int i = 0; i < 1000; ++i) benchmark::DoNotOptimize(sum += static_cast<std::uint64_t>(i));
  }
}
BENCHMARK(BM_spin)->Threads(2);

void BM_fails(benchmark::State& state) {
  for (auto _ : state) {
    state.SkipWithError("result mismatch at index 3");
    break;
  }
}
BENCHMARK(BM_fails)->UseManualTime();

}  // namespace

BENCHMARK_MAIN();
