#pragma once
// The cases of a kernel whose check is not element-wise (a sum, a sort, a matrix product), from lambdas
// over a State of the team's own: its device buffers for one point, made by State(const Point&) outside
// the timed region. Declared in a family's one file (common/family.h):
//
//   struct Sum {
//     explicit Sum(const gpuperf::Point& p) : n(p.get("n")), in(n), out(1) {}
//     std::int64_t n;
//     gpuperf::DeviceBuffer<int> in, out;
//   };
//   family.cases<Sum>()
//       .sizes({1 << 28})
//       .inputs([](Sum& s, std::uint64_t seed) { gpuperf::fill_uniform(s.in, -3, 3, seed); })
//       .poison([](Sum& s) { gpuperf::poison(s.out); })
//       .check([](Sum& s) { return gpuperf::compare_exact({host_sum(s.in)}, {s.out.to_host()[0]}); })
//       .bytes([](const gpuperf::Point& p) { return 4.0 * p.get("n"); })
//       .variant("atomic", [](Sum& s, cudaStream_t stream) { team::sum(s.in.get(), s.n, s.out.get(), stream); });
//
// The harness calls them as the Instance contract says (common/registry.h): inputs(state, seed) before
// every checked run, with a fresh seed (fill every input from it: common/random_fill.cuh), poison(state)
// on every output (common/poison.cuh), the variant's run(state, stream) alone in the timed region, and
// check(state) after it and a synchronisation.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "common/axes.h"
#include "common/case_set.h"
#include "common/registry.h"

namespace gpuperf {

namespace lambda_cases {

// The lambdas every case of one set shares (kept alive by its cases' make()).
template <typename State>
struct Lambdas {
  std::function<void(State&, std::uint64_t)> inputs;
  std::function<void(State&)> poison;
  std::function<CheckResult(State&)> check;
};

template <typename State>
using Run = std::function<void(State&, cudaStream_t, const Point&)>;

template <typename State>
class LambdaInstance final : public Instance {
 public:
  LambdaInstance(std::shared_ptr<const Lambdas<State>> lambdas, Run<State> run, Point point)
      : lambdas_(std::move(lambdas)), run_(std::move(run)), point_(std::move(point)), state_(point_) {}

  void generate(std::uint64_t seed) override { lambdas_->inputs(state_, seed); }
  void poison() override { lambdas_->poison(state_); }
  void run(cudaStream_t stream) override { run_(state_, stream, point_); }
  CheckResult verify() override { return lambdas_->check(state_); }

 private:
  std::shared_ptr<const Lambdas<State>> lambdas_;
  Run<State> run_;
  Point point_;
  State state_;
};

}  // namespace lambda_cases

template <typename State>
class LambdaCases final : public CaseSetSettings<LambdaCases<State>> {
  static_assert(std::is_constructible_v<State, const Point&>,
                "family.cases<State>(): State needs a constructor State(const gpuperf::Point&) that allocates its "
                "device buffers for the point (it is not timed)");
  using Base = CaseSetSettings<LambdaCases<State>>;

 public:
  explicit LambdaCases(std::string family) : Base("cases", std::move(family)) {}

  // Fills every input of the state with fresh random values drawn from seed (never zeros).
  LambdaCases& inputs(std::function<void(State&, std::uint64_t seed)> fill) {
    lambdas_.inputs = std::move(fill);
    return *this;
  }
  // Overwrites every output of the state (gpuperf::poison), so that an element never written shows.
  LambdaCases& poison(std::function<void(State&)> poison) {
    lambdas_.poison = std::move(poison);
    return *this;
  }
  // Compares the outputs with the reference, after a run and a synchronisation: CheckResult::pass(), or
  // fail() saying what differs (common/compare.h writes both).
  LambdaCases& check(std::function<CheckResult(State&)> check) {
    lambdas_.check = std::move(check);
    return *this;
  }
  // The fewest bytes one run moves through device memory at the point [bytes] (GlobalMemoryBytes).
  LambdaCases& bytes(std::function<double(const Point&)> bytes) {
    bytes_ = std::move(bytes);
    return *this;
  }
  // The arithmetic of one run at the point [floating-point operations].
  LambdaCases& flops(std::function<double(const Point&)> flops) {
    flops_ = std::move(flops);
    return *this;
  }
  // A variant: the name of its cases, and its timed region, run(State&, cudaStream_t) or run(State&,
  // cudaStream_t, const Point&). The first variant is the one the others' speedups are over.
  template <typename F>
  LambdaCases& variant(std::string name, F run) {
    if constexpr (std::is_invocable_v<F&, State&, cudaStream_t>) {
      runs_.push_back([run](State& state, cudaStream_t stream, const Point&) mutable { run(state, stream); });
    } else {
      static_assert(std::is_invocable_v<F&, State&, cudaStream_t, const Point&>,
                    "variant(name, run): run is called as run(State&, cudaStream_t), or with a last argument const "
                    "gpuperf::Point&");
      runs_.push_back(std::move(run));
    }
    this->variant_names_.push_back(std::move(name));
    return *this;
  }

  void add_to(Registry& registry) const override {
    const std::vector<Point> points = this->checked_points();
    if (!lambdas_.inputs) this->fail("no .inputs([](State&, std::uint64_t seed) {...}): fill every input from the seed");
    if (!lambdas_.poison) this->fail("no .poison([](State&) {...}): poison every output (gpuperf::poison)");
    if (!lambdas_.check) this->fail("no .check([](State&) -> gpuperf::CheckResult {...}): compare with the reference");
    const auto lambdas = std::make_shared<const lambda_cases::Lambdas<State>>(lambdas_);
    this->add_cases(registry, points, [&](Case& c, std::size_t variant, const Point& point) {
      if (bytes_) c.bytes = bytes_(point);
      if (flops_) c.flops = flops_(point);
      c.make = [lambdas, run = runs_[variant], point]() -> std::unique_ptr<Instance> {
        return std::make_unique<lambda_cases::LambdaInstance<State>>(lambdas, run, point);
      };
    });
  }

 private:
  lambda_cases::Lambdas<State> lambdas_;
  std::vector<lambda_cases::Run<State>> runs_;
  std::function<double(const Point&)> bytes_;
  std::function<double(const Point&)> flops_;
};

}  // namespace gpuperf
