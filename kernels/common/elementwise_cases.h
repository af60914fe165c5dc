#pragma once
// The cases of a kernel whose reference is element-wise: out[i] == expected(i, inputs...) for every i
// of arrays of n elements, n the point's axis "n". Declared in a family's one file (common/family.h):
//
//   family.elementwise<float(float, float)>()  // out, then the inputs: float arrays x and y
//       .sizes({1 << 26})                      // timed; checked there and at kOddSizes, 1 and 1000003
//       .expected([](std::int64_t i, const float* x, const float* y) { return 1.5 * x[i] + y[i]; })
//       .tolerance(1e-6, 1e-6)
//       .variant("naive", [](const float* x, const float* y, float* out, std::int64_t n, cudaStream_t s) {
//         saxpy::naive({x, y, 1.5f, n, out}, s);
//       });
//
// What each case does (the Instance contract, common/registry.h): before every checked run every input
// is filled with fresh uniform random values (inputs_between; a seed of its own per input) and the output
// poisoned (common/poison.cuh); run() is the variant's call alone; the check copies inputs and output to
// the host and compares every element with expected(i), evaluated there in double precision: within
// abs_tol + rel_tol * |expected| for floating outputs (common/compare.h, compare_close), exactly for
// integer ones. Bytes are the arrays' (each input read once, the output written once), flops
// flops_per_element a element.

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "common/axes.h"
#include "common/case_set.h"
#include "common/compare.h"
#include "common/device_buffer.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"

namespace gpuperf {

template <typename Signature>
class ElementWiseCases;

namespace elementwise {

// What expected(i, inputs...) is compared as: double for floating outputs, int64 (exactly) for integers.
template <typename Out>
using Value = std::conditional_t<std::is_floating_point_v<Out>, double, std::int64_t>;

// The settings every case of one set shares (kept alive by its cases' make()).
template <typename Out, typename... In>
struct Settings {
  // expected(i, inputs...) for every i of the vector, in one call, so that the loop is compiled with the
  // team's lambda inlined rather than calling through std::function per element.
  std::function<void(std::vector<Value<Out>>&, const In*...)> expected_values;
  double lo = 0.0;       // inputs' range: [lo, hi) for floating inputs, [lo, hi] for integers
  double hi = 0.0;
  double abs_tol = 0.0;  // floating outputs only
  double rel_tol = 0.0;
};

template <typename Out, typename... In>
using Run = std::function<void(const In*..., Out*, std::int64_t, cudaStream_t, const Point&)>;

template <typename Out, typename... In>
class ElementWiseInstance final : public Instance {
 public:
  ElementWiseInstance(std::shared_ptr<const Settings<Out, In...>> settings, Run<Out, In...> run, Point point)
      : settings_(std::move(settings)),
        run_(std::move(run)),
        point_(std::move(point)),
        n_(point_.get("n")),
        inputs_(DeviceBuffer<In>(static_cast<std::size_t>(n_))...),
        out_(static_cast<std::size_t>(n_)) {}

  void generate(std::uint64_t seed) override {
    std::uint64_t input = 0;
    std::apply([&](auto&... buffer) { (fill(buffer, seed + input++), ...); }, inputs_);
  }
  void poison() override { gpuperf::poison(out_); }
  void run(cudaStream_t stream) override {
    std::apply([&](auto&... buffer) { run_(buffer.get()..., out_.get(), n_, stream, point_); }, inputs_);
  }

  CheckResult verify() override {
    const auto inputs = std::apply([](const auto&... buffer) { return std::make_tuple(buffer.to_host()...); }, inputs_);
    const std::vector<Out> actual = out_.to_host();
    std::vector<Value<Out>> expected(actual.size());
    std::apply([&](const auto&... input) { settings_->expected_values(expected, input.data()...); }, inputs);
    if constexpr (std::is_floating_point_v<Out>) {
      return compare_close(expected, actual, settings_->abs_tol, settings_->rel_tol);
    } else {
      return compare_exact(expected, std::vector<std::int64_t>(actual.begin(), actual.end()));
    }
  }

 private:
  template <typename T>
  void fill(DeviceBuffer<T>& buffer, std::uint64_t seed) {
    fill_uniform(buffer, static_cast<T>(settings_->lo), static_cast<T>(settings_->hi), seed);
  }

  std::shared_ptr<const Settings<Out, In...>> settings_;
  Run<Out, In...> run_;
  Point point_;
  std::int64_t n_;  // [elements] of every array
  std::tuple<DeviceBuffer<In>...> inputs_;
  DeviceBuffer<Out> out_;
};

}  // namespace elementwise

// Out(In...): the output's element type, then the inputs'. Inputs are float, double or int (the random
// fills of common/random_fill.cuh); the output float, double, or an integer type of 4 or 8 bytes (whose
// poison pattern no small result equals).
template <typename Out, typename... In>
class ElementWiseCases<Out(In...)> final : public CaseSetSettings<ElementWiseCases<Out(In...)>> {
  static_assert(sizeof...(In) > 0, "elementwise<Out(In...)>: name at least one input type");
  static_assert(((std::is_same_v<In, float> || std::is_same_v<In, double> || std::is_same_v<In, int>)&&...),
                "elementwise<Out(In...)>: inputs are float, double or int (the random fills there are); for others "
                "use family.cases<State>() and fill them in its .inputs()");
  static_assert(std::is_floating_point_v<Out> || (std::is_integral_v<Out> && sizeof(Out) >= 4),
                "elementwise<Out(In...)>: the output is float, double or an integer of 4 or 8 bytes; for others use "
                "family.cases<State>() with your own .poison() and .check()");
  static constexpr bool kFloatingOutput = std::is_floating_point_v<Out>;
  static constexpr bool kIntegerInputs = (std::is_integral_v<In> || ...);
  using Base = CaseSetSettings<ElementWiseCases<Out(In...)>>;
  using Value = elementwise::Value<Out>;

 public:
  explicit ElementWiseCases(std::string family) : Base("element-wise cases", std::move(family)) {
    settings_.lo = kIntegerInputs ? -100.0 : -1.0;
    settings_.hi = kIntegerInputs ? 100.0 : 1.0;
  }

  // The inputs' values: uniform in [lo, hi) for floating inputs, in [lo, hi] for integer ones. Default:
  // [-1, 1) for floats, [-100, 100] where an input is an integer.
  ElementWiseCases& inputs_between(double lo, double hi) {
    settings_.lo = lo;
    settings_.hi = hi;
    range_given_ = true;
    return *this;
  }
  // The reference: expected(std::int64_t i, const In*... inputs) -> out[i], given host copies of the
  // inputs. A floating output is compared with a double, an integer one exactly with an integer.
  template <typename Expected>
  ElementWiseCases& expected(Expected expected) {
    constexpr bool kCallable = std::is_invocable_v<Expected&, std::int64_t, const In*...>;
    static_assert(kCallable, "expected is called as expected(std::int64_t i, const In*... inputs)");
    if constexpr (kCallable) {
      using Result = std::invoke_result_t<Expected&, std::int64_t, const In*...>;
      static_assert(kFloatingOutput || std::is_integral_v<Result>,
                    "expected(i, inputs...) of an integer output returns an integer: it is compared exactly");
      settings_.expected_values = [expected](std::vector<Value>& values, const In*... inputs) mutable {
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = expected(static_cast<std::int64_t>(i), inputs...);
      };
    }
    return *this;
  }
  // Element i passes when |out[i] - expected(i)| <= abs_tol + rel_tol * |expected(i)| (floating outputs:
  // required, with the reason for its size beside it).
  ElementWiseCases& tolerance(double abs_tol, double rel_tol) {
    settings_.abs_tol = abs_tol;
    settings_.rel_tol = rel_tol;
    tolerance_given_ = true;
    return *this;
  }
  // The arithmetic of one element [floating-point operations]: the cases' flops, for TFLOP/s.
  ElementWiseCases& flops_per_element(double flops) {
    flops_per_element_ = flops;
    return *this;
  }
  // A variant: the name of its cases, and how the harness calls it, on the device arrays:
  //   run(const In*... inputs, Out* out, std::int64_t n, cudaStream_t stream)
  // or, to read the point's other axes (a block size), with a last argument const Point& point. The first
  // variant is the one the others' speedups are over.
  template <typename F>
  ElementWiseCases& variant(std::string name, F run) {
    if constexpr (std::is_invocable_v<F&, const In*..., Out*, std::int64_t, cudaStream_t>) {
      runs_.push_back([run](const In*... in, Out* out, std::int64_t n, cudaStream_t stream, const Point&) mutable {
        run(in..., out, n, stream);
      });
    } else {
      static_assert(std::is_invocable_v<F&, const In*..., Out*, std::int64_t, cudaStream_t, const Point&>,
                    "variant(name, run): run is called as run(const In*... inputs, Out* out, std::int64_t n, "
                    "cudaStream_t stream), or with a last argument const gpuperf::Point&");
      runs_.push_back(std::move(run));
    }
    this->variant_names_.push_back(std::move(name));
    return *this;
  }

  void add_to(Registry& registry) const override {
    const std::vector<Point> points = this->checked_points();
    if (!settings_.expected_values) {
      this->fail("no reference: give .expected([](std::int64_t i, const In*... inputs) { return out[i]; })");
    }
    if constexpr (kFloatingOutput) {
      if (!tolerance_given_) {
        this->fail("a floating output needs a tolerance: .tolerance(abs, rel), e.g. (1e-6, 1e-6) for a float "
                   "result of one or two roundings, with the reason beside it");
      }
      if (!(settings_.abs_tol >= 0.0 && settings_.rel_tol >= 0.0 && std::isfinite(settings_.abs_tol + settings_.rel_tol))) {
        this->fail("the tolerance (" + std::to_string(settings_.abs_tol) + ", " + std::to_string(settings_.rel_tol) +
                   ") is not two finite numbers >= 0");
      }
    } else if (tolerance_given_) {
      this->fail("an integer output is compared exactly: remove .tolerance()");
    }
    check_range();
    for (const Point& point : points) {
      if (!point.has_number("n")) {
        this->fail("the point " + point.shape() + " has no integer axis 'n', the arrays' length: .sizes({...}) "
                   "makes one, size_axis(\"n\", {...}) too");
      }
      if (point.get("n") < 0) this->fail("the point " + point.shape() + " has n < 0");
    }
    const auto settings = std::make_shared<const elementwise::Settings<Out, In...>>(settings_);
    this->add_cases(registry, points, [&](Case& c, std::size_t variant, const Point& point) {
      const auto n = static_cast<double>(point.get("n"));
      GlobalMemoryBytes bytes = GlobalMemoryBytes().writes<Out>(n);
      ((bytes = bytes.reads<In>(n)), ...);
      c.bytes = bytes;
      c.flops = flops_per_element_ * n;
      c.make = [settings, run = runs_[variant], point]() -> std::unique_ptr<Instance> {
        return std::make_unique<elementwise::ElementWiseInstance<Out, In...>>(settings, run, point);
      };
    });
  }

 private:
  void check_range() const {
    const double lo = settings_.lo;
    const double hi = settings_.hi;
    if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi)) {
      this->fail(".inputs_between(" + std::to_string(lo) + ", " + std::to_string(hi) + ") is no range: give lo < hi");
    }
    if (kIntegerInputs && range_given_ &&
        (lo != std::floor(lo) || hi != std::floor(hi) || lo < std::numeric_limits<int>::min() ||
         hi > std::numeric_limits<int>::max())) {
      this->fail(".inputs_between(" + std::to_string(lo) + ", " + std::to_string(hi) +
                 ") fills int inputs: give whole numbers within int's range");
    }
  }

  elementwise::Settings<Out, In...> settings_;
  std::vector<elementwise::Run<Out, In...>> runs_;
  bool range_given_ = false;
  bool tolerance_given_ = false;
  double flops_per_element_ = 0.0;  // [floating-point operations]
};

}  // namespace gpuperf
