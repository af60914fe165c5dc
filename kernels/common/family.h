#pragma once
// A kernel family in one file: the team's launchers as they are, each called from a lambda, with the
// reference check, the sizes and the axes beside them (docs/kernels.md, "A kernel in one file"):
//
//   #include "common/family.h"
//   #include "saxpy.cuh"
//
//   GPUPERF_FAMILY(saxpy) {                      // defines gpuperf::register_saxpy(Registry&)
//     family.elementwise<float(float, float)>()  // common/elementwise_cases.h
//         .sizes({1 << 26})
//         .expected([](std::int64_t i, const float* x, const float* y) { return 1.5 * x[i] + y[i]; })
//         .tolerance(1e-6, 1e-6)
//         .variant("naive", [](const float* x, const float* y, float* out, std::int64_t n, cudaStream_t s) {
//           saxpy::naive({x, y, 1.5f, n, out}, s);
//         });
//   }
//
// with gpuperf_add_family(saxpy SOURCE_DIR <folder>) in CMake: the name in both is the family's. A layer
// over the registry (common/registry.h): each builder makes Cases and Instances as a family written by
// hand does, so the harness treats them alike (fresh random inputs, poisoned outputs, the reference
// checked before timing, L2 flushed, fingerprints, names under formats/names.h). The families of kernels/
// use it, one set per line of their variants.def, but for matmul, occupancy and smem_latency, which
// register by hand (each file's header says why); both forms may stand side by side.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/axes.h"
#include "common/case_set.h"
#include "common/elementwise_cases.h"
#include "common/lambda_cases.h"
#include "common/registry.h"

namespace gpuperf {

// The sets of cases of one family, added to the registry together once its file has declared them all.
class Family {
 public:
  // name: the family's, as gpuperf_add_family() declares it (for messages: register_<name>).
  Family(Registry& registry, std::string name) : registry_(registry), name_(std::move(name)) {}

  // Cases of a kernel with an element-wise reference: Signature is Out(In...), the output's element
  // type and the inputs' (common/elementwise_cases.h).
  template <typename Signature>
  ElementWiseCases<Signature>& elementwise() {
    return add_set(std::make_unique<ElementWiseCases<Signature>>(name_));
  }
  // Cases from lambdas over a State of the team's own (common/lambda_cases.h).
  template <typename State>
  LambdaCases<State>& cases() {
    return add_set(std::make_unique<LambdaCases<State>>(name_));
  }
  // For what the builders do not say: Registry::add of hand-written Cases, name_in_family().
  Registry& registry() { return registry_; }

  // Checks every set and adds its cases, in the order declared; std::invalid_argument naming the family,
  // the set and what to change (GPUPERF_FAMILY calls it at the end of the file's body).
  void add_cases() {
    for (const auto& set : sets_) set->add_to(registry_);
    sets_.clear();
  }

 private:
  template <typename Set>
  Set& add_set(std::unique_ptr<Set> set) {
    Set& added = *set;
    sets_.push_back(std::move(set));
    return added;
  }

  Registry& registry_;
  std::string name_;
  std::vector<std::unique_ptr<CaseSet>> sets_;
};

// A type as a value, for a loop over element types (a type axis): for_each_type<float, int>(f) calls
// f(TypeTag<float>{}), then f(TypeTag<int>{}); inside, `using T = typename decltype(tag)::type;` and
// type_axis<T>("T") names the cases of each type (common/axes.h).
template <typename T>
struct TypeTag {
  using type = T;
};
template <typename... Types, typename F>
void for_each_type(F&& f) {
  (f(TypeTag<Types>{}), ...);
}

}  // namespace gpuperf

// At file scope, outside any namespace: defines gpuperf::register_<name>(gpuperf::Registry&), whose body
// follows the macro as a function body that declares the family's cases on `family` (a gpuperf::Family&),
// added when it returns. <name> is the family's, as gpuperf_add_family(<name> ...) declares it: a
// mismatch is a link error naming the function.
#define GPUPERF_FAMILY(name)                                               \
  static void gpuperf_declare_family_##name(::gpuperf::Family& family);    \
  namespace gpuperf {                                                      \
  void register_##name(Registry& registry);                                \
  void register_##name(Registry& registry) {                               \
    Family family(registry, #name);                                        \
    gpuperf_declare_family_##name(family);                                 \
    family.add_cases();                                                    \
  }                                                                        \
  }                                                                        \
  static void gpuperf_declare_family_##name(::gpuperf::Family& family)
