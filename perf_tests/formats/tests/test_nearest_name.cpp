// formats/nearest_name.h: the edit distance, and which known name a misspelt one is taken for.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/nearest_name.h"

namespace gpuperf::formats {
namespace {

TEST(NearestName, EditDistanceCountsEachKindOfEditOnce) {
  EXPECT_EQ(edit_distance("tolerance_pct", "tolerance_pct"), 0u);
  EXPECT_EQ(edit_distance("tolerence_pct", "tolerance_pct"), 1u) << "a substitution";
  EXPECT_EQ(edit_distance("tolerance_pc", "tolerance_pct"), 1u) << "an insertion";
  EXPECT_EQ(edit_distance("tollerance_pct", "tolerance_pct"), 1u) << "a deletion";
  EXPECT_EQ(edit_distance("tolerance_ptc", "tolerance_pct"), 1u) << "two neighbours swapped";
  EXPECT_EQ(edit_distance("Tolerance_pct", "tolerance_pct"), 1u) << "case counts";
  EXPECT_EQ(edit_distance("", "unit"), 4u);
  EXPECT_EQ(edit_distance("unit", ""), 4u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("ab", "ba"), edit_distance("ba", "ab")) << "symmetric";
}

TEST(NearestName, SuggestsTheNearestCandidateWithinTheDistance) {
  const std::vector<std::string> defaults = {"tolerance_pct", "same_gpu_tolerance_pct"};
  EXPECT_EQ(nearest_name("tolerence_pct", defaults), "tolerance_pct");
  EXPECT_EQ(nearest_name("same_gpu_tolerence_pct", defaults), "same_gpu_tolerance_pct");
  EXPECT_EQ(nearest_name("samegpu_tolerance", defaults), "same_gpu_tolerance_pct") << "5 edits of 17 characters: within a third";
  EXPECT_EQ(nearest_name("comment", defaults), std::nullopt) << "nothing near: no guess";
  EXPECT_EQ(nearest_name("tolerance_pct", defaults), std::nullopt) << "a known name needs no suggestion";
  EXPECT_EQ(nearest_name("anything", {}), std::nullopt);
}

TEST(NearestName, TheLimitCanBeGivenAndTiesGoToTheFirst) {
  EXPECT_EQ(nearest_name("tolerance", {"tolerance_pct"}), std::nullopt) << "4 edits: beyond 9 / 3";
  EXPECT_EQ(nearest_name("tolerance", {"tolerance_pct"}, 4), "tolerance_pct");
  EXPECT_EQ(nearest_name("--tolerence", {"--tolerance"}, 0), std::nullopt);
  EXPECT_EQ(nearest_name("ab", {"ax", "ay"}), "ax") << "equally near: the first";
  EXPECT_EQ(nearest_name("runs", {"date", "unit"}), std::nullopt) << "short words: at most 2 edits";
  EXPECT_EQ(default_max_edit_distance("abc"), 2u);
  EXPECT_EQ(default_max_edit_distance("same_gpu_tolerance_pct"), 7u);
}

}  // namespace
}  // namespace gpuperf::formats
