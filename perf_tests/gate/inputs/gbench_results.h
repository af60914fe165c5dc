#pragma once
// A team's Google Benchmark suite: the JSON its binary writes with --benchmark_out=FILE
// --benchmark_out_format=json (manual or real time, with or without --benchmark_repetitions), read as the
// gate reads our perf binary's (results.h) and judged alike. Its names are mapped onto our rule in the
// suite's family (formats/foreign_names.h: "BM_saxpy/1024/manual_time" in saxpy_suite is
// saxpy_suite/BM_saxpy/1024); aggregate rows (_mean, _median, _stddev, _cv: run_type "aggregate") are
// not samples; each iteration row is one sample, itself the mean of the run's iterations. Such a file
// does not say which GPU ran it: the caller that ran it does.

#include <optional>
#include <string>

#include "formats/gpu_identity.h"
#include "formats/json_fields.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate {

// Whether an iteration row carries Google Benchmark's own flag `key`: "error_occurred" (SkipWithError, a
// failed run) or, from Google Benchmark 1.8, "skipped" (SkipWithMessage). Its JSON reporter writes a flag
// as the literal true (FormatKV(key, bool) in src/json_reporter.cc) and every user counter as a number in
// the same object: a suite's own counter named "skipped" or "error_occurred" is a number, never the flag.
// InputError (naming the row) where the value is neither a boolean nor a number.
bool gbench_flag(const formats::ObjectReader& row, const char* key);

// Parses one file of the suite `family` (a family name, formats/names.h). `gpu`, when given, is the GPU
// the suite ran on: its name and slug are held to the name rule (the slug made from the name where it has
// none). InputError for anything malformed, as parse_results, and for a run name that cannot be mapped
// or two that map onto one name.
ResultsFile parse_gbench_results(const std::string& text, const std::string& source, const std::string& family,
                                 const std::optional<formats::GpuIdentity>& gpu);
ResultsFile load_gbench_results(const std::string& path, const std::string& family,
                                const std::optional<formats::GpuIdentity>& gpu);

}  // namespace gpuperf::gate
