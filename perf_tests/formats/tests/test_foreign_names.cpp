// formats/foreign_names.h: Google Benchmark and nvbench names on our name rule and back. The examples of
// the header and docs/suites.md, names no rule could hold (control characters, Markdown, non-ASCII, 10,000
// characters), the names the inverse must refuse, and a property test: over random names, what
// *_to_our_name writes passes the rule and *_from_our_name gives back exactly what it was given.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "formats/foreign_names.h"
#include "formats/names.h"

namespace gpuperf::formats {
namespace {

using namespace std::string_literals;

std::string gbench(const std::string& run_name, const std::string& family = "saxpy_suite") {
  const MappedName mapped = gbench_to_our_name(family, run_name);
  EXPECT_TRUE(mapped.ok()) << mapped.error;
  return mapped.name;
}

std::string nvbench(const NvbenchState& state, const std::string& family = "suite") {
  const MappedName mapped = nvbench_to_our_name(family, state);
  EXPECT_TRUE(mapped.ok()) << mapped.error;
  return mapped.name;
}

TEST(ForeignNames, GoogleBenchmarkFunctionArgumentsAndThreads) {
  EXPECT_EQ(gbench("BM_saxpy/1024/manual_time"), "saxpy_suite/BM_saxpy/1024");
  EXPECT_EQ(gbench("BM_copy<float>/4096/real_time"), "saxpy_suite/BM_copy_x3cfloat_x3e/4096");
  EXPECT_EQ(gbench("BM_x/threads:2"), "saxpy_suite/BM_x/threads:2") << "threads:N is another benchmark";
  EXPECT_EQ(gbench("BM_x/8/min_time:0.500/iterations:10/repeats:5/process_time/real_time/threads:4"),
            "saxpy_suite/BM_x/8/threads:4");
  EXPECT_EQ(gbench("BM_gemm/m:1024/n:512/manual_time"), "saxpy_suite/BM_gemm/m:1024/n:512") << "named arguments";
  EXPECT_EQ(gbench("BM_plain"), "saxpy_suite/BM_plain");
  EXPECT_EQ(gbench("BM_negative/-1"), "saxpy_suite/BM_negative/-1");
  EXPECT_EQ(gbench("BM_pair<int, 4>/1"), "saxpy_suite/BM_pair_x3cint,_x204_x3e/1");
}

TEST(ForeignNames, GoogleBenchmarkNamesComeBack) {
  for (const char* run_name : {"BM_saxpy/1024", "BM_copy<float>/4096", "BM_x/threads:2", "BM_gemm/m:1024/n:512",
                               "BM_plain", "a_x41/_x", "BM with spaces/1", "BM_a__x5f"}) {
    const GbenchName back = gbench_from_our_name(gbench(run_name));
    EXPECT_EQ(back.error, "");
    EXPECT_EQ(back.family, "saxpy_suite");
    EXPECT_EQ(back.run_name, run_name);
  }
  EXPECT_NE(gbench_from_our_name("saxpy_suite/BM_saxpy/1024/manual_time").error.find("not one the Google Benchmark"),
            std::string::npos)
      << "a run setting is never part of a name the mapping writes";
}

TEST(ForeignNames, OurOwnSuiteStripsThreadsToo) {
  EXPECT_EQ(gbench_run_name_without_settings("a/b/n:1/min_time:0.500/repeats:30/manual_time/threads:2", false),
            "a/b/n:1");
  EXPECT_EQ(gbench_run_name_without_settings("a/b/n:1/min_time:0.500/repeats:30/manual_time/threads:2", true),
            "a/b/n:1/threads:2");
  EXPECT_EQ(gbench_run_name_without_settings("manual_time", true), "manual_time") << "the first component stays";
  EXPECT_EQ(gbench_run_name_without_settings("BM_x/real_time/8", true), "BM_x/real_time/8")
      << "only settings at the end are Google Benchmark's";
  EXPECT_TRUE(is_gbench_run_setting("threads:2", true));
  EXPECT_FALSE(is_gbench_run_setting("threads:2", false));
  EXPECT_FALSE(is_gbench_run_setting("n:1024", true));
}

TEST(ForeignNames, NvbenchAxesLeaveOutTheDevice) {
  const NvbenchState copy_sweep{"copy_sweep", {{"BlockSize", "64"}, {"T", "I32"}, {"Elements", "1048576"}}};
  EXPECT_EQ(nvbench(copy_sweep), "suite/copy_sweep/BlockSize:64,T:I32,Elements:1048576");
  EXPECT_EQ(nvbench({"simple", {}}), "suite/simple") << "a benchmark without axes";
  // ',' and ':' separate axes and values: in an axis's name or value they are escaped.
  EXPECT_EQ(nvbench({"b", {{"Pair", "1,2"}, {"Ratio", "0.5"}, {"Name", "a:b"}, {"Empty", ""}}}),
            "suite/b/Pair:1_x2c2,Ratio:0.5,Name:a_x3ab,Empty:");
  EXPECT_EQ(nvbench({"cub::DeviceReduce::Sum", {{"T{ct}", "F32"}}}), "suite/cub::DeviceReduce::Sum/T_x7bct_x7d:F32")
      << "':' is kept in a benchmark's name";
  EXPECT_EQ(nvbench({"a/b", {{"Scale", "1e+20"}}}), "suite/a_x2fb/Scale:1e_x2b20");
  EXPECT_EQ(nvbench_from_our_name("suite/b/A_x3a1:2").state.axis_values.at(0).name, "A:1")
      << "an escaped ':' separates nothing";

  const NvbenchName back = nvbench_from_our_name("suite/copy_sweep/BlockSize:64,T:I32,Elements:1048576");
  EXPECT_EQ(back.error, "");
  EXPECT_EQ(back.family, "suite");
  EXPECT_EQ(back.state.benchmark, "copy_sweep");
  ASSERT_EQ(back.state.axis_values.size(), 3u);
  EXPECT_EQ(back.state.axis_values[0].name, "BlockSize");
  EXPECT_EQ(back.state.axis_values[0].value, "64");
  EXPECT_EQ(back.state.axis_values[2].name, "Elements");
  EXPECT_EQ(back.state.axis_values[2].value, "1048576");
}

TEST(ForeignNames, NvbenchStateNamesAsNvbenchShowsThem) {
  const NvbenchAxisValues parsed = nvbench_axis_values_from_state_name("Device=0 BlockSize=2^6 T=I32 Elements[pow2]=20");
  ASSERT_EQ(parsed.error, "");
  ASSERT_EQ(parsed.values.size(), 3u) << "the device is left out";
  EXPECT_EQ(parsed.values[0].name, "BlockSize");
  EXPECT_EQ(parsed.values[0].value, "64");
  EXPECT_EQ(parsed.values[1].value, "I32");
  EXPECT_EQ(parsed.values[2].name, "Elements");
  EXPECT_EQ(parsed.values[2].value, "1048576");
  EXPECT_EQ(nvbench({"copy_sweep", parsed.values}), "suite/copy_sweep/BlockSize:64,T:I32,Elements:1048576");
  EXPECT_TRUE(nvbench_axis_values_from_state_name("Device=0").values.empty());

  EXPECT_NE(nvbench_axis_values_from_state_name("Device=0 Name=a b").error.find("'b' is not Axis=value"),
            std::string::npos);
  EXPECT_NE(nvbench_axis_values_from_state_name("N=2^63").error.find("from 0 to 62"), std::string::npos);
  EXPECT_NE(nvbench_axis_values_from_state_name("N[pow2]=x").error.find("from 0 to 62"), std::string::npos);
  EXPECT_NE(nvbench_axis_values_from_state_name("=3").error.find("not Axis=value"), std::string::npos);
}

TEST(ForeignNames, UnderscoreIsEscapedOnlyWhereItWouldReadAsAnEscape) {
  EXPECT_EQ(gbench("BM_saxpy"), "saxpy_suite/BM_saxpy");
  EXPECT_EQ(gbench("a_x41"), "saxpy_suite/a_x5fx41");
  EXPECT_EQ(gbench("a_xg1"), "saxpy_suite/a_xg1") << "not hex: no escape to read";
  EXPECT_EQ(gbench("a_xAB"), "saxpy_suite/a_xAB") << "upper-case hex is never an escape";
  EXPECT_EQ(gbench("a__x41"), "saxpy_suite/a__x5fx41");
  EXPECT_EQ(gbench("_x"), "saxpy_suite/_x");
}

TEST(ForeignNames, HostileNamesAreEscapedOntoTheRule) {
  const std::vector<std::string> hostile = {
      "BM_a\n::error::pwned"s, "BM_`code`|cell|"s, "BM_<img src=x onerror=alert(1)>"s, "BM_@everyone"s,
      "BM_[link](javascript:x)"s, "BM_\x1b[31mred"s, "BM_nul\0byte"s, "BM_caf\xc3\xa9"s, "BM_back\\slash"s, "BM_&amp;"s};
  for (const std::string& run_name : hostile) {
    const MappedName mapped = gbench_to_our_name("saxpy_suite", run_name);
    ASSERT_TRUE(mapped.ok()) << mapped.error;
    EXPECT_EQ(name_error(NameKind::kBenchmark, mapped.name), "") << mapped.name;
    for (const char c : "`|<>@[]&\\\n\x1b"s) EXPECT_EQ(mapped.name.find(c), std::string::npos) << mapped.name;
    EXPECT_EQ(gbench_from_our_name(mapped.name).run_name, run_name);
  }
  EXPECT_EQ(gbench("BM_a\n::error::x"), "saxpy_suite/BM_a_x0a::error::x");
}

TEST(ForeignNames, TooLongOnceMappedIsRefusedSayingSo) {
  const std::string huge = "BM_" + std::string(10000, 'a');
  const MappedName mapped = gbench_to_our_name("saxpy_suite", huge);
  EXPECT_FALSE(mapped.ok());
  EXPECT_EQ(mapped.name, "");
  EXPECT_NE(mapped.error.find("10015 characters long once mapped onto a benchmark name (at most 160"),
            std::string::npos)
      << mapped.error;
  EXPECT_LT(mapped.error.size(), 300u) << "the message quotes the start only";
  EXPECT_NE(mapped.remedy.find("shorten"), std::string::npos);

  // Escaping makes a name longer: 40 '<' are 160 characters once mapped, which with the family is too long.
  const MappedName escaped = gbench_to_our_name("s", std::string(40, '<'));
  EXPECT_NE(escaped.error.find("162 characters long"), std::string::npos) << escaped.error;
  const std::string longest = std::string(kMaxBenchmarkNameLength - 2, 'a');  // "s/" + 158
  EXPECT_EQ(gbench_to_our_name("s", longest).name, "s/" + longest);

  const MappedName nv = nvbench_to_our_name("suite", {"b", {{"N", std::string(10000, '\n')}}});
  EXPECT_NE(nv.error.find("nvbench state name 'b N=\\x0a\\x0a"), std::string::npos) << nv.error;
  EXPECT_EQ(nv.error.find('\n'), std::string::npos) << "escaped for a console";
}

TEST(ForeignNames, TheFamilyIsTheUsersAndMustBeAFamilyName) {
  for (const char* family : {"my-suite", "", "1suite", "a/b", "suite name"}) {
    const MappedName mapped = gbench_to_our_name(family, "BM_x");
    EXPECT_FALSE(mapped.ok()) << family;
    EXPECT_NE(mapped.error.find("family name"), std::string::npos) << mapped.error;
    EXPECT_NE(mapped.remedy.find("docs/suites.md"), std::string::npos);
    EXPECT_FALSE(nvbench_to_our_name(family, {"b", {}}).ok()) << family;
  }
}

TEST(ForeignNames, EmptyPartsAreRefused) {
  EXPECT_NE(gbench_to_our_name("s", "BM_x//1").error.find("empty '/'-separated part"), std::string::npos);
  EXPECT_NE(gbench_to_our_name("s", "BM_x/").error.find("empty"), std::string::npos);
  EXPECT_FALSE(gbench_to_our_name("s", "").ok());
  EXPECT_FALSE(nvbench_to_our_name("s", {"", {}}).ok());
  EXPECT_NE(nvbench_to_our_name("s", {"b", {{"", "1"}}}).error.find("axis without a name"), std::string::npos);
}

TEST(ForeignNames, TheInversesRefuseNamesTheMappingCannotHaveWritten) {
  for (const char* name : {"suite/_x41", "suite/BM_x/manual_time", "suite/BM_x/8/iterations:1", "suite/a_x5fxg1"}) {
    EXPECT_NE(gbench_from_our_name(name).error.find("not one the Google Benchmark mapping writes"), std::string::npos)
        << name;
  }
  for (const char* name : {"suite/b/A:1/extra", "suite/b/A", "suite/_x61", "suite/b/A:1,B", "suite"}) {
    EXPECT_FALSE(nvbench_from_our_name(name).error.empty()) << name;
  }
  EXPECT_NE(gbench_from_our_name("no_slash").error.find("has no '/'"), std::string::npos) << "the name rule first";
  EXPECT_NE(nvbench_from_our_name("s/a\n").error.find("control character"), std::string::npos);
  EXPECT_EQ(gbench_from_our_name("suite/_x41").run_name, "") << "nothing half-read";
}

// Random bytes, drawn mostly from what makes escaping hard: '_', 'x', hex digits, the separators, and
// control and non-ASCII bytes.
std::string random_text(std::mt19937_64& rng, std::size_t max_length, const std::string& excluded = "") {
  static const std::string kTricky = "_x0a9fF/,:=.- <>|`@&\\\n\t";
  const std::size_t length = 1 + rng() % max_length;
  std::string text;
  while (text.size() < length) {
    const std::uint64_t draw = rng();
    char c;
    switch (draw % 4) {
      case 0: c = kTricky[(draw >> 8) % kTricky.size()]; break;
      case 1: c = static_cast<char>((draw >> 8) % 256); break;
      default: c = "abcdefxyzABX0123456789_"[(draw >> 8) % 23]; break;
    }
    if (excluded.find(c) == std::string::npos) text += c;
  }
  return text;
}

TEST(ForeignNames, PropertyGoogleBenchmarkNamesRoundTripExactly) {
  std::mt19937_64 rng(20260830);
  std::set<std::string> names;
  int mapped_count = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::string run_name = random_text(rng, 12, "/");
    const std::size_t components = rng() % 4;
    for (std::size_t i = 0; i < components; ++i) run_name += "/" + random_text(rng, 10, "/");
    const MappedName mapped = gbench_to_our_name("fam", run_name);
    if (!mapped.ok()) {
      EXPECT_NE(mapped.error.find("characters long once mapped"), std::string::npos) << mapped.error;
      continue;
    }
    ++mapped_count;
    ASSERT_EQ(name_error(NameKind::kBenchmark, mapped.name), "") << mapped.name;
    const GbenchName back = gbench_from_our_name(mapped.name);
    ASSERT_EQ(back.error, "") << mapped.name;
    EXPECT_EQ(back.family, "fam");
    EXPECT_EQ(back.run_name, gbench_run_name_without_settings(run_name, true)) << mapped.name;
    names.insert(back.run_name + '\0' + mapped.name);
  }
  EXPECT_GT(mapped_count, 3000) << "most random names fit the length";
  // One-to-one: as many distinct names as distinct run names.
  std::set<std::string> distinct_names;
  for (const std::string& pair : names) distinct_names.insert(pair.substr(pair.find('\0') + 1));
  EXPECT_EQ(distinct_names.size(), names.size());
}

TEST(ForeignNames, PropertyNvbenchNamesRoundTripExactly) {
  std::mt19937_64 rng(8128);
  int mapped_count = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    NvbenchState state{random_text(rng, 16), {}};
    const std::size_t axes = rng() % 4;
    for (std::size_t i = 0; i < axes; ++i) {
      std::string value = random_text(rng, 8);
      if (rng() % 8 == 0) value.clear();
      state.axis_values.push_back({random_text(rng, 8), value});
    }
    const MappedName mapped = nvbench_to_our_name("fam", state);
    if (!mapped.ok()) {
      EXPECT_NE(mapped.error.find("characters long once mapped"), std::string::npos) << mapped.error;
      continue;
    }
    ++mapped_count;
    ASSERT_EQ(name_error(NameKind::kBenchmark, mapped.name), "") << mapped.name;
    const NvbenchName back = nvbench_from_our_name(mapped.name);
    ASSERT_EQ(back.error, "") << mapped.name;
    EXPECT_EQ(back.family, "fam");
    EXPECT_EQ(back.state.benchmark, state.benchmark);
    ASSERT_EQ(back.state.axis_values.size(), state.axis_values.size()) << mapped.name;
    for (std::size_t i = 0; i < axes; ++i) {
      EXPECT_EQ(back.state.axis_values[i].name, state.axis_values[i].name);
      EXPECT_EQ(back.state.axis_values[i].value, state.axis_values[i].value);
    }
  }
  EXPECT_GT(mapped_count, 3000);
}

}  // namespace
}  // namespace gpuperf::formats
