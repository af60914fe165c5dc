// The Nsight Compute diagnosis as data (ncu/diagnosis.h) and its words (reports/ncu_diagnosis_text.h): which
// SLOW benchmarks are looked at, every skip reason's line, one cause said once, and the report's section
// for the fixtures' profiles (golden file testdata/expected/ncu_diagnosis_stored.md, written by
// scripts/ncu_diagnose.sh before the driver diagnosed in-process).
#include <gtest/gtest.h>

#include <sstream>

#include "gate/ncu/diagnosis.h"
#include "gate/reports/ncu_diagnosis_text.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kReduce1 = "reduction/reduce1_interleaved_divergent/n:1048576";

BenchmarkComparison row_of(const std::string& name, Verdict verdict, double ratio) {
  BenchmarkComparison row;
  row.name = name;
  row.verdict = verdict;
  row.ratio = ratio;
  return row;
}

NcuDiagnosis skipped(const std::string& name, NcuSkip reason, NcuSide side = NcuSide::kNow, std::string path = "",
                     std::string detail = "") {
  return {name, NcuSkipped{reason, side, std::move(path), std::move(detail)}, NcuPair::kBaselineNow, {}, ""};
}

NcuDiagnosis diagnosed(const std::string& name, NcuPair pair) {
  const NcuProfile before = parse_ncu_csv(testing::read_fixture_text("ncu_before.csv"), "before.csv");
  const NcuProfile after = parse_ncu_csv(testing::read_fixture_text("ncu_after.csv"), "after.csv");
  return {name, std::nullopt, pair, diff_profiles(before, after), "work/ncu/1.json"};
}

std::string console_of(const std::vector<NcuDiagnosis>& entries) {
  std::ostringstream out;
  write_ncu_diagnosis_console(entries, out);
  return out.str();
}

TEST(NcuDiagnosis, LooksAtTheThreeSlowestSlowBenchmarksLargestChangeFirst) {
  Comparison comparison;
  comparison.benchmarks = {row_of("a/fast/n:1", Verdict::kFast, 0.5),     row_of("a/s1/n:1", Verdict::kSlow, 1.10),
                           row_of("a/s2/n:1", Verdict::kSlow, 1.40),      row_of("a/same/n:1", Verdict::kSame, 2.0),
                           row_of("a/s3/n:1", Verdict::kSlow, 1.20),      row_of("a/s4/n:1", Verdict::kSlow, 1.20),
                           row_of("a/s5/n:1", Verdict::kSlow, 1.05)};
  EXPECT_EQ(slowest_slow(comparison), (std::vector<std::string>{"a/s2/n:1", "a/s3/n:1", "a/s4/n:1"}))
      << "SLOW only, by change, equal changes in the comparison's order, three of them";
  EXPECT_EQ(slowest_slow(comparison, 1), (std::vector<std::string>{"a/s2/n:1"}));
  comparison.benchmarks = {row_of("a/same/n:1", Verdict::kSame, 1.5)};
  EXPECT_TRUE(slowest_slow(comparison).empty()) << "no SLOW benchmark, nothing to diagnose";
}

TEST(NcuDiagnosis, ProfilesOnlyBenchmarksWithACapturedFingerprintOfKernels) {
  const ResultsFile results = load_results(testing::testdata("results_fingerprint_only.json"));
  EXPECT_TRUE(profilable(results, kReduce9));
  EXPECT_FALSE(profilable(results, "reduction/absent/n:1"));
  ResultsFile uncaptured = results;
  uncaptured.fingerprints[kReduce9].capture_status = "off: no CUPTI";
  EXPECT_FALSE(profilable(uncaptured, kReduce9));
  ResultsFile no_kernels = results;
  no_kernels.fingerprints[kReduce9].kernels.clear();
  EXPECT_FALSE(profilable(no_kernels, kReduce9));
}

TEST(NcuDiagnosisText, WordsEverySkipReason) {
  const std::string n = "f/v/n:1";
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNcuNotFound, NcuSide::kNow, "ncu")),
            "ncu not found (no program ncu: install Nsight Compute and put ncu on PATH, or set NCU to its path)");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kProfileScriptMissing, NcuSide::kNow, "/a/ncu_profile.sh, /b/ncu_profile.sh")),
            "ncu_profile.sh is not installed beside this perf_gate (looked for /a/ncu_profile.sh, /b/ncu_profile.sh): "
            "reinstall the package");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNoStoredProfiles, NcuSide::kNow, "b/gpu.ncu.json")),
            "no Nsight Compute profiles stored beside the baseline (b/gpu.ncu.json): record them with "
            "scripts/record_ncu.sh");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNoStoredProfile, NcuSide::kNow, "b/gpu.ncu.json", "^(f/v/n:1)(/|$)")),
            "no profile of f/v/n:1 in b/gpu.ncu.json: record it with scripts/record_ncu.sh --filter '^(f/v/n:1)(/|$)'");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNoFingerprint, NcuSide::kBuildA, "out/a.round1.json")),
            "ncu could not profile f/v/n:1 in build A: no fingerprint of f/v/n:1 in out/a.round1.json");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNoFingerprint, NcuSide::kNow, "r.json", "r.json: not JSON")),
            "ncu could not profile f/v/n:1: no fingerprint of f/v/n:1 in r.json (r.json: not JSON)");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNoGpuNamed, NcuSide::kNow, "r.json", "its context has no gpu_slug")),
            "no GPU named in r.json: its context has no gpu_slug");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNotProfiled, NcuSide::kBuildB, "o/ncu/b.ncu.json.log",
                                  "==ERROR== ERR_NVGPUCTRPERM - no permission")),
            "ncu could not profile f/v/n:1 in build B: ==ERROR== ERR_NVGPUCTRPERM - no permission");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNotProfiled, NcuSide::kNow, "o/ncu/now.ncu.json.log")),
            "ncu could not profile f/v/n:1: see o/ncu/now.ncu.json.log");
  EXPECT_EQ(ncu_skip_text(skipped(n, NcuSkip::kNoDiagnosis, NcuSide::kNow, "", "p.json: not JSON")),
            "no diagnosis of f/v/n:1: p.json: not JSON");
  EXPECT_EQ(ncu_skip_text(diagnosed(n, NcuPair::kBaselineNow)), "") << "a diagnosed entry has no reason";
}

TEST(NcuDiagnosisText, OneCauseThatStopsEveryBenchmarkIsSaidOnce) {
  const std::vector<NcuDiagnosis> entries = {skipped("f/a/n:1", NcuSkip::kNcuNotFound, NcuSide::kNow, "ncu"),
                                             skipped("f/b/n:1", NcuSkip::kNcuNotFound, NcuSide::kNow, "ncu")};
  EXPECT_EQ(ncu_diagnosis_markdown(entries),
            "\nNcu diagnosis skipped: ncu not found (no program ncu: install Nsight Compute and put ncu on PATH, or "
            "set NCU to its path).\n");
  EXPECT_EQ(console_of(entries),
            "ncu diagnosis skipped: ncu not found (no program ncu: install Nsight Compute and put ncu on PATH, or set "
            "NCU to its path)\n");
  EXPECT_EQ(ncu_diagnosis_markdown({}), "") << "nothing SLOW, no section";
}

// The section scripts/ncu_diagnose.sh appended for the same inputs: one benchmark without a stored profile,
// one diagnosed against the baseline's.
TEST(NcuDiagnosisText, MarkdownSectionIsWhatTheScriptAppended) {
  const std::vector<NcuDiagnosis> entries = {
      skipped(kReduce1, NcuSkip::kNoStoredProfile, NcuSide::kNow, "profiles.ncu.json",
              "^(reduction/reduce1_interleaved_divergent/n:1048576)(/|$)"),
      diagnosed(kReduce9, NcuPair::kBaselineNow)};
  testing::expect_golden("ncu_diagnosis_stored.md", ncu_diagnosis_markdown(entries));
}

TEST(NcuDiagnosisText, AbTablesNameTheBuildsAndTheConsoleGivesTheDuration) {
  const std::vector<NcuDiagnosis> entries = {diagnosed("f/v/n:1", NcuPair::kBuildAB)};
  const std::string markdown = ncu_diagnosis_markdown(entries);
  EXPECT_EQ(markdown.rfind("\n#### Nsight Compute: f/v/n:1\n\n| Metric | build A | build B | Change |\n", 0), 0u)
      << markdown;
  EXPECT_EQ(console_of(entries), "ncu diagnosis of f/v/n:1: duration +15.6% (build A -> build B); profiles: "
                                 "work/ncu/1.json\n");
}

}  // namespace
}  // namespace gpuperf::gate
