#include "gate/ncu/window_attribution.h"

#include <cctype>
#include <set>

#include "formats/input_error.h"
#include "formats/names.h"

namespace gpuperf::gate {
namespace {

// The three whole numbers of "(256, 1, 1)"; false on anything else.
bool parse_dimensions(const std::string& text, std::array<int, 3>& dimensions) {
  std::size_t found = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    long long value = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      value = value * 10 + (text[i] - '0');
      if (value > 1LL << 31) return false;
    }
    if (found == dimensions.size()) return false;
    dimensions[found++] = static_cast<int>(value);
  }
  return found == dimensions.size();
}

std::string launch_text(const std::string& name, const std::string& grid, const std::string& block) {
  return name + " <<<" + grid + ", " + block + ">>>";
}

std::string launch_text(const ExpectedLaunch& launch) {
  return launch_text(launch.mangled_name, dimensions_text(launch.grid), dimensions_text(launch.block));
}

// Whether the row is that launch: same kernel, grid and block.
bool row_is(const KernelProfile& row, const ExpectedLaunch& launch) {
  std::array<int, 3> grid{}, block{};
  return row.kernel_name == launch.mangled_name && parse_dimensions(row.grid_size, grid) &&
         parse_dimensions(row.block_size, block) && grid == launch.grid && block == launch.block;
}

// The first row of rows[first, first + count) that is not its launch, said in one line; empty when all are.
std::string first_difference(const NcuProfile& rows, std::size_t first, std::size_t count,
                             const std::vector<ExpectedLaunch>& launches) {
  for (std::size_t k = 0; k < count; ++k) {
    const KernelProfile& row = rows.kernels[first + k];
    if (row_is(row, launches[k])) continue;
    return "launch " + std::to_string(k + 1) + " of " + std::to_string(launches.size()) + " is " +
           launch_text(launches[k]) + " by its fingerprint, but ncu's row " + std::to_string(first + k + 1) +
           " is " + launch_text(row.kernel_name, row.grid_size, row.block_size);
  }
  return "";
}

NcuProfile slice(const NcuProfile& rows, std::size_t first, std::size_t count) {
  NcuProfile part;
  part.kernels.assign(rows.kernels.begin() + static_cast<std::ptrdiff_t>(first),
                      rows.kernels.begin() + static_cast<std::ptrdiff_t>(first + count));
  return part;
}

}  // namespace

std::string dimensions_text(const std::array<int, 3>& dimensions) {
  return "(" + std::to_string(dimensions[0]) + ", " + std::to_string(dimensions[1]) + ", " +
         std::to_string(dimensions[2]) + ")";
}

std::vector<ExpectedLaunch> expected_launches(const formats::Fingerprint& fingerprint) {
  std::vector<ExpectedLaunch> launches;
  if (fingerprint.capture_status != formats::kCapturedByCupti) return launches;
  for (const formats::KernelLaunch& kernel : fingerprint.kernels) {
    for (int i = 0; i < kernel.launches; ++i) launches.push_back({kernel.mangled_name, kernel.grid, kernel.block});
  }
  return launches;
}

WindowAttribution attribute_windows(const NcuProfile& rows, const std::vector<Window>& windows,
                                    const std::string& source) {
  const std::string again =
      " - nothing is stored from this pass; profile again, and if it recurs, check that the bench's "
      "window launches what its fingerprint captured";
  std::size_t total = 0;
  for (const Window& window : windows) {
    if (window.launches.empty()) {
      throw formats::InputError(source + ": " + window.benchmark +
                                " has no captured fingerprint, so its rows cannot be counted and no row after "
                                "its window can be attributed" + again);
    }
    total += window.launches.size();
  }
  const std::string counts = " (" + std::to_string(rows.kernels.size()) + " rows for the " +
                             std::to_string(total) + " launches of " + std::to_string(windows.size()) +
                             " windows)";
  WindowAttribution attribution;
  std::size_t next = 0;  // the first row not yet attributed
  for (std::size_t i = 0; i < windows.size(); ++i) {
    const Window& window = windows[i];
    const std::size_t expected = window.launches.size();
    const std::size_t available = rows.kernels.size() - next;
    if (available < expected) {  // the rows end here: ncu or the bench stopped
      if (const std::string difference = first_difference(rows, next, available, window.launches);
          !difference.empty()) {
        throw formats::InputError(source + ": the rows of " + window.benchmark + " are not its fingerprint's: " +
                                  difference + counts + again);
      }
      attribution.left_out.push_back(
          {window.benchmark, available == 0
                                 ? "ncu printed no row of its window (its rows end before it)"
                                 : "ncu printed " + std::to_string(available) + " of its " +
                                       std::to_string(expected) + " launches (its rows end within its window)"});
      for (std::size_t j = i + 1; j < windows.size(); ++j) {
        attribution.left_out.push_back(
            {windows[j].benchmark, "ncu printed no row of its window (its rows end before it)"});
      }
      return attribution;
    }
    const std::string difference = first_difference(rows, next, expected, window.launches);
    if (difference.empty()) {
      attribution.profiles[window.benchmark] = slice(rows, next, expected);
    } else if (rows.kernels.size() == total) {  // every window has its row count: only this one differs
      attribution.left_out.push_back({window.benchmark, "its rows are not its fingerprint's launches: " + difference});
    } else {
      throw formats::InputError(source + ": the rows of " + window.benchmark + " are not its fingerprint's: " +
                                difference + counts + ", so no row after it can be attributed" + again);
    }
    next += expected;
  }
  if (next < rows.kernels.size()) {
    throw formats::InputError(source + ": " + std::to_string(rows.kernels.size() - next) +
                              " rows after the last window's (" +
                              (windows.empty() ? std::string("no window") : windows.back().benchmark) + ")" +
                              counts + ": some window launched more than its fingerprint" + again);
  }
  return attribution;
}

std::vector<std::string> parse_window_order(std::string_view text, const std::string& source) {
  std::vector<std::string> order;
  std::set<std::string> seen;
  std::size_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string name(text.substr(start, end - start));
    start = end + 1;
    ++number;
    if (!name.empty() && name.back() == '\r') name.pop_back();
    if (name.empty()) continue;
    const std::string where = source + ": line " + std::to_string(number) + ": ";
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, name); !error.empty()) {
      throw formats::InputError(where + error);
    }
    if (!seen.insert(name).second) {
      throw formats::InputError(where + name + " is named twice: a bench runs each window once");
    }
    order.push_back(std::move(name));
  }
  return order;
}

std::vector<Window> windows_in_order(const std::vector<std::string>& order, const ResultsFile& fingerprinted) {
  std::vector<Window> windows;
  for (const std::string& name : order) {
    const auto fingerprint = fingerprinted.fingerprints.find(name);
    windows.push_back({name, fingerprint == fingerprinted.fingerprints.end() ? std::vector<ExpectedLaunch>{}
                                                                             : expected_launches(fingerprint->second)});
  }
  return windows;
}

}  // namespace gpuperf::gate
