#include "formats/nearest_name.h"

#include <algorithm>

namespace gpuperf::formats {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic-programming table: the swap of two neighbours looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::size_t default_max_edit_distance(std::string_view word) { return std::max<std::size_t>(2, word.size() / 3); }

std::optional<std::string> nearest_name(std::string_view word, const std::vector<std::string>& candidates,
                                        std::optional<std::size_t> max_distance) {
  const std::size_t limit = max_distance.value_or(default_max_edit_distance(word));
  std::optional<std::string> nearest;
  std::size_t nearest_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance == 0) return std::nullopt;
    if (distance < nearest_distance) {
      nearest = candidate;
      nearest_distance = distance;
    }
  }
  return nearest;
}

}  // namespace gpuperf::formats
