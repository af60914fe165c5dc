// The Nsight Compute diagnosis end to end without a GPU (driver/ncu_diagnosis.h): a stand-in ncu, written
// by each test, writes the bench's order file and prints a raw page made from the fixtures
// testdata/ncu_{before,after}.csv (reduce9's two launches, named and sized as the fingerprint in
// testdata/results_fingerprint_only.json has them), through scripts/ncu_profile.sh, the split, the store
// and the diff in-process; and every reason a benchmark is not diagnosed.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "gate/driver/ncu_diagnosis.h"
#include "gate/ncu/stored_profiles.h"
#include "gate/reports/ncu_diagnosis_text.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate::driver {
namespace {

using testing::file_text;
using testing::read_fixture_text;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kReduce1 = "reduction/reduce1_interleaved_divergent/n:1048576";
constexpr const char* kReduce9Mangled = "_ZN7gpuperf9reduction27reduce9_shfl_down_last_warpILi256EEEvPKilPi";

// A fixture's rows as ncu prints reduce9_shfl_down_last_warp's two launches of the fingerprint fixture.
std::string fingerprinted_rows(const std::string& fixture) {
  std::string text = std::regex_replace(
      read_fixture_text(fixture),
      std::regex(R"re("void gpuperf::reduction::\(anonymous namespace\)::reduce9_kernel<256>\(const int \*, long, int \*\)")re"),
      std::string("\"") + kReduce9Mangled + "\"");
  return std::regex_replace(text, std::regex(R"re("\(1056, 1, 1\)")re"), "\"(128, 1, 1)\"");
}

Comparison slow(std::vector<std::pair<std::string, double>> rows) {
  Comparison comparison;
  for (const auto& [name, ratio] : rows) {
    BenchmarkComparison row;
    row.name = name;
    row.verdict = Verdict::kSlow;
    row.ratio = ratio;
    comparison.benchmarks.push_back(row);
  }
  return comparison;
}

class NcuDiagnosisRun : public testing::ScratchFolderTest {
 protected:
  // A stand-in ncu: writes the order file the bench would (`order`, unless empty), prints `csv_of_a` when
  // it profiles a bench under a/ and `csv` otherwise, `message` on stderr, and exits `rc`.
  std::string fake_ncu(const std::string& order, const std::string& csv, const std::string& message = "",
                       int rc = 0, const std::string& csv_of_a = "") {
    const std::string rows = write("rows.csv", csv);
    const std::string rows_of_a = write("rows_a.csv", csv_of_a.empty() ? csv : csv_of_a);
    const std::string orders = write("order.txt", order);
    std::ostringstream script;
    script << "#!/bin/sh\nfor a in \"$@\"; do case $a in --profiler-window-order=*) "
           << (order.empty() ? ":" : "cp '" + orders + "' \"${a#*=}\"") << ";; esac; done\n"
           << "case \"$*\" in *'" << path("a/bench") << "'*) cat '" << rows_of_a << "';; *) cat '" << rows
           << "';; esac\n"
           << (message.empty() ? "" : "echo '" + message + "' >&2\n") << "exit " << rc << "\n";
    const std::string ncu = write("ncu", script.str());
    std::filesystem::permissions(ncu, std::filesystem::perms::owner_all);
    return ncu;
  }

  std::string stored_profiles() {
    store_ncu_profiles(path("profiles.ncu.json"), "nvidia-h200",
                       {{kReduce9, parse_ncu_csv(fingerprinted_rows("ncu_before.csv"), "before.csv")}});
    return path("profiles.ncu.json");
  }

  // The results fixture with `edit` applied, written as `name`.
  std::string results(const std::string& name, const std::function<void(nlohmann::json&)>& edit = {}) {
    nlohmann::json doc = nlohmann::json::parse(read_fixture_text("results_fingerprint_only.json"));
    if (edit) edit(doc);
    return write(name, doc.dump(2));
  }

  StoredDiagnosisPaths stored_paths(const std::string& stored, const std::string& fingerprints) {
    return {stored, path("bench"), fingerprints, path("work")};
  }

  // `text` with this test's folder left out, as the golden file has relative paths.
  std::string relative(const std::string& text) const {
    std::string out = text;
    const std::string prefix = dir_.string() + "/";
    for (std::size_t at; (at = out.find(prefix)) != std::string::npos;) out.erase(at, prefix.size());
    return out;
  }

  static const NcuSkipped& why(const NcuDiagnosis& entry) {
    static const NcuSkipped none{};
    EXPECT_TRUE(entry.skipped) << entry.benchmark << " was diagnosed";
    return entry.skipped ? *entry.skipped : none;
  }
};

TEST_F(NcuDiagnosisRun, StoredModeDiagnosesAgainstTheBaselinesProfilesAsTheScriptDid) {
  const std::string ncu = fake_ncu(std::string(kReduce9) + "\n", fingerprinted_rows("ncu_after.csv"));
  const std::vector<NcuDiagnosis> entries =
      diagnose_stored(slow({{kReduce9, 1.156}, {kReduce1, 1.20}}),
                      stored_paths(stored_profiles(), results("fingerprints.json")), {ncu});
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].benchmark, kReduce1) << "largest change first";
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNoStoredProfile);
  ASSERT_TRUE(entries[1].diagnosed()) << ncu_skip_text(entries[1]);
  testing::expect_golden("ncu_diagnosis_stored.md", relative(ncu_diagnosis_markdown(entries)));
  EXPECT_EQ(load_ncu_baseline(path("work/ncu/now.ncu.json")).benchmarks.count(kReduce9), 1u)
      << "now's profile stays beside the run for a person to read";
  EXPECT_TRUE(std::filesystem::exists(path("work/ncu/now.ncu.json.csv")));
  EXPECT_EQ(entries[1].profiles_path, path("work/ncu/1.json"));
  EXPECT_NE(file_text(entries[1].profiles_path).find("\"before\""), std::string::npos);
}

TEST_F(NcuDiagnosisRun, AbModeProfilesBothBuildsWithTheirRoundOneFingerprints) {
  results("work/a.round1.json");
  std::filesystem::create_directories(path("work"));
  results("work/a.round1.json");
  results("work/b.round1.json");
  const std::string ncu = fake_ncu(std::string(kReduce9) + "\n", fingerprinted_rows("ncu_after.csv"), "", 0,
                                   fingerprinted_rows("ncu_before.csv"));
  const std::vector<NcuDiagnosis> entries =
      diagnose_ab(slow({{kReduce9, 1.156}}), {path("a/bench"), path("b/bench"), path("work")}, {ncu});
  ASSERT_EQ(entries.size(), 1u);
  ASSERT_TRUE(entries[0].diagnosed()) << ncu_skip_text(entries[0]);
  EXPECT_EQ(entries[0].pair, NcuPair::kBuildAB);
  std::ostringstream console;
  write_ncu_diagnosis_console(entries, console);
  EXPECT_EQ(relative(console.str()),
            std::string("ncu diagnosis of ") + kReduce9 + ": duration +15.6% (build A -> build B); profiles: work/ncu/1.json\n");
  EXPECT_TRUE(std::filesystem::exists(path("work/ncu/a.ncu.json")));
  EXPECT_TRUE(std::filesystem::exists(path("work/ncu/b.ncu.json")));
}

TEST_F(NcuDiagnosisRun, NothingSlowIsNothingToDiagnose) {
  EXPECT_TRUE(diagnose_stored(Comparison{}, stored_paths(path("none.json"), path("none.json")), {path("no-ncu")}).empty());
}

TEST_F(NcuDiagnosisRun, WithoutNcuEveryBenchmarkIsSkippedForIt) {
  const std::vector<NcuDiagnosis> entries = diagnose_stored(
      slow({{kReduce9, 1.2}, {kReduce1, 1.1}}), stored_paths(stored_profiles(), results("f.json")), {path("no-ncu")});
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNcuNotFound);
  EXPECT_EQ(why(entries[1]).reason, NcuSkip::kNcuNotFound);
  EXPECT_EQ(why(entries[0]).path, path("no-ncu"));
}

TEST_F(NcuDiagnosisRun, WithoutStoredProfilesNothingIsProfiled) {
  const std::string ncu = fake_ncu(std::string(kReduce9) + "\n", fingerprinted_rows("ncu_after.csv"));
  const std::vector<NcuDiagnosis> entries =
      diagnose_stored(slow({{kReduce9, 1.2}}), stored_paths(path("absent.ncu.json"), results("f.json")), {ncu});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNoStoredProfiles);
  EXPECT_FALSE(std::filesystem::exists(path("work/ncu/now.ncu.json.csv"))) << "ncu was not run";
}

TEST_F(NcuDiagnosisRun, AnUnreadableStoredFileIsNoDiagnosis) {
  const std::string ncu = fake_ncu(std::string(kReduce9) + "\n", fingerprinted_rows("ncu_after.csv"));
  const std::vector<NcuDiagnosis> entries = diagnose_stored(
      slow({{kReduce9, 1.2}}), stored_paths(write("bad.ncu.json", "not json"), results("f.json")), {ncu});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNoDiagnosis);
  EXPECT_NE(why(entries[0]).detail.find("bad.ncu.json"), std::string::npos) << why(entries[0]).detail;
}

TEST_F(NcuDiagnosisRun, ABenchmarkWithoutAFingerprintIsNotProfiled) {
  const std::string ncu = fake_ncu(std::string(kReduce9) + "\n", fingerprinted_rows("ncu_after.csv"));
  const std::string fingerprints = results("f.json", [](nlohmann::json& doc) { doc["fingerprints"].erase(kReduce9); });
  const std::vector<NcuDiagnosis> entries =
      diagnose_stored(slow({{kReduce9, 1.2}}), stored_paths(stored_profiles(), fingerprints), {ncu});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNoFingerprint);
  EXPECT_EQ(why(entries[0]).path, fingerprints);
}

TEST_F(NcuDiagnosisRun, ResultsThatNameNoGpuAreNotProfiled) {
  const std::string ncu = fake_ncu(std::string(kReduce9) + "\n", fingerprinted_rows("ncu_after.csv"));
  const std::string fingerprints = results("f.json", [](nlohmann::json& doc) { doc["context"].erase("gpu_slug"); });
  const std::vector<NcuDiagnosis> entries =
      diagnose_stored(slow({{kReduce9, 1.2}}), stored_paths(stored_profiles(), fingerprints), {ncu});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNoGpuNamed);
}

TEST_F(NcuDiagnosisRun, NcusFirstErrorLineSaysWhyNothingWasProfiled) {
  const std::string ncu = fake_ncu("", "", "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission", 1);
  const std::vector<NcuDiagnosis> entries =
      diagnose_stored(slow({{kReduce9, 1.2}}), stored_paths(stored_profiles(), results("f.json")), {ncu});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNotProfiled);
  EXPECT_EQ(why(entries[0]).detail, "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission");
}

TEST_F(NcuDiagnosisRun, RowsThatAreNotTheFingerprintsLaunchesAreLeftOut) {
  // The fixture as ncu printed it, another kernel name and grid than the fingerprint's launches.
  const std::string ncu = fake_ncu(std::string(kReduce9) + "\n", read_fixture_text("ncu_after.csv"));
  const std::vector<NcuDiagnosis> entries =
      diagnose_stored(slow({{kReduce9, 1.2}}), stored_paths(stored_profiles(), results("f.json")), {ncu});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(why(entries[0]).reason, NcuSkip::kNotProfiled);
  EXPECT_NE(why(entries[0]).detail.find("not its fingerprint's"), std::string::npos) << why(entries[0]).detail;
}

}  // namespace
}  // namespace gpuperf::gate::driver
