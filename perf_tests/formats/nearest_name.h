#pragma once
// The known name nearest to a misspelt one, for messages that say "did you mean `tolerance_pct`?": a key of
// a baseline written by hand, an option typed on a command line. One typo must not pass unnoticed, and the
// message should name the fix.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::formats {

// The number of single-character insertions, deletions, substitutions and swaps of two neighbours that turn
// `a` into `b` (optimal string alignment distance): "tolerence_pct" -> "tolerance_pct" is 1, and so is
// "tolerance_cpt" -> "tolerance_ctp". Case counts: "Tolerance_pct" is 1 away.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The default largest distance a suggestion may lie at: a third of the word, at least 2. Farther, a
// "did you mean" is more often wrong than right ("runs" is 4 from "date" but means something else).
std::size_t default_max_edit_distance(std::string_view word);

// The candidate nearest to `word` by edit_distance, when it is at most `max_distance` away (default:
// default_max_edit_distance(word)); the first of equally near ones. nullopt when none is that near, or when
// `word` is itself a candidate (nothing to suggest).
std::optional<std::string> nearest_name(std::string_view word, const std::vector<std::string>& candidates,
                                        std::optional<std::size_t> max_distance = std::nullopt);

}  // namespace gpuperf::formats
