#include "common/axes.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "common/case_shape.h"
#include "formats/escape.h"

namespace gpuperf {
namespace {

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "'x'", escaped: names reach this message from code, but may hold anything.
std::string quoted(std::string_view text) { return "'" + formats::escape_console(text) + "'"; }

// A letter, then letters, digits, '_' (a shape is "axis:value,axis:value": no ':' or ',' in either).
std::string axis_name_error(const std::string& name) {
  const bool ok = !name.empty() && is_letter(name[0]) &&
                  std::all_of(name.begin(), name.end(), [](char c) { return is_letter(c) || is_digit(c) || c == '_'; });
  if (ok) return "";
  return "axis name " + quoted(name) + " is not a letter then letters, digits and '_'";
}

// Letters, digits, '_', '.', '-': a name part (formats/names.h) without the shape's separators ',' ':'.
std::string value_error(const std::string& axis, const std::string& text) {
  const bool ok = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return is_letter(c) || is_digit(c) || c == '_' || c == '.' || c == '-';
  });
  if (ok) return "";
  return "axis " + quoted(axis) + " has the value " + quoted(text) +
         ", which is not letters, digits, '_', '.' and '-' (it is part of the cases' names)";
}

AxisValue number_value(std::int64_t number, unsigned roles) { return {std::to_string(number), number, true, roles}; }

}  // namespace

Axis int_axis(std::string name, const std::vector<std::int64_t>& values, unsigned roles) {
  Axis axis{std::move(name), {}, ""};
  for (const std::int64_t v : values) axis.values.push_back(number_value(v, roles));
  return axis;
}

Axis text_axis(std::string name, const std::vector<std::string>& values, unsigned roles) {
  Axis axis{std::move(name), {}, ""};
  for (const std::string& v : values) axis.values.push_back({v, 0, false, roles});
  return axis;
}

Axis size_axis(std::string name, const std::vector<std::int64_t>& perf_sizes,
               const std::vector<std::int64_t>& correctness_sizes, const std::vector<std::int64_t>& perf_only_sizes) {
  Axis axis{std::move(name), {}, ""};
  const std::string where = "size axis " + quoted(axis.name);
  std::set<std::int64_t> all(perf_sizes.begin(), perf_sizes.end());
  all.insert(correctness_sizes.begin(), correctness_sizes.end());
  all.insert(perf_only_sizes.begin(), perf_only_sizes.end());
  const bool has_odd = std::any_of(correctness_sizes.begin(), correctness_sizes.end(),
                                   [](std::int64_t n) { return n > 1 && n % 2 == 1; });
  if (perf_sizes.empty() && perf_only_sizes.empty()) {
    axis.error = where + " has no size to time: give the perf sizes, large enough to stream from memory (many "
                 "times the L2: 1 << 26 floats is 256 MiB)";
  } else if (*all.begin() < 0) {
    axis.error = where + " has the size " + std::to_string(*all.begin()) + ", below 0";
  } else if (!has_odd) {
    axis.error = where + " checks no odd size above 1: add one to its correctness sizes (a prime such as 1000003; "
                 "left out, they are kOddSizes), where the last partial vector or block is computed";
  }
  const auto in = [](const std::vector<std::int64_t>& sizes, std::int64_t n) {
    return std::find(sizes.begin(), sizes.end(), n) != sizes.end();
  };
  for (const std::int64_t n : all) {
    const bool checked = in(perf_sizes, n) || in(correctness_sizes, n);
    const bool timed = in(perf_sizes, n) || in(perf_only_sizes, n);
    axis.values.push_back(number_value(n, (checked ? unsigned{kCorrectness} : 0u) | (timed ? unsigned{kPerf} : 0u)));
  }
  return axis;
}

std::vector<std::int64_t> powers_of_two(int first_exponent, int last_exponent, int step) {
  if (first_exponent < 0 || last_exponent > 62 || first_exponent > last_exponent || step < 1) {
    throw std::invalid_argument("powers_of_two(" + std::to_string(first_exponent) + ", " +
                                std::to_string(last_exponent) + ", " + std::to_string(step) +
                                "): the exponents go up from 0 to at most 62, the step is at least 1");
  }
  std::vector<std::int64_t> values;
  for (int e = first_exponent; e <= last_exponent; e += step) values.push_back(std::int64_t{1} << e);
  return values;
}

const AxisValue& Point::value(std::string_view axis) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == axis) return values_[i];
  }
  std::string names;
  for (const std::string& name : names_) names += (names.empty() ? "" : ", ") + name;
  throw std::invalid_argument("the point " + shape_ + " has no axis " + quoted(axis) + " (its axes: " + names + ")");
}

std::int64_t Point::get(std::string_view axis) const {
  const AxisValue& v = value(axis);
  if (!v.is_number) {
    throw std::invalid_argument("axis " + quoted(axis) + " of the point " + shape_ + " holds the word " + quoted(v.text) +
                                ", not an integer: read it with text()");
  }
  return v.number;
}

const std::string& Point::text(std::string_view axis) const { return value(axis).text; }

bool Point::has_number(std::string_view axis) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == axis) return values_[i].is_number;
  }
  return false;
}

std::vector<Point> axes_product(const std::vector<Axis>& axes) {
  if (axes.empty()) throw std::invalid_argument("no axes: give at least one, e.g. size_axis(\"n\", {1 << 26})");
  std::set<std::string> names;
  for (const Axis& axis : axes) {
    if (!axis.error.empty()) throw std::invalid_argument(axis.error);
    if (const std::string e = axis_name_error(axis.name); !e.empty()) throw std::invalid_argument(e);
    if (!names.insert(axis.name).second) {
      throw std::invalid_argument("two axes are named " + quoted(axis.name) + ": give each its own name");
    }
    if (axis.values.empty()) throw std::invalid_argument("axis " + quoted(axis.name) + " has no values: give at least one");
    std::set<std::string> texts;
    for (const AxisValue& v : axis.values) {
      if (const std::string e = value_error(axis.name, v.text); !e.empty()) throw std::invalid_argument(e);
      if (!texts.insert(v.text).second) {
        throw std::invalid_argument("axis " + quoted(axis.name) + " lists " + quoted(v.text) +
                                    " twice, which would name two cases alike: list each value once");
      }
    }
  }
  std::vector<Point> points(1);
  for (const Axis& axis : axes) {
    std::vector<Point> longer;
    for (const Point& prefix : points) {
      for (const AxisValue& v : axis.values) {
        Point p = prefix;
        p.names_.push_back(axis.name);
        p.values_.push_back(v);
        p.roles_ &= v.roles;
        if (p.roles_ != 0) longer.push_back(std::move(p));
      }
    }
    points = std::move(longer);
  }
  for (Point& p : points) {
    std::vector<ShapeAxis> pairs;
    for (std::size_t i = 0; i < p.names_.size(); ++i) pairs.emplace_back(p.names_[i], p.values_[i].text);
    p.shape_ = shape(pairs);
  }
  return points;
}

}  // namespace gpuperf
