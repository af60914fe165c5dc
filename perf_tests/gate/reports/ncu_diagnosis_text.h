#pragma once
// The words of the Nsight Compute diagnosis (ncu/diagnosis.h): the Markdown section the report ends with,
// and the console lines. One cause that stopped several benchmarks the same way (ncu not found) is said
// once. Pure functions: tests/ncu/test_ncu_diagnosis.cpp (golden file testdata/expected/
// ncu_diagnosis_stored.md, the section scripts/ncu_diagnose.sh appended to the report before the driver
// diagnosed in-process).

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "gate/ncu/diagnosis.h"
#include "gate/ncu/profile.h"

namespace gpuperf::gate {

// What `perf_gate ncu-diff` prints: "#### <title>\n\n" (none when `title` is empty), then the table
// (markdown_diff_table).
std::string ncu_diff_markdown(const std::string& title, const std::vector<MetricDiff>& rows,
                              std::string_view before_label, std::string_view after_label);

// "baseline" / "now", "build A" / "build B": the columns of a pair's table.
std::string_view ncu_before_label(NcuPair pair);
std::string_view ncu_after_label(NcuPair pair);

// Why `entry` was not diagnosed, one line without a final period ("" when it was diagnosed).
std::string ncu_skip_text(const NcuDiagnosis& entry);

// The report's section: per entry, "\nNcu diagnosis skipped: <why>.\n" or "\n" and its table titled
// "Nsight Compute: <name>". "" for no entries.
std::string ncu_diagnosis_markdown(const std::vector<NcuDiagnosis>& entries);

// One line per entry: "ncu diagnosis skipped: <why>" or "ncu diagnosis of NAME: duration +15.6% (baseline
// -> now); profiles: PATH".
void write_ncu_diagnosis_console(const std::vector<NcuDiagnosis>& entries, std::ostream& out);

}  // namespace gpuperf::gate
