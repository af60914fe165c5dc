#pragma once
// Named axes and their product, as nvbench's (add_int64_axis, add_int64_power_of_two_axis, type axes):
// a family's cases sweep every combination of one value per axis, and each combination is a point whose
// shape names the cases, the axes in the order given ("n:67108864,block:256", common/case_shape.h):
//
//   axes_product({size_axis("n", {1 << 26}), int_axis("block", {128, 256})})
//     -> n:1,block:128  n:1,block:256  n:1000003,block:128  ...  n:67108864,block:256
//
// Every value carries the roles (Role bits) of the cases it is in: a point is checked where each of its
// values is, and timed where each of its values is. A size axis (size_axis) times the sizes given and
// checks them with odd ones, 1 and 1000003 by default, where the tail of a vector or block goes wrong.

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/registry.h"

namespace gpuperf {

// The sizes every size axis checks unless told others: 1 (a single, partial vector or block) and the
// prime 1000003 (not a multiple of 4, of a warp or of any block size).
inline const std::vector<std::int64_t> kOddSizes = {1, 1000003};

// One value of an axis: its text in the shape, its number where it is an integer, its roles.
struct AxisValue {
  std::string text;        // "1024", "f32"
  std::int64_t number = 0;  // integer axes only
  bool is_number = false;
  unsigned roles = kBoth;  // Role bits of the cases at this value
};

struct Axis {
  std::string name;  // "n", "block", "T": a letter, then letters, digits, '_'
  std::vector<AxisValue> values;
  std::string error;  // why the factory could not make it (empty: none): axes_product throws it
};

// An axis of integers (block sizes, tile widths), every value in cases of `roles`.
Axis int_axis(std::string name, const std::vector<std::int64_t>& values, unsigned roles = kBoth);
// An axis of words ("f32", "row_major"): letters, digits, '_', '.', '-'.
Axis text_axis(std::string name, const std::vector<std::string>& values, unsigned roles = kBoth);
// The problem sizes [elements]: `perf_sizes` timed (and checked), `correctness_sizes` checked only,
// `perf_only_sizes` timed only (too large to check at every run, or a second timed scale), in increasing
// order. The correctness sizes must hold an odd size above 1: that is where tail bugs show (else the axis
// carries an error, which axes_product throws).
Axis size_axis(std::string name, const std::vector<std::int64_t>& perf_sizes,
               const std::vector<std::int64_t>& correctness_sizes = kOddSizes,
               const std::vector<std::int64_t>& perf_only_sizes = {});
// 2^first, 2^(first + step), ... up to 2^last: nvbench::range over exponents (block sizes 64..1024).
std::vector<std::int64_t> powers_of_two(int first_exponent, int last_exponent, int step = 1);

// The short name of an element type, as a shape shows it: f32, f64, i8 ... i64, u8 ... u64.
template <typename T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, float>) {
    return "f32";
  } else if constexpr (std::is_same_v<T, double>) {
    return "f64";
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>) {
    switch (sizeof(T)) {
      case 1: return std::is_signed_v<T> ? "i8" : "u8";
      case 2: return std::is_signed_v<T> ? "i16" : "u16";
      case 4: return std::is_signed_v<T> ? "i32" : "u32";
      default: return std::is_signed_v<T> ? "i64" : "u64";
    }
  } else {
    static_assert(sizeof(T) == 0, "type_name<T>: no short name for this type; name it: text_axis(\"T\", {\"bf16\"})");
    return "";
  }
}
// A one-value axis naming element type T ("T:f32"): the cases of one instantiation in a loop over types
// (for_each_type, common/family.h).
template <typename T>
Axis type_axis(std::string name) {
  return text_axis(std::move(name), {type_name<T>()});
}

// One combination of axis values: what a case is made for.
class Point {
 public:
  Point() = default;
  // The integer value of `axis`; std::invalid_argument naming the axes there are, or saying the value
  // is a word (read it with text()).
  std::int64_t get(std::string_view axis) const;
  // Whether the point has an integer axis of that name.
  bool has_number(std::string_view axis) const;
  // The value of `axis` as the shape writes it.
  const std::string& text(std::string_view axis) const;
  // "n:1000003,block:256"
  const std::string& shape() const { return shape_; }
  unsigned roles() const { return roles_; }

 private:
  friend std::vector<Point> axes_product(const std::vector<Axis>& axes);
  const AxisValue& value(std::string_view axis) const;

  std::vector<std::string> names_;
  std::vector<AxisValue> values_;
  std::string shape_;
  unsigned roles_ = kBoth;
};

// Every combination, the first axis outermost and the last varying fastest; a combination whose values
// share no role is left out. std::invalid_argument, saying what to change, where there is no axis, an
// axis has no value or carries an error, a name is not a letter then letters, digits and '_', two axes
// share a name, an axis lists a value twice (it would name two cases alike), or a word holds a character
// a name cannot.
std::vector<Point> axes_product(const std::vector<Axis>& axes);

}  // namespace gpuperf
