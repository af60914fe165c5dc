#pragma once
// One ncu pass over many benchmarks, split into each benchmark's profile. `gpuperf_bench --profiler-window`
// runs the selected benchmarks one after another and, for each, enqueues exactly the kernels of one timed
// sample between cudaProfilerStart and cudaProfilerStop; `ncu --profile-from-start off` profiles those
// launches alone and prints one raw-page row per launch, in launch order. The rows carry no benchmark name,
// so they are attributed by count, in the order the bench ran the windows (the order file it writes), each
// benchmark taking as many rows as its fingerprint has launches; and the attribution is verified, never
// assumed: each benchmark's rows must be its fingerprint's launches, one for one, in order (mangled kernel
// name, grid and block). Names alone would not do: the shapes of one variant launch the same kernels.
// Pure functions: tests/ncu/test_window_attribution.cpp.

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/fingerprint.h"
#include "gate/inputs/results.h"
#include "gate/ncu/profile.h"

namespace gpuperf::gate {

// One kernel launch a window should hold.
struct ExpectedLaunch {
  std::string mangled_name;  // as ncu --print-kernel-base mangled prints it
  std::array<int, 3> grid{1, 1, 1};
  std::array<int, 3> block{1, 1, 1};
};

// The launches of one timed sample by its fingerprint, one entry per launch (merged entries expanded), in
// launch order. Empty when the fingerprint was not captured (capture_status other than "cupti").
std::vector<ExpectedLaunch> expected_launches(const formats::Fingerprint& fingerprint);

// One profiler window as the bench ran it.
struct Window {
  std::string benchmark;
  std::vector<ExpectedLaunch> launches;
};

struct LeftOut {
  std::string benchmark;
  std::string reason;  // one line: what its rows lacked or held instead
};

struct WindowAttribution {
  std::map<std::string, NcuProfile> profiles;  // benchmark -> its verified rows
  std::vector<LeftOut> left_out;               // in run order
};

// Splits `rows` (every row of one ncu pass, in order) into the windows' profiles:
// - a benchmark whose rows are its launches is profiled;
// - where the rows end early (ncu or the bench stopped), the benchmark they end in and every one after it
//   are left out, the ones before kept;
// - where the row count is exactly the windows' total, a benchmark whose rows differ from its launches
//   (another kernel, grid or block in its slots) is left out, naming the first difference;
// - anything else (a row missing or added inside the pass, rows after the last window) loses the order of
//   every row after it: formats::InputError naming `source`, the first benchmark whose rows differ and how,
//   so that nothing is stored from the pass. So is a window with no launches (no fingerprint to count by).
WindowAttribution attribute_windows(const NcuProfile& rows, const std::vector<Window>& windows,
                                    const std::string& source);

// The windows of one pass in the order the bench ran them (`order`, its order file), each expecting the
// launches of its fingerprint in `fingerprinted` (none where it has no captured one: attribute_windows then
// refuses the pass, as nothing counts its rows).
std::vector<Window> windows_in_order(const std::vector<std::string>& order, const ResultsFile& fingerprinted);

// "(256, 1, 1)" as ncu's raw page writes a launch's "Block Size" and "Grid Size"; `text` is read leniently
// (any separators between three whole numbers).
std::string dimensions_text(const std::array<int, 3>& dimensions);

// The bench's order file: one benchmark name a line, in the order their windows closed. InputError naming
// `source` on a name that breaks formats/names.h's rule or a name given twice; blank lines are skipped.
std::vector<std::string> parse_window_order(std::string_view text, const std::string& source);

}  // namespace gpuperf::gate
