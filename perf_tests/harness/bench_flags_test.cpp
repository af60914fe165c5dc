// gpuperf_bench's flags: one table that both parses them and prints --help (bench_flags.h), so that no
// flag is recognised without being documented. The program's own --help run, with no GPU visible, is
// unit.program_help.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/bench_flags.h"

namespace gpuperf {
namespace {

// main()'s argc and argv over `args` (argv[0] first), and what is left of them after parsing.
struct Arguments {
  explicit Arguments(std::vector<std::string> args) : storage(std::move(args)) {
    for (std::string& arg : storage) pointers.push_back(arg.data());
    pointers.push_back(nullptr);
    argc = static_cast<int>(storage.size());
  }
  std::vector<std::string> left() const { return {pointers.begin() + 1, pointers.begin() + argc}; }

  std::vector<std::string> storage;
  std::vector<char*> pointers;
  int argc = 0;
};

BenchOptions parsed(Arguments& args) { return take_bench_flags(args.argc, args.pointers.data()); }

TEST(BenchFlags, EveryFlagOfTheTableIsInTheHelpOnALineOfItsOwn) {
  const std::string help = bench_help("gpuperf_bench");
  ASSERT_FALSE(bench_flags().empty());
  for (const auto& flag : bench_flags()) {
    EXPECT_NE(help.find("\n  " + flag_form(flag) + "\n"), std::string::npos) << flag.name << " is not in:\n" << help;
    EXPECT_NE(std::string(flag.meaning), "") << flag.name;
    EXPECT_TRUE((flag.on == nullptr) != (flag.set == nullptr)) << flag.name << ": a switch or a value flag";
    EXPECT_EQ(flag.value == nullptr, flag.set == nullptr) << flag.name << ": a value flag names its value";
  }
  EXPECT_EQ(help.rfind("usage: gpuperf_bench ", 0), 0u) << help;
  EXPECT_NE(help.find("--benchmark_*"), std::string::npos) << "points to Google Benchmark's flags";
  for (const std::string& line : {std::string("--time-filter=REGEX"), std::string("--profiler-window-order=FILE")}) {
    EXPECT_NE(help.find("  " + line + "\n"), std::string::npos) << line;
  }
}

TEST(BenchFlags, NoHelpLineIsWiderThanAHundredColumns) {
  const std::string help = bench_help("gpuperf_bench");
  std::size_t start = 0;
  while (start < help.size()) {
    const std::size_t end = help.find('\n', start);
    const std::string line = help.substr(start, end - start);
    EXPECT_LE(line.size(), 100u) << line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

TEST(BenchFlags, EachFlagOfTheTableIsTakenOutAndTheRestLeftForGoogleBenchmark) {
  for (const auto& flag : bench_flags()) {
    if (flag.on == nullptr) continue;
    Arguments args({"gpuperf_bench", "--benchmark_filter=x", flag.name});
    const BenchOptions options = parsed(args);
    EXPECT_TRUE(options.*(flag.on)) << flag.name;
    EXPECT_EQ(args.left(), std::vector<std::string>{"--benchmark_filter=x"}) << flag.name;
  }
  Arguments args({"gpuperf_bench", "--time-filter=a", "--benchmark_out=r.json", "--no-such-flag", "--time-filter=b/c"});
  const BenchOptions options = parsed(args);
  EXPECT_EQ(options.time_filter, "b/c") << "the last wins";
  EXPECT_EQ(args.left(), (std::vector<std::string>{"--benchmark_out=r.json", "--no-such-flag"}))
      << "an unknown flag is Google Benchmark's to refuse, as before";
  EXPECT_EQ(args.pointers[static_cast<std::size_t>(args.argc)], nullptr);
  EXPECT_FALSE(options.profiler_window);
}

TEST(BenchFlags, AMisusedFlagIsAnErrorThatShowsItsForm) {
  const auto error_of = [](std::vector<std::string> given) -> std::string {
    given.insert(given.begin(), "gpuperf_bench");
    Arguments args(given);
    try {
      parsed(args);
    } catch (const FlagError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of({"--time-filter"}), "--time-filter needs a value: give --time-filter=REGEX");
  EXPECT_EQ(error_of({"--reverse-order=yes"}), "--reverse-order takes no value: give --reverse-order");
  EXPECT_NE(error_of({"--fingerprint-only", "--time-filter=x"}).find("--time-filter chooses what"), std::string::npos);
  EXPECT_NE(error_of({"--profiler-window", "--fingerprint-only"}).find("exclude each other"), std::string::npos);
  EXPECT_NE(error_of({"--profiler-window-order=f"}).find("give both"), std::string::npos);
  EXPECT_EQ(error_of({"--profiler-window", "--profiler-window-order=f"}), "");
}

}  // namespace
}  // namespace gpuperf
