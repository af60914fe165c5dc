#pragma once
// perf_gate's commands, one function each, as the command table (cli.cpp) calls them: the arguments
// parsed against the command's options, the report stream and the error stream. Each returns the exit
// code (formats/exit_codes.h); bad input is a formats::InputError, a bad argument a UsageError.

#include <ostream>

#include "gate/cli/arguments.h"

namespace gpuperf::gate::cli {

using Run = int (*)(const Arguments& args, std::ostream& out, std::ostream& err);

// Judging (judge_commands.cpp).
int run_compare(const Arguments& args, std::ostream& out, std::ostream& err);
int run_unchanged(const Arguments& args, std::ostream& out, std::ostream& err);
int run_ab(const Arguments& args, std::ostream& out, std::ostream& err);
// The driver: a perf test against the stored baseline, two builds compared (driver_commands.cpp).
int run_stored_test(const Arguments& args, std::ostream& out, std::ostream& err);
int run_ab_test(const Arguments& args, std::ostream& out, std::ostream& err);
// Baselines (baseline_commands.cpp).
int run_record(const Arguments& args, std::ostream& out, std::ostream& err);
int run_migrate(const Arguments& args, std::ostream& out, std::ostream& err);
int run_merge_baselines(const Arguments& args, std::ostream& out, std::ostream& err);
int run_gpu(const Arguments& args, std::ostream& out, std::ostream& err);
// The same-code ledger (ledger_command.cpp).
int run_ledger(const Arguments& args, std::ostream& out, std::ostream& err);
// Nsight Compute (ncu_commands.cpp).
int run_ncu_metrics(const Arguments& args, std::ostream& out, std::ostream& err);
int run_ncu_diff(const Arguments& args, std::ostream& out, std::ostream& err);
int run_ncu_store(const Arguments& args, std::ostream& out, std::ostream& err);
// The fleet report (report_command.cpp).
int run_report(const Arguments& args, std::ostream& out, std::ostream& err);
// A run's measurements for Bencher and github-action-benchmark (metrics_command.cpp).
int run_metrics(const Arguments& args, std::ostream& out, std::ostream& err);
// A run's GitHub annotations (annotations_command.cpp).
int run_annotations(const Arguments& args, std::ostream& out, std::ostream& err);
// A run's pull-request comment (pr_comment_command.cpp).
int run_pr_comment(const Arguments& args, std::ostream& out, std::ostream& err);
// Measurement studies (analysis_commands.cpp).
int run_order_table(const Arguments& args, std::ostream& out, std::ostream& err);
int run_calibration_report(const Arguments& args, std::ostream& out, std::ostream& err);
// Where a run's time went (phases_command.cpp).
int run_phases(const Arguments& args, std::ostream& out, std::ostream& err);
// The name rule for the scripts and CMake (name_rules_command.cpp).
int run_name_rules(const Arguments& args, std::ostream& out, std::ostream& err);
// The history of every run on main (history_command.cpp).
int run_history_append(const Arguments& args, std::ostream& out, std::ostream& err);
int run_history_export(const Arguments& args, std::ostream& out, std::ostream& err);
int run_history_changes(const Arguments& args, std::ostream& out, std::ostream& err);
int run_history_offsets(const Arguments& args, std::ostream& out, std::ostream& err);
int run_history_remove(const Arguments& args, std::ostream& out, std::ostream& err);
int run_history_runs(const Arguments& args, std::ostream& out, std::ostream& err);

}  // namespace gpuperf::gate::cli
