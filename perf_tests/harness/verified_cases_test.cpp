// The correctness test's record of verified cases and the perf test's decision to leave a reference
// comparison out (harness/verified_cases.h): host-only, no GPU.
#include "harness/verified_cases.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "formats/tests/launch_fixture.h"

namespace gpuperf {
namespace {

constexpr const char* kSlug = "nvidia-h100-80gb-hbm3";
constexpr const char* kCase = "fusion/axpb_fused/n:1000";

formats::Fingerprint captured_fingerprint() {
  formats::KernelLaunch launch = formats::testing::launch_of("void axpb(float*, const float*, int)", "_Z4axpbPfPKfi",
                                                             {4, 1, 1}, {256, 1, 1}, 10, "86d1a29afca82517");
  launch.launches = 2;
  formats::Fingerprint fingerprint;
  fingerprint.kernels = {launch};
  fingerprint.libraries = {{"cuda_runtime", "13.0"}, {"cublas", "13.0.0"}};
  fingerprint.capture_status = formats::kCapturedByCupti;
  return fingerprint;
}

VerifiedCases fusion_record() {
  VerifiedCases record;
  record.family = "fusion";
  record.gpu_slug = kSlug;
  record.cases[kCase] = captured_fingerprint();
  return record;
}

class VerifiedCasesFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "verified_cases_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }
  void write(const std::string& family, const std::string& content) const {
    std::ofstream(verified_cases_path(folder_, family)) << content;
  }

  std::string folder_;
};

TEST_F(VerifiedCasesFiles, AWrittenRecordReadsBackEqual) {
  write_verified_cases(folder_ + "/made/by/the/writer", fusion_record());
  const VerifiedCasesRead read = read_verified_cases(folder_ + "/made/by/the/writer", "fusion");
  ASSERT_TRUE(read.record.has_value()) << read.warning;
  EXPECT_EQ(read.warning, "");
  EXPECT_EQ(read.record->family, "fusion");
  EXPECT_EQ(read.record->gpu_slug, kSlug);
  ASSERT_EQ(read.record->cases.size(), 1u);
  EXPECT_TRUE(read.record->cases.at(kCase) == captured_fingerprint());
}

TEST_F(VerifiedCasesFiles, AnEmptyRecordListsNoCase) {
  VerifiedCases record = fusion_record();
  record.cases.clear();
  write_verified_cases(folder_, record);
  const VerifiedCasesRead read = read_verified_cases(folder_, "fusion");
  ASSERT_TRUE(read.record.has_value()) << read.warning;
  EXPECT_TRUE(read.record->cases.empty());
}

TEST_F(VerifiedCasesFiles, NoFileIsNoRecordAndNoWarning) {
  const VerifiedCasesRead read = read_verified_cases(folder_, "fusion");
  EXPECT_FALSE(read.record.has_value());
  EXPECT_EQ(read.warning, "");
  const VerifiedCasesRead no_folder = read_verified_cases(folder_ + "/absent", "fusion");
  EXPECT_FALSE(no_folder.record.has_value());
  EXPECT_EQ(no_folder.warning, "");
}

// Every way a record can be unusable: never a pass, always "check everything", with a warning that says so.
TEST_F(VerifiedCasesFiles, ACorruptRecordMeansCheckEveryCase) {
  const std::string good = nlohmann::json(fusion_record()).dump();
  nlohmann::json bad_hash = nlohmann::json(fusion_record());
  bad_hash["cases"][kCase]["kernels"][0]["sass_hash"] = "not-a-hash";
  nlohmann::json other_schema = nlohmann::json(fusion_record());
  other_schema["schema_version"] = kVerifiedCasesSchema + 1;
  nlohmann::json other_family = nlohmann::json(fusion_record());
  other_family["family"] = "reduction";
  nlohmann::json foreign_case = nlohmann::json(fusion_record());
  foreign_case["cases"]["reduction/reduce1/n:1"] = foreign_case["cases"][kCase];
  const std::vector<std::pair<std::string, std::string>> corrupt = {
      {"truncated", good.substr(0, good.size() / 2)},
      {"empty", ""},
      {"not an object", "[1, 2]"},
      {"bad sass hash", bad_hash.dump()},
      {"other schema", other_schema.dump()},
      {"other family", other_family.dump()},
      {"a case of another family", foreign_case.dump()},
      {"no gpu", R"({"schema_version": 1, "family": "fusion", "cases": {}})"},
  };
  for (const auto& [what, content] : corrupt) {
    write("fusion", content);
    const VerifiedCasesRead read = read_verified_cases(folder_, "fusion");
    EXPECT_FALSE(read.record.has_value()) << what;
    EXPECT_NE(read.warning.find(verified_cases_path(folder_, "fusion")), std::string::npos) << what << ": " << read.warning;
    EXPECT_NE(read.warning.find("every case of fusion is checked"), std::string::npos) << what << ": " << read.warning;

    std::vector<std::string> warnings;
    const VerifiedCasesIndex index(folder_, {"fusion"}, kSlug, warnings);
    EXPECT_EQ(warnings.size(), 1u) << what;
    EXPECT_FALSE(index.lists("fusion", kCase)) << what;
    EXPECT_FALSE(index.decide("fusion", kCase, captured_fingerprint()).skip) << what;
  }
}

TEST_F(VerifiedCasesFiles, AFolderInPlaceOfTheFileIsAWarning) {
  std::filesystem::create_directories(verified_cases_path(folder_, "fusion"));
  const VerifiedCasesRead read = read_verified_cases(folder_, "fusion");
  EXPECT_FALSE(read.record.has_value());
  EXPECT_NE(read.warning, "");
}

TEST_F(VerifiedCasesFiles, TheIndexReadsEachFamilysFileAndDecidesPerCase) {
  write_verified_cases(folder_, fusion_record());
  std::vector<std::string> warnings;
  const VerifiedCasesIndex index(folder_, {"fusion", "reduction", "fusion"}, kSlug, warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_TRUE(index.lists("fusion", kCase));
  EXPECT_FALSE(index.lists("fusion", "fusion/axpb_fused/n:2000"));
  EXPECT_FALSE(index.lists("reduction", "reduction/reduce1/n:1"));
  EXPECT_TRUE(index.decide("fusion", kCase, captured_fingerprint()).skip);
  EXPECT_FALSE(index.decide("reduction", "reduction/reduce1/n:1", captured_fingerprint()).skip);
}

TEST(ReferenceCheckDecision, SkipsOnlyTheVerifiedCodeOnTheSameGpuModel) {
  const VerifiedCases record = fusion_record();
  const ReferenceCheckDecision same = decide_reference_check(&record, kSlug, kCase, captured_fingerprint());
  EXPECT_TRUE(same.skip);
  EXPECT_EQ(same.reason, "");

  const auto checks = [&record](const formats::Fingerprint& captured, const std::string& slug = kSlug,
                                const std::string& name = kCase) {
    return decide_reference_check(&record, slug, name, captured);
  };
  EXPECT_EQ(decide_reference_check(nullptr, kSlug, kCase, captured_fingerprint()).reason,
            "no record of the correctness test");
  EXPECT_EQ(checks(captured_fingerprint(), kSlug, "fusion/axpb_fused/n:2000").reason,
            "not verified by the correctness test");
  EXPECT_EQ(checks(captured_fingerprint(), "nvidia-h200").reason, "verified on nvidia-h100-80gb-hbm3, not nvidia-h200");

  const std::string differs = "the fingerprint differs from the verified run's";
  formats::Fingerprint other_code = captured_fingerprint();
  other_code.kernels[0].sass_hash = "0123456789abcdef";
  EXPECT_EQ(checks(other_code).reason, differs);
  formats::Fingerprint other_grid = captured_fingerprint();
  other_grid.kernels[0].grid = {8, 1, 1};
  EXPECT_EQ(checks(other_grid).reason, differs);
  formats::Fingerprint other_launches = captured_fingerprint();
  other_launches.kernels[0].launches = 3;
  EXPECT_EQ(checks(other_launches).reason, differs);
  formats::Fingerprint other_library = captured_fingerprint();
  other_library.libraries["cublas"] = "13.1.0";
  EXPECT_EQ(checks(other_library).reason, differs);
  formats::Fingerprint one_more_kernel = captured_fingerprint();
  one_more_kernel.kernels.push_back(one_more_kernel.kernels[0]);
  one_more_kernel.kernels.back().mangled_name = "_Z5otherv";
  EXPECT_EQ(checks(one_more_kernel).reason, differs);
}

TEST(ReferenceCheckDecision, AFingerprintThatProvesNothingIsChecked) {
  formats::Fingerprint not_captured;
  not_captured.capture_status = "another profiler holds CUPTI: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
  VerifiedCases record = fusion_record();
  EXPECT_EQ(decide_reference_check(&record, kSlug, kCase, not_captured).reason, "no fingerprint captured here");

  // Equal, but neither names the machine code of its kernel, or launches any kernel.
  formats::Fingerprint unknown_code = captured_fingerprint();
  unknown_code.kernels[0].sass_hash = "";
  record.cases[kCase] = unknown_code;
  EXPECT_EQ(decide_reference_check(&record, kSlug, kCase, unknown_code).reason, "a kernel's machine code is unknown");
  formats::Fingerprint no_kernels = captured_fingerprint();
  no_kernels.kernels.clear();
  record.cases[kCase] = no_kernels;
  EXPECT_FALSE(decide_reference_check(&record, kSlug, kCase, no_kernels).skip);

  record.cases[kCase] = not_captured;
  EXPECT_EQ(decide_reference_check(&record, kSlug, kCase, captured_fingerprint()).reason,
            "the verified run has no fingerprint");
}

}  // namespace
}  // namespace gpuperf
