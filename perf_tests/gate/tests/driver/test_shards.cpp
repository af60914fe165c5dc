// The shards of our suite's perf test (gate/driver/shards.h): every case in exactly one shard, each shard a
// contiguous run in registry order, the cuts where the cost adds up to equal parts, no shard empty while
// there are cases enough, costs from the baseline, and the names the tests and reports carry.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "formats/names.h"
#include "gate/driver/shards.h"

namespace gpuperf::gate::driver {
namespace {

std::vector<CaseCost> costs(const std::vector<double>& seconds) {
  std::vector<CaseCost> cases;
  for (std::size_t i = 0; i < seconds.size(); ++i) cases.push_back({"fam/v" + std::to_string(i) + "/n:1", seconds[i]});
  return cases;
}

// Every shard's cases, shard by shard.
std::vector<std::vector<std::string>> all_shards(const std::vector<CaseCost>& cases, int count) {
  std::vector<std::vector<std::string>> shards;
  for (int index = 1; index <= count; ++index) shards.push_back(shard_cases(cases, {index, count}));
  return shards;
}

TEST(Shards, OneShardIsTheWholeSuiteInOrder) {
  const std::vector<CaseCost> cases = costs({0.5, 0.1, 2.0});
  EXPECT_EQ(shard_cases(cases, {1, 1}), (std::vector<std::string>{"fam/v0/n:1", "fam/v1/n:1", "fam/v2/n:1"}));
}

TEST(Shards, EveryCaseInExactlyOneShardAndEachShardContiguous) {
  const std::vector<CaseCost> cases = costs({0.3, 0.01, 0.01, 0.9, 0.02, 0.2, 0.2, 0.05, 0.7, 0.1, 0.1, 0.4});
  for (int count = 1; count <= 12; ++count) {
    std::vector<std::string> joined;
    for (const auto& shard : all_shards(cases, count)) {
      EXPECT_FALSE(shard.empty()) << count << " shards";
      joined.insert(joined.end(), shard.begin(), shard.end());
    }
    std::vector<std::string> in_order;
    for (const CaseCost& c : cases) in_order.push_back(c.name);
    EXPECT_EQ(joined, in_order) << count << " shards";
  }
}

TEST(Shards, CutsWhereTheCostAddsUpToEqualParts) {
  // 1 + 1 + 1 + 1 | 4: the cut at half the total, not at half the cases.
  const std::vector<CaseCost> cases = costs({1, 1, 1, 1, 4});
  const auto shards = all_shards(cases, 2);
  EXPECT_EQ(shards[0].size(), 4u);
  EXPECT_EQ(shards[1], (std::vector<std::string>{"fam/v4/n:1"}));
}

TEST(Shards, NoShardCostsMoreThanItsShareAndTheLargestCase) {
  std::vector<double> seconds;
  for (int i = 0; i < 108; ++i) seconds.push_back(i % 17 == 0 ? 0.9 : 0.01 * (1 + i % 5));
  const std::vector<CaseCost> cases = costs(seconds);
  double total = 0.0;
  for (double s : seconds) total += s;
  for (int count : {2, 3, 4, 8}) {
    std::size_t at = 0;
    for (const auto& shard : all_shards(cases, count)) {
      double cost = 0.0;
      for (std::size_t i = 0; i < shard.size(); ++i) cost += seconds[at + i];
      at += shard.size();
      EXPECT_LE(cost, total / count + 0.9) << count << " shards";
    }
  }
}

TEST(Shards, FewerCasesThanShardsLeaveTheLastShardsEmpty) {
  const auto shards = all_shards(costs({1.0, 2.0}), 4);
  EXPECT_EQ(shards[0].size(), 1u);
  EXPECT_EQ(shards[1].size(), 1u);
  EXPECT_TRUE(shards[2].empty());
  EXPECT_TRUE(shards[3].empty());
  EXPECT_TRUE(shard_cases({}, {1, 1}).empty());
}

TEST(Shards, CostsFromTheBaselineAndTheMedianForTheRest) {
  formats::CaseListing listing;
  for (const char* variant : {"a", "b", "c", "new", "check_only", "cyc"}) {
    formats::ListedCase listed;
    listed.name = std::string("fam/") + variant + "/n:1";
    listed.unit = std::string(variant) == "cyc" ? "cycles" : "us";
    listing.cases.push_back(listed);
  }
  listing.cases[4].perf = false;
  Baseline baseline;
  baseline.benchmarks["fam/a/n:1"].unit = "us";
  baseline.benchmarks["fam/a/n:1"].median = 1000.0;  // 1 ms a run
  baseline.benchmarks["fam/b/n:1"].unit = "us";
  baseline.benchmarks["fam/b/n:1"].median = 10.0;
  baseline.benchmarks["fam/c/n:1"].unit = "us";
  baseline.benchmarks["fam/c/n:1"].median = 100.0;
  baseline.benchmarks["fam/cyc/n:1"].unit = "cycles";
  baseline.benchmarks["fam/cyc/n:1"].median = 5e6;
  const std::vector<CaseCost> cases = case_costs(listing, baseline, 30);
  ASSERT_EQ(cases.size(), 5u);  // the correctness-only case is never timed
  EXPECT_EQ(cases[0].name, "fam/a/n:1");
  EXPECT_GT(cases[0].seconds, 0.035);  // 35 samples of 1 ms
  EXPECT_LT(cases[0].seconds, 0.06);
  EXPECT_LT(cases[1].seconds, cases[2].seconds);
  EXPECT_LT(cases[2].seconds, cases[0].seconds);
  EXPECT_DOUBLE_EQ(cases[3].seconds, cases[2].seconds);  // not in the baseline: the median
  EXPECT_DOUBLE_EQ(cases[4].seconds, cases[2].seconds);  // in cycles: the median
}

TEST(Shards, ParsedAndNamed) {
  const Shard shard = parse_shard("2/4");
  EXPECT_EQ(shard.index, 2);
  EXPECT_EQ(shard.count, 4);
  EXPECT_EQ(shard_name(shard), "families_2of4");
  EXPECT_EQ(shard_name(parse_shard("1/1")), "families");
  for (const Shard s : {Shard{1, 1}, Shard{3, 4}, Shard{64, 64}}) {
    EXPECT_EQ(formats::name_error(formats::NameKind::kFamily, shard_name(s)), "") << shard_name(s);
  }
  for (const char* bad : {"", "0/4", "5/4", "1/0", "1/65", "2", "a/b", "2/4/", " 2/4", "-1/4"}) {
    try {
      parse_shard(bad);
      ADD_FAILURE() << "'" << bad << "' was taken";
    } catch (const formats::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--shard"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gpuperf::gate::driver
