// libFuzzer target of the gate: arbitrary bytes through the results parser, the baseline parser, and, when
// both accept their part, the comparator and every report; the whole input also through the same-code
// ledger's reader (a file that lives on the runner between jobs) and, where it is read, its writer and lines. The only exception allowed out of the library is
// InputError (a clear message for bad input); anything else, a crash or a sanitizer report is a bug.
//
// Input layout: the bytes before the first NUL are the results file, the bytes after it the baseline; with
// no NUL both parsers get the whole input.
//   cmake -DCMAKE_CXX_COMPILER=clang++ -DGPUPERF_FUZZ=ON ... && cmake --build . --target fuzz_gate
//   mkdir -p corpus && ./fuzz_gate -max_total_time=60 -max_len=8192 corpus <src>/perf_tests/gate/fuzz/seeds
// (libFuzzer adds new inputs to the first folder: keep it out of the source tree.)

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/ledger/same_code_ledger.h"
#include "gate/reports/reports.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuperf;
  using namespace gpuperf::gate;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t separator = input.find('\0');
  const std::string results_text = separator == std::string::npos ? input : input.substr(0, separator);
  const std::string baseline_text = separator == std::string::npos ? input : input.substr(separator + 1);

  try {
    const SameCodeLedger ledger = ledger_from_text(input, "fuzz-ledger.json");
    std::string sink = ledger_to_text(ledger);
    for (const auto& [slug, modes] : ledger.tallies) {
      for (const auto& [mode, tally] : modes) sink += ledger_line(tally, mode) + tally_json(tally).dump();
    }
  } catch (const formats::InputError&) {
  }

  std::optional<ResultsFile> results;
  std::optional<Baseline> baseline;
  try {
    results = parse_results(results_text, "fuzz-results.json");
  } catch (const formats::InputError&) {
  }
  try {
    baseline = parse_baseline(baseline_text, "fuzz-baseline.json");
    (void)baseline_to_text(*baseline);
  } catch (const formats::InputError&) {
  }
  if (!results || !baseline) return 0;

  // Compare even when the GPUs differ, so that the fuzzer reaches the comparator.
  results->gpu.slug = baseline->gpu.slug;
  try {
    const Comparison comparison = compare_with_baseline(*baseline, {*results}, CompareOptions{});
    std::ostringstream sink;
    write_console_report(comparison, sink);
    write_markdown_report(comparison, sink);
    sink << json_report(comparison) << remeasure_list(comparison) << exit_code(comparison);
  } catch (const formats::InputError&) {
  }
  return 0;
}
