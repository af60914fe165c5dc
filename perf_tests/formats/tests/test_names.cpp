// formats/names.h: the one rule for benchmark, family and GPU names. Every name the committed baselines
// hold and every real GPU name passes it; what an attacker writes into a results file does not, and the
// message names it escaped, with the rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "formats/names.h"

namespace gpuperf::formats {
namespace {

using namespace std::string_literals;

bool valid(NameKind kind, const std::string& name) { return name_error(kind, name).empty(); }

TEST(Names, EveryNameOfTheCommittedBaselinesIsValid) {
  const std::filesystem::path baselines = std::filesystem::path(GPUPERF_BASELINES_DIR);
  int files = 0;
  for (const auto& file : std::filesystem::directory_iterator(baselines)) {
    // Baselines only: <gpu>.ncu.json beside them holds Nsight Compute profiles (another format).
    if (file.path().extension() != ".json" || file.path().stem().extension() == ".ncu") continue;
    ++files;
    std::ifstream in(file.path());
    const nlohmann::json doc = nlohmann::json::parse(in);
    EXPECT_EQ(name_error(NameKind::kGpu, doc.at("gpu").at("name").get<std::string>()), "") << file.path();
    for (const auto& family : doc.at("families").items()) {
      EXPECT_EQ(name_error(NameKind::kFamily, family.key()), "") << file.path();
    }
    for (const auto& benchmark : doc.at("benchmarks").items()) {
      EXPECT_EQ(name_error(NameKind::kBenchmark, benchmark.key()), "") << file.path();
    }
  }
  EXPECT_GE(files, 2);
}

TEST(Names, RealGpuNamesAreValid) {
  for (const char* name : {"NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA A100-SXM4-80GB", "NVIDIA H100 PCIe",
                           "NVIDIA GeForce RTX 4090", "Tesla V100-SXM2-16GB", "NVIDIA RTX 6000 Ada Generation",
                           "NVIDIA A100-SXM4-40GB MIG 1g.5gb", "NVIDIA GH200 480GB", "Tesla T4", "NVIDIA L40S"}) {
    EXPECT_EQ(name_error(NameKind::kGpu, name), "") << name;
  }
}

TEST(Names, TheSlugOfAGpuName) {
  EXPECT_EQ(gpu_slug("NVIDIA H200"), "nvidia-h200");
  EXPECT_EQ(gpu_slug("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(gpu_slug("  NVIDIA  A100-SXM4 (40GB) "), "nvidia-a100-sxm4-40gb");
  EXPECT_EQ(gpu_slug("Quadro GV100"), "quadro-gv100");
  EXPECT_EQ(gpu_slug("GPU \xc3\xa9/../x"), "gpu-x") << "nothing but letters, digits and '-'";
  EXPECT_EQ(gpu_slug("!!!"), "");
  for (const char* name : {"NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB MIG 1g.5gb", "Tesla T4"}) {
    EXPECT_EQ(name_error(NameKind::kGpuSlug, gpu_slug(name)), "") << name;
  }
}

TEST(Names, AGpuSlugNamesAFileAndNothingElse) {
  for (const char* slug : {"nvidia-h100-80gb-hbm3", "nvidia-h200", "nvidia-a100-sxm4-40gb-mig-1g.5gb", "tesla-t4"}) {
    EXPECT_EQ(name_error(NameKind::kGpuSlug, slug), "") << slug;
  }
  EXPECT_NE(name_error(NameKind::kGpuSlug, "../etc/x").find("does not start with a lower-case letter or digit"),
            std::string::npos);
  EXPECT_NE(name_error(NameKind::kGpuSlug, "a/../../b").find("has '/' at 1"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kGpuSlug, "nvidia-h200.").find("does not end with a lower-case letter or digit"),
            std::string::npos);
  EXPECT_NE(name_error(NameKind::kGpuSlug, "NVIDIA-H200").find("does not start with a lower-case"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kGpuSlug, "nvidia h200").find("has ' ' at 6"), std::string::npos);
}

TEST(Names, RegistryShapedNamesAreValid) {
  for (const char* name : {"reduction/reduce9_shfl_down_last_warp/n:33554432", "matmul/naive/m:1000,n:1001,k:999",
                           "occupancy/wave_sweep/waves:1.25", "smem_latency/ld_volatile_shared_u32/i:1,w:1,c:16",
                           "fam/variant/offset:-1", "a/b", "a/b/c/d"}) {
    EXPECT_EQ(name_error(NameKind::kBenchmark, name), "") << name;
  }
  EXPECT_TRUE(valid(NameKind::kFamily, "bank_conflicts"));
  EXPECT_TRUE(valid(NameKind::kNamePart, "n:268435456,match:0.0001"));
}

TEST(Names, APoisonedNameIsRefusedWithItsEscapedTextAndTheRule) {
  const std::string html = name_error(NameKind::kBenchmark, "fam/`<img src=x>`/n:1");
  EXPECT_EQ(html.rfind("benchmark name 'fam/`<img src=x>`/n:1' has '`' at 4; a benchmark name is family/part", 0), 0)
      << html;
  EXPECT_NE(html.find("(baselines/README.md, Names)"), std::string::npos) << html;

  const std::string command = name_error(NameKind::kBenchmark, "fam/x\n::error::pwned/n:1");
  EXPECT_EQ(command.rfind("benchmark name 'fam/x\\x0a::error::pwned/n:1' has a control character (\\x0a) at 5", 0), 0)
      << command;
  EXPECT_EQ(command.find('\n'), std::string::npos);

  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/\x1b[2Jx/n:1")
                .find("'fam/\\x1b[2Jx/n:1' has a control character (\\x1b) at 4"),
            std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/a\0b/n:1"s)
                .find("'fam/a\\x00b/n:1' has a control character (\\x00) at 5"),
            std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/caf\xc3\xa9/n:1").find("a non-ASCII byte (\\xc3) at 7"),
            std::string::npos);
  const std::string long_name = "fam/" + std::string(200, 'a') + "/n:1";
  EXPECT_NE(name_error(NameKind::kBenchmark, long_name).find("is 208 characters long (at most 160)"),
            std::string::npos);
}

TEST(Names, TheStructureIsFamilySlashParts) {
  EXPECT_NE(name_error(NameKind::kBenchmark, "").find("is empty"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "reduction").find("has no '/' after its family"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "1fam/x").find("has a family that does not start with a letter"),
            std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam//x").find("has an empty part at 4"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/x/").find("has an empty part at 5"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/@octocat").find("has '@' at 4"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/a|b").find("has '|' at 5"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/a b").find("has ' ' at 5"), std::string::npos);
  EXPECT_NE(name_error(NameKind::kBenchmark, "fam/a\\b").find("has '\\x5c' at 5"), std::string::npos);
}

TEST(Names, FamiliesAndGpuNames) {
  EXPECT_FALSE(valid(NameKind::kFamily, "fam-ily"));
  EXPECT_FALSE(valid(NameKind::kFamily, "_fam"));
  EXPECT_FALSE(valid(NameKind::kFamily, std::string(49, 'f')));
  EXPECT_TRUE(valid(NameKind::kFamily, std::string(48, 'f')));
  EXPECT_FALSE(valid(NameKind::kNamePart, "a/b"));
  EXPECT_FALSE(valid(NameKind::kGpu, "NVIDIA H200 "));
  EXPECT_FALSE(valid(NameKind::kGpu, " NVIDIA H200"));
  EXPECT_FALSE(valid(NameKind::kGpu, "NVIDIA <b>H200</b>"));
  EXPECT_FALSE(valid(NameKind::kGpu, "NVIDIA H200\n::error::x"));
  EXPECT_FALSE(valid(NameKind::kGpu, std::string(97, 'H')));
  EXPECT_NE(name_error(NameKind::kGpu, "NVIDIA `H200`").find("GPU name 'NVIDIA `H200`' has '`' at 7; a GPU name is"),
            std::string::npos);
}

// Names at every edge of the rule: lengths at and over each limit, every character class, control
// characters, a trailing newline, non-ASCII, "." and "..", empty parts; each is tried as every kind.
std::vector<std::string> name_corpus() {
  std::vector<std::string> corpus = {
      "", ".", "..", "/", "fam", "fam/", "fam//x", "/x", "fam/x/", "fam/x//y", "1fam/x", "_fam/x", "fam-ily/x",
      "reduction/reduce9_shfl_down_last_warp/n:33554432", "gemm/v01/m:1000,n:1001,k:999", "f/x", "F9_/a.b/c",
      "fam/..", "fam/.", "fam/-", "fam/a:b,c.d-e_f", "fam/a`b", "fam/a|b", "fam/a b", "fam/a<b", "fam/a&b",
      "fam/@octocat", "fam/[x](y)", "fam/a'b", "fam/a\"b", "fam/a\\b", "fam/x\n", "fam/x\r", "fam/a\tb",
      "fam/a\x01b", "fam/a\x7f", "fam/\xc3\xa9", "fam\n/x", "smem_latency", "smem-latency", "a", "A", "_", "9",
      "fam\n", "\xc3\xa9", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB MIG 1g.5gb", "Tesla T4", "H",
      "NVIDIA H200 ", " NVIDIA H200", "NVIDIA H200\n", "NVIDIA  H200", "NVIDIA H200.", "-H200", "NVIDIA_H200",
      "NVIDIA <b>H200</b>", "NVIDIA `H200`", "NVIDIA H200|x", "NVIDIA\tH200", "nvidia-h100-80gb-hbm3",
      "nvidia-a100-sxm4-40gb-mig-1g.5gb", "nvidia-h200-", "-nvidia", "nvidia..h200", "Nvidia-h200", "nvidia h200",
      "nvidia/h200", "nvidia-h200\n", "a.b", "a_b", "a-b", "ab", "a,b", "a:b", "a\0b"s, "fam/a\0b"s};
  for (const std::size_t length : {kMaxFamilyNameLength - 1, kMaxFamilyNameLength, kMaxFamilyNameLength + 1}) {
    corpus.push_back(std::string(length, 'f'));
    corpus.push_back(std::string(length, 'f') + "/x");
  }
  for (const std::size_t length : {kMaxBenchmarkNameLength, kMaxBenchmarkNameLength + 1}) {
    corpus.push_back("fam/" + std::string(length - 4, 'x'));
    corpus.push_back(std::string(length, 'x'));
  }
  for (const std::size_t length : {kMaxGpuNameLength - 1, kMaxGpuNameLength, kMaxGpuNameLength + 1}) {
    corpus.push_back("NVIDIA " + std::string(length - 7, 'H'));
    corpus.push_back("nvidia-" + std::string(length - 7, 'h'));
    corpus.push_back(std::string(length, 'h'));
  }
  return corpus;
}

const NameKind kEveryNameKind[] = {NameKind::kBenchmark, NameKind::kFamily, NameKind::kNamePart, NameKind::kGpu,
                                   NameKind::kGpuSlug};

// What the scripts do with name_pattern(): the whole text matches, and it is at most name_max_length() long.
bool matches_pattern(NameKind kind, const std::string& pattern, const std::string& text) {
  return std::regex_match(text, std::regex(pattern, std::regex::extended)) && text.size() <= name_max_length(kind);
}

TEST(Names, ThePatternsSayTheRule) {
  for (const NameKind kind : kEveryNameKind) {
    int valid_names = 0;
    int invalid_names = 0;
    for (const std::string& text : name_corpus()) {
      const bool is_valid = valid(kind, text);
      (is_valid ? valid_names : invalid_names) += 1;
      EXPECT_EQ(matches_pattern(kind, name_pattern(kind), text), is_valid)
          << name_pattern(kind) << " on '" << text << "': " << name_error(kind, text);
      // The bounds of a family's, a GPU name's and a slug's pattern hold the length: the pattern alone is the rule.
      if (kind == NameKind::kFamily || kind == NameKind::kGpu || kind == NameKind::kGpuSlug) {
        EXPECT_EQ(std::regex_match(text, std::regex(name_pattern(kind), std::regex::extended)), is_valid)
            << name_pattern(kind) << " alone on '" << text << "'";
      }
      // Without bounds, the length check alone holds the length; a benchmark name's family is checked apart.
      const bool family_checked =
          kind != NameKind::kBenchmark || valid(NameKind::kFamily, text.substr(0, text.find('/')));
      EXPECT_EQ(matches_pattern(kind, name_pattern_without_bounds(kind), text) && family_checked, is_valid)
          << name_pattern_without_bounds(kind) << " on '" << text << "': " << name_error(kind, text);
    }
    // The corpus tries both sides of every kind's rule.
    EXPECT_GE(valid_names, 5) << static_cast<int>(kind);
    EXPECT_GE(invalid_names, 20) << static_cast<int>(kind);
  }
}

TEST(Names, ThePatternsHaveNoAlternationOutsideParentheses) {
  // A script anchors a pattern as ^...$ without parentheses of its own: a top-level '|' would anchor one side.
  for (const NameKind kind : kEveryNameKind) {
    EXPECT_EQ(name_pattern(kind).find('|'), std::string::npos);
    EXPECT_EQ(name_pattern_without_bounds(kind).find('{'), std::string::npos);
  }
}

}  // namespace
}  // namespace gpuperf::formats
