#pragma once
// A case's shape string (Case::shape), written by one function so that every family spells it alike:
//   shape({{"m", 1024}, {"n", 1024}, {"k", 1024}})   -> "m:1024,n:1024,k:1024"
//   shape({{"n", n}, {"match", "0.25"}})              -> "n:33554432,match:0.25"
// Axes keep the order given: the shape is part of the benchmark's name, which baselines are keyed by.
// Fractional values are passed as the text to show ("0.25", "1.00"), never formatted here, so that a
// name cannot change with a formatting default.

#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpuperf {

// One axis:value pair of a shape.
struct ShapeAxis {
  template <typename Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
  ShapeAxis(std::string axis, Integer number) : name(std::move(axis)), value(std::to_string(number)) {}
  ShapeAxis(std::string axis, std::string text) : name(std::move(axis)), value(std::move(text)) {}
  ShapeAxis(std::string axis, const char* text) : name(std::move(axis)), value(text) {}

  std::string name;   // "n"
  std::string value;  // "33554432"
};

// "axis:value,axis:value", in the order given.
inline std::string shape(const std::vector<ShapeAxis>& axes) {
  std::string text;
  for (const ShapeAxis& axis : axes) text += (text.empty() ? "" : ",") + axis.name + ":" + axis.value;
  return text;
}
inline std::string shape(std::initializer_list<ShapeAxis> axes) { return shape(std::vector<ShapeAxis>(axes)); }

}  // namespace gpuperf
