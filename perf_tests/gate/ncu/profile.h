#pragma once
// Profiler diagnosis of a SLOW verdict, its pure part: a fixed small set of Nsight Compute metrics, the
// parser of what `ncu --csv --page raw --metrics <ncu_metrics_argument()>` prints, and the table that
// sets two profiles of one benchmark side by side (the baseline's or build A's, and now or build B's).
// Pure functions: tests/test_ncu_profile.cpp, on the fixtures testdata/ncu_*.csv.
//
// Where the metric names come from (read in these sources; no ncu was run to write this file):
// - gpu__time_duration.sum, lts__throughput.avg.pct_of_peak_sustained_elapsed: the "Duration" and
//   "SOL L2" metrics of ncu's own SpeedOfLight.section (Volta and later); sm__warps_active.avg.
//   pct_of_peak_sustained_active and launch__registers_per_thread: "Achieved Occupancy" and the
//   "Registers Per Thread" axis of its Occupancy.section; the 18 smsp__average_warps_issue_stalled_<reason>
//   _per_issue_active.ratio: the "Warp State (All Cycles)" chart of its WarpStateStats.section. Read in the
//   section files an ncu install ships (Sections/*.section, vendored in public repositories).
// - dram__throughput.avg.pct_of_peak_sustained_elapsed (DRAM % of peak; what ncu maps nvprof's
//   dram_utilization to), smsp__inst_executed.sum (warp instructions executed; == sm__inst_executed.sum,
//   NVIDIA developer forum "Inst_executed and thread_inst_executed"), l1tex__data_bank_conflicts_pipe_lsu_
//   mem_shared_op_{ld,st}.sum (shared-memory bank conflicts of loads and stores): the names in current
//   use with ncu 2023-2025 in public scripts; the Kernel Profiling Guide
//   (docs.nvidia.com/nsight-compute/ProfilingGuide) explains the naming (unit__counter.rollup.submetric).
// A name an ncu version does not know fails in ncu itself, before any CSV is printed.
//
// The CSV layout this parser assumes (from public parsers' fixtures of ncu 2023-2025 raw-page output; to
// be checked against a real capture, see the report of the change that added this file):
// - ncu's own lines start with "==" (==PROF== Connected / Profiling / Disconnected, ==WARNING==,
//   ==ERROR==) and the profiled program's output comes before the table: all are skipped.
// - The header row, every field quoted: "ID","Process ID","Process Name","Host Name","Kernel Name",
//   "Context","Stream","Block Size","Grid Size","Device","CC", then one column per metric (ncu sorts them
//   by name). Columns are found by name, never by position, so an added or reordered column is harmless.
// - Then a units row: "" under the fixed columns, the unit under each metric ("nsecond", "%",
//   "register/thread", "inst"; with ncu's default --print-units auto a time may be "usecond" or "msecond").
// - Then one row per profiled kernel launch. Numbers are written with thousands separators ("38,912",
//   "1,215,000,000.00"), a metric ncu could not collect as "n/a"; "Block Size" is "(256, 1, 1)".

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "formats/json_fields.h"

namespace gpuperf::gate {

inline constexpr const char* kNcuDuration = "gpu__time_duration.sum";
inline constexpr const char* kNcuDramThroughput = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* kNcuL2Throughput = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* kNcuAchievedOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kNcuRegistersPerThread = "launch__registers_per_thread";
inline constexpr const char* kNcuSharedBankConflictsLoad = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* kNcuSharedBankConflictsStore = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
inline constexpr const char* kNcuInstructionsExecuted = "smsp__inst_executed.sum";

// The warp states of WarpStateStats.section, each smsp__average_warps_issue_stalled_<reason>_per_issue_active
// .ratio: average cycles a warp spends in that state per issued instruction. "selected" is the cycle a warp
// issues, not a stall: it is collected but never one of the top stalls of diff_profiles.
inline const std::vector<std::string>& ncu_stall_reasons() {
  static const std::vector<std::string> reasons = {
      "barrier",         "branch_resolving",   "dispatch_stall",   "drain",        "imc_miss",     "lg_throttle",
      "long_scoreboard", "math_pipe_throttle", "membar",           "mio_throttle", "misc",         "no_instruction",
      "not_selected",    "selected",           "short_scoreboard", "sleeping",     "tex_throttle", "wait"};
  return reasons;
}

// "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio" for "long_scoreboard".
std::string ncu_stall_metric(const std::string& reason);

// Every metric the diagnosis collects, in the order given to `ncu --metrics`.
std::vector<std::string> ncu_metric_names();
// The same joined with commas: the argument of `ncu --metrics`.
std::string ncu_metrics_argument();

// One profiled kernel launch: a row of the raw page.
struct KernelProfile {
  std::string kernel_name;  // as ncu prints it (--print-kernel-base decides the form)
  std::string block_size;   // "(256, 1, 1)"
  std::string grid_size;    // "(1056, 1, 1)"
  // Each metric of ncu_metric_names() this launch has, with its unit beside it. Times are in nanoseconds
  // ("nsecond") and instruction counts in "inst" whatever ncu's --print-units scaled them to; a metric
  // ncu left out or printed as "n/a" is absent.
  std::map<std::string, double> metrics;
  std::map<std::string, std::string> units;
};

// One `ncu` run over one benchmark: its launches in the order ncu printed them.
struct NcuProfile {
  std::vector<KernelProfile> kernels;
};

// Reads what `ncu --csv --page raw --metrics <ncu_metrics_argument()>` printed (stdout, ncu's own lines
// included); `source` names it in messages. Throws formats::InputError("<source>: ncu csv: ...") naming
// the line when there is no header row, no units row or no kernel row, a row's field count differs from
// the header's, a quote is not closed, or a metric value is not a number (a decimal comma, "65,77", is
// one). Columns of other metrics are ignored.
NcuProfile parse_ncu_csv(std::string_view text, const std::string& source);

// What to do about a stored profile that cannot be read.
inline constexpr const char* kRecordAgainHint = "record the profiles again with scripts/record_ncu.sh";

// {"kernels": [{"kernel_name", "block_size", "grid_size", "metrics": {"<name>": {"value", "unit"}}}]}.
// read_ncu_profile reads it from the object `profile` (formats/json_fields.h): formats::InputError naming
// the field on anything else. from_json is read_ncu_profile of a document named "ncu profile json".
NcuProfile read_ncu_profile(const formats::ObjectReader& profile);
void to_json(nlohmann::json& j, const NcuProfile& profile);
void from_json(const nlohmann::json& j, NcuProfile& profile);

// One row of the table: a metric aggregated over each profile's launches. before or after is NaN when that
// profile has the metric in no launch.
struct MetricDiff {
  std::string label;  // "duration", "stall: long_scoreboard"
  std::string unit;   // "us", "%", "registers", "conflicts", "inst", "cycles/issue"
  double before = 0.0;
  double after = 0.0;
};

// How many stall reasons diff_profiles lists: the largest, by the larger of before and after.
inline constexpr std::size_t kNcuTopStalls = 3;

// The rows, in this order: duration (sum over launches [us]), DRAM throughput, L2 throughput and achieved
// occupancy (means weighted by each launch's duration [%]), registers/thread (max), shared bank conflicts
// (loads + stores, summed), instructions executed (sum), then the kNcuTopStalls stall reasons (each a
// duration-weighted mean [cycles per issued instruction]) largest first. A metric in neither profile has
// no row. A launch without a duration does not count in a weighted mean.
std::vector<MetricDiff> diff_profiles(const NcuProfile& before, const NcuProfile& after);

// A Markdown table | Metric | <before_label> | <after_label> | Change |, one line per row, the change as
// after / before - 1 in percent ("+16.6%"), "n/a" when before is 0 or either side is missing.
std::string markdown_diff_table(const std::vector<MetricDiff>& rows, std::string_view before_label,
                                std::string_view after_label);

}  // namespace gpuperf::gate
