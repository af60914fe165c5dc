// Named axes and their product (common/axes.h): the shapes, roles and errors of the cases they make.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/axes.h"

namespace gpuperf {
namespace {

std::vector<std::string> shapes_of(const std::vector<Point>& points) {
  std::vector<std::string> shapes;
  for (const Point& p : points) shapes.push_back(p.shape());
  return shapes;
}

std::string product_error(const std::vector<Axis>& axes) {
  try {
    axes_product(axes);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(AxesProduct, EveryCombinationFirstAxisOutermostInTheOrderGiven) {
  const auto points = axes_product({int_axis("block", {256, 128}), text_axis("T", {"f32", "i32"})});
  EXPECT_EQ(shapes_of(points),
            (std::vector<std::string>{"block:256,T:f32", "block:256,T:i32", "block:128,T:f32", "block:128,T:i32"}));
  EXPECT_EQ(points[1].get("block"), 256);
  EXPECT_EQ(points[1].text("T"), "i32");
  EXPECT_EQ(points[1].text("block"), "256");
}

TEST(SizeAxis, TimesThePerfSizesAndChecksTheOddOnesWithThem) {
  const auto points = axes_product({size_axis("n", {std::int64_t{1} << 26})});
  ASSERT_EQ(shapes_of(points), (std::vector<std::string>{"n:1", "n:1000003", "n:67108864"}));
  EXPECT_EQ(points[0].roles(), unsigned{kCorrectness});
  EXPECT_EQ(points[1].roles(), unsigned{kCorrectness});
  EXPECT_EQ(points[2].roles(), unsigned{kBoth});

  const auto own = axes_product({size_axis("m", {4096, 1024}, {33, 1024})});
  ASSERT_EQ(shapes_of(own), (std::vector<std::string>{"m:33", "m:1024", "m:4096"})) << "increasing, each once";
  EXPECT_EQ(own[0].roles(), unsigned{kCorrectness});
  EXPECT_EQ(own[1].roles(), unsigned{kBoth}) << "a perf size that is a correctness size too";
}

TEST(AxesProduct, ACombinationHasOnlyTheRolesEachOfItsValuesHas) {
  const auto points = axes_product({size_axis("n", {1 << 20}), int_axis("unroll", {1, 4}, kPerf)});
  EXPECT_EQ(shapes_of(points), (std::vector<std::string>{"n:1048576,unroll:1", "n:1048576,unroll:4"}))
      << "a size checked only times nothing with a timed-only value: left out";
  EXPECT_EQ(points[0].roles(), unsigned{kPerf});

  const auto checked = axes_product({size_axis("n", {1 << 20}), int_axis("block", {64}, kCorrectness)});
  EXPECT_EQ(shapes_of(checked), (std::vector<std::string>{"n:1,block:64", "n:1000003,block:64", "n:1048576,block:64"}));
  for (const Point& p : checked) EXPECT_EQ(p.roles(), unsigned{kCorrectness}) << p.shape();
}

TEST(AxesProduct, PowersOfTwoAndTypeNames) {
  EXPECT_EQ(powers_of_two(6, 10, 2), (std::vector<std::int64_t>{64, 256, 1024}));
  EXPECT_EQ(powers_of_two(0, 0), (std::vector<std::int64_t>{1}));
  EXPECT_THROW(powers_of_two(10, 6), std::invalid_argument);
  EXPECT_THROW(powers_of_two(0, 63), std::invalid_argument);
  EXPECT_THROW(powers_of_two(0, 4, 0), std::invalid_argument);
  EXPECT_EQ(std::string(type_name<float>()), "f32");
  EXPECT_EQ(std::string(type_name<double>()), "f64");
  EXPECT_EQ(std::string(type_name<int>()), "i32");
  EXPECT_EQ(std::string(type_name<std::uint8_t>()), "u8");
  EXPECT_EQ(std::string(type_name<std::int64_t>()), "i64");
  EXPECT_EQ(shapes_of(axes_product({type_axis<unsigned>("T")})), (std::vector<std::string>{"T:u32"}));
}

TEST(Point, ReadingAnAxisItDoesNotHaveOrAWordAsANumberSaysWhatToDo) {
  const Point p = axes_product({int_axis("n", {8}), text_axis("T", {"f32"})}).front();
  EXPECT_TRUE(p.has_number("n"));
  EXPECT_FALSE(p.has_number("T"));
  EXPECT_FALSE(p.has_number("m"));
  try {
    p.get("m");
    ADD_FAILURE() << "no axis m";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "the point n:8,T:f32 has no axis 'm' (its axes: n, T)");
  }
  try {
    p.get("T");
    ADD_FAILURE() << "T is a word";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "axis 'T' of the point n:8,T:f32 holds the word 'f32', not an integer: read it "
                                     "with text()");
  }
}

TEST(AxesProduct, AxesThatWouldNameCasesBadlyOrAlikeAreErrorsSayingWhatToChange) {
  EXPECT_EQ(product_error({}), "no axes: give at least one, e.g. size_axis(\"n\", {1 << 26})");
  EXPECT_EQ(product_error({int_axis("block", {})}), "axis 'block' has no values: give at least one");
  EXPECT_EQ(product_error({int_axis("n", {1}), text_axis("n", {"a"})}), "two axes are named 'n': give each its own name");
  EXPECT_EQ(product_error({int_axis("block", {128, 256, 128})}),
            "axis 'block' lists '128' twice, which would name two cases alike: list each value once");
  EXPECT_EQ(product_error({int_axis("block size", {128})}),
            "axis name 'block size' is not a letter then letters, digits and '_'");
  EXPECT_EQ(product_error({int_axis("1n", {1})}), "axis name '1n' is not a letter then letters, digits and '_'");
  EXPECT_EQ(product_error({int_axis("n:m", {1})}), "axis name 'n:m' is not a letter then letters, digits and '_'");
  EXPECT_EQ(product_error({text_axis("layout", {"row,col"})}),
            "axis 'layout' has the value 'row,col', which is not letters, digits, '_', '.' and '-' (it is part of "
            "the cases' names)");
  const std::string control = product_error({text_axis("T", {"f32\n::error::x"})});
  EXPECT_NE(control.find("the value 'f32\\x0a::error::x'"), std::string::npos) << control;
  EXPECT_EQ(control.find('\n'), std::string::npos) << "escaped: the message stays on one line";
  EXPECT_EQ(product_error({text_axis("T", {""})}).rfind("axis 'T' has the value ''", 0), 0u);
}

TEST(SizeAxis, SizesThatCheckNoTailOrTimeNothingAreErrors) {
  EXPECT_EQ(product_error({size_axis("n", {1 << 20}, {1, 1024})}),
            "size axis 'n' checks no odd size above 1: add one to its correctness sizes (a prime such as 1000003; "
            "left out, they are kOddSizes), where the last partial vector or block is computed");
  EXPECT_NE(product_error({size_axis("n", {1 << 20}, {})}).find("checks no odd size above 1"), std::string::npos);
  EXPECT_NE(product_error({size_axis("n", {})}).find("size axis 'n' has no size to time"), std::string::npos);
  EXPECT_EQ(product_error({size_axis("n", {-4})}), "size axis 'n' has the size -4, below 0");
  EXPECT_EQ(product_error({size_axis("n", {1 << 20}, {1, 33})}), "") << "33: odd, above 1";
}

}  // namespace
}  // namespace gpuperf
