// The results' context: a GPU's identity written into context entries and read back is itself, whatever
// the harness knew of it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "formats/input_error.h"
#include "formats/measuring_method.h"
#include "formats/results_context.h"

namespace gpuperf::formats {
namespace {

// The entries as Google Benchmark writes them into the results' "context" object, read back.
GpuIdentity round_trip(const GpuIdentity& gpu) {
  nlohmann::json context = nlohmann::json::object();
  for (const auto& [key, value] : gpu_context_entries(gpu)) context[key] = value;
  return gpu_identity_from_context(ObjectReader(context, "run.json", "context", "re-run"));
}

TEST(ResultsContext, AGpuIdentityWrittenAndReadBackIsItself) {
  GpuIdentity h200;
  h200.name = "NVIDIA H200";
  h200.slug = "nvidia-h200";
  h200.uuid = "GPU-5c6e0b3a-0f0e-4b1d-9f43-8d2e7a1c9b10";
  h200.compute_capability = "9.0";
  h200.sm_count = 132;
  h200.memory_mib = 143771;
  h200.driver = "580.159.04";
  h200.cuda_runtime = "13.0";
  EXPECT_EQ(round_trip(h200), h200);

  GpuIdentity unknown_counts = h200;  // a harness that could not query them
  unknown_counts.sm_count.reset();
  unknown_counts.memory_mib.reset();
  unknown_counts.uuid.clear();
  EXPECT_EQ(round_trip(unknown_counts), unknown_counts);
  EXPECT_NE(round_trip(unknown_counts), h200) << "the comparison sees every field";
  EXPECT_EQ(round_trip(GpuIdentity{}), GpuIdentity{});
}

TEST(ResultsContext, KeysAreTheOnesTheResultsFormatHasAlwaysUsed) {
  // Renaming one breaks every results file written before: the gate would read them as naming no GPU.
  const ContextEntries entries = gpu_context_entries(GpuIdentity{});
  std::vector<std::string> keys;
  for (const auto& entry : entries) keys.push_back(entry.first);
  EXPECT_EQ(keys, (std::vector<std::string>{"gpu_name", "gpu_slug", "gpu_uuid", "gpu_compute_capability", "gpu_sm_count",
                                            "gpu_memory_mib", "driver_version", "cuda_runtime"}));
}

TEST(ResultsContext, AnotherWritersNumbersAreReadAsText) {
  const nlohmann::json context = {{"gpu_sm_count", 132}, {"gpu_memory_mib", "lots"}, {"driver_version", 580}};
  const GpuIdentity gpu = gpu_identity_from_context(ObjectReader(context, "run.json", "context", "re-run"));
  EXPECT_EQ(gpu.sm_count, 132);
  EXPECT_EQ(gpu.memory_mib, std::nullopt) << "not a count: unknown";
  EXPECT_EQ(gpu.driver, "580");
  const nlohmann::json bad = {{"gpu_name", {1, 2}}};
  try {
    gpu_identity_from_context(ObjectReader(bad, "run.json", "context", "re-run"));
    ADD_FAILURE() << "accepted an array as the GPU's name";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "run.json: context.gpu_name is an array, expected a string - re-run");
  }
}

TEST(ResultsContext, TheMeasuringMethodWrittenIsTheVersionReadBack) {
  const auto [key, value] = measuring_method_context_entry();
  EXPECT_EQ(key, "measuring_method");
  const nlohmann::json context = {{key, value}};
  EXPECT_EQ(measuring_method_from_context(ObjectReader(context, "run.json", "context", "re-run")),
            kMeasuringMethodVersion);
  const nlohmann::json none = nlohmann::json::object();
  EXPECT_EQ(measuring_method_from_context(ObjectReader(none, "run.json", "context", "re-run")),
            kMeasuringMethodUnrecorded);
}

}  // namespace
}  // namespace gpuperf::formats
