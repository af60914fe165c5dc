// The fingerprint's data: merging consecutive launches, the JSON round trip and its refusals, the log line.
#include <gtest/gtest.h>

#include <string>

#include "formats/fingerprint.h"
#include "formats/input_error.h"
#include "formats/tests/launch_fixture.h"

namespace gpuperf::formats {
namespace {

using nlohmann::json;

using testing::launch_of;

KernelLaunch tile_launch() {
  KernelLaunch k = launch_of("reverse_tile(float*, float const*)", "_Z12reverse_tilePfPKf", {256, 1, 1}, {128, 1, 1},
                             14, "eaf26df3791a04e4");
  k.static_shared_memory_bytes = 512;
  return k;
}

KernelLaunch gemm_launch() {
  const char* const gemm = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32";
  KernelLaunch k = launch_of(gemm, gemm, {8, 8, 2}, {256, 1, 1}, 168, "");  // sass_hash unknown
  k.dynamic_shared_memory_bytes = 98304;
  k.local_memory_per_thread_bytes = 16;
  return k;
}

Fingerprint sample() {
  Fingerprint f;
  f.capture_status = kCapturedByCupti;
  f.libraries = {{"cublas", "13.0.0"}, {"cub", "3.0.0"}};
  f.kernels = {tile_launch(), gemm_launch()};
  f.kernels[0].launches = 2;
  f.copies = {CopyOrSet{"memset", 4194304, 1, 2}};
  f.covers_copies = true;
  return f;
}

constexpr const char* kHint = " - capture it again: gpuperf_bench --fingerprint-only";

// The message of the InputError reading `document` throws, less the hint every one ends with; "" if none.
std::string error_of(const json& document) {
  try {
    document.get<Fingerprint>();
  } catch (const InputError& e) {
    const std::string message = e.what();
    const std::size_t hint = message.rfind(kHint);
    EXPECT_EQ(hint + std::string(kHint).size(), message.size()) << message;
    return message.substr(0, hint);
  }
  return "";
}

TEST(MergeConsecutive, MergesRunsOfIdenticalLaunchesOnly) {
  const KernelLaunch a = tile_launch();
  const KernelLaunch b = gemm_launch();
  const std::vector<KernelLaunch> merged = merge_consecutive({a, a, b, a, a, a});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].mangled_name, a.mangled_name);
  EXPECT_EQ(merged[0].launches, 2);
  EXPECT_EQ(merged[1].mangled_name, b.mangled_name);
  EXPECT_EQ(merged[1].launches, 1);
  EXPECT_EQ(merged[2].launches, 3) << "a kernel launched again after another one is a new entry";
}

TEST(MergeConsecutive, AnyDifferenceKeepsLaunchesApart) {
  const KernelLaunch a = tile_launch();
  KernelLaunch other_grid = a;
  other_grid.grid[2] = 2;
  KernelLaunch other_dynamic = a;
  other_dynamic.dynamic_shared_memory_bytes = 4;
  KernelLaunch other_code = a;
  other_code.sass_hash = "0000000000000001";
  KernelLaunch unknown_code = a;
  unknown_code.sass_hash.clear();
  EXPECT_EQ(merge_consecutive({a, other_grid, other_dynamic, other_code, unknown_code}).size(), 5u);
}

TEST(MergeConsecutive, AddsCountsOfAlreadyMergedEntries) {
  KernelLaunch a = tile_launch();
  a.launches = 4;
  KernelLaunch again = tile_launch();
  again.launches = 3;
  const std::vector<KernelLaunch> merged = merge_consecutive({a, again});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].launches, 7);
  EXPECT_TRUE(merge_consecutive(std::vector<KernelLaunch>{}).empty());
}

TEST(MergeConsecutive, MergesRunsOfIdenticalCopiesBetweenTheSameLaunchesOnly) {
  const CopyOrSet set{"memset", 1024, 0, 1};
  const CopyOrSet copy{"memcpy DtoD", 1024, 0, 1};
  CopyOrSet set_later = set;
  set_later.after_launches = 1;
  const std::vector<CopyOrSet> merged = merge_consecutive({set, set, copy, set_later, set_later});
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].count, 2);
  EXPECT_EQ(merged[1].kind, "memcpy DtoD");
  EXPECT_EQ(merged[2].after_launches, 1) << "a kernel between them keeps two sets apart";
  EXPECT_EQ(merged[2].count, 2);
  EXPECT_EQ(describe(copy), "memcpy DtoD of 1024 bytes");
}

TEST(FingerprintJson, RoundTrips) {
  const Fingerprint f = sample();
  const json document = f;
  EXPECT_EQ(document.at("schema"), kFingerprintSchema);
  EXPECT_TRUE(document.at("kernels").at(1).at("sass_hash").is_null()) << "unknown is null, not \"\"";
  EXPECT_EQ(document.at("kernels").at(0).at("grid"), json::array({256, 1, 1}));
  EXPECT_EQ(json::parse(document.dump()).get<Fingerprint>(), f);
  EXPECT_EQ(document.at("copies").at(0).at("bytes"), 4194304);

  Fingerprint empty;
  empty.capture_status = "CUPTI unavailable: CUPTI_ERROR_NOT_INITIALIZED";
  EXPECT_EQ(json(empty).get<Fingerprint>(), empty);
}

TEST(FingerprintJson, WritesTheDocumentedForm) {
  // The exact form, so that a change of it is a reviewed diff (and a schema bump).
  Fingerprint f;
  f.capture_status = kCapturedByCupti;
  f.libraries = {{"cublas", "13.0.0"}};
  f.kernels = {tile_launch()};
  EXPECT_EQ(json(f).dump(),
            R"js({"capture_status":"cupti","kernels":[{"block":[128,1,1],"dynamic_shared_memory_bytes":0,)js"
            R"js("grid":[256,1,1],"launches":1,"local_memory_per_thread_bytes":0,)js"
            R"js("mangled_name":"_Z12reverse_tilePfPKf","name":"reverse_tile(float*, float const*)",)js"
            R"js("registers_per_thread":14,"sass_hash":"eaf26df3791a04e4",)js"
            R"js("static_shared_memory_bytes":512}],"libraries":{"cublas":"13.0.0"},"schema":1})js");
}

TEST(FingerprintJson, WritesCopiesInSchemaTwo) {
  Fingerprint f;
  f.capture_status = kCapturedByCupti;
  f.copies = {CopyOrSet{"memcpy HtoD", 64, 0, 3}};
  f.covers_copies = true;
  EXPECT_EQ(json(f).dump(),
            R"js({"capture_status":"cupti","copies":[{"after_launches":0,"bytes":64,"count":3,"kind":"memcpy HtoD"}],)js"
            R"js("kernels":[],"libraries":{},"schema":2})js");
}

// A schema-1 fingerprint (files written before copies were captured) covers kernels only: read so, and
// written back as schema 1, never as a schema 2 that claims no copies ran.
TEST(FingerprintJson, ASchemaOneFingerprintCoversKernelsOnlyAndStaysSchemaOne) {
  json old = sample();
  old["schema"] = 1;
  old.erase("copies");
  const Fingerprint read = old.get<Fingerprint>();
  EXPECT_FALSE(read.covers_copies);
  EXPECT_TRUE(read.copies.empty());
  EXPECT_EQ(read.kernels, sample().kernels);
  EXPECT_EQ(json(read).at("schema"), 1);
  EXPECT_FALSE(json(read).contains("copies"));
  EXPECT_NE(to_text(read).find("| copies and sets not captured"), std::string::npos) << to_text(read);
  EXPECT_TRUE(sample().covers_copies);
  EXPECT_EQ(json(sample()).get<Fingerprint>().covers_copies, true);
}

TEST(FingerprintJson, RefusesBadDocumentsNamingTheField) {
  const json good = sample();
  auto with = [&](const json::json_pointer& at, const json& value) {
    json changed = good;
    changed[at] = value;
    return changed;
  };
  auto without = [&](const json::json_pointer& parent, const std::string& key) {
    json changed = good;
    changed[parent].erase(key);
    return changed;
  };
  EXPECT_EQ(error_of(with("/schema"_json_pointer, 3)), "fingerprint: schema is 3, this build reads 1 and 2");
  EXPECT_EQ(error_of(without(""_json_pointer, "copies")), "fingerprint: copies is missing") << "schema 2 has them";
  EXPECT_EQ(error_of(with("/copies/0/kind"_json_pointer, "memmove")),
            "fingerprint: copies[0].kind is 'memmove', expected memset or memcpy HtoD, DtoH, DtoD, HtoH or PtoP");
  EXPECT_EQ(error_of(with("/copies/0/bytes"_json_pointer, -1)),
            "fingerprint: copies[0].bytes is -1, expected an integer >= 0");
  EXPECT_EQ(error_of(with("/copies/0/count"_json_pointer, 0)),
            "fingerprint: copies[0].count is 0, expected an integer from 1 to 2147483647");
  EXPECT_EQ(error_of(json::array()), "fingerprint: the top level is an array, expected an object");
  EXPECT_EQ(error_of(without(""_json_pointer, "capture_status")), "fingerprint: capture_status is missing");
  EXPECT_EQ(error_of(with("/libraries/cublas"_json_pointer, 13)),
            "fingerprint: libraries.cublas is a number, expected a string");
  EXPECT_EQ(error_of(with("/kernels"_json_pointer, json::object())),
            "fingerprint: kernels is an object, expected an array");
  EXPECT_EQ(error_of(without("/kernels/1"_json_pointer, "block")), "fingerprint: kernels[1].block is missing");
  EXPECT_EQ(error_of(with("/kernels/1/grid"_json_pointer, json::array({1, 2}))),
            "fingerprint: kernels[1].grid is an array of 2, expected an array of 3 positive integers");
  EXPECT_EQ(error_of(with("/kernels/0/block/2"_json_pointer, 0)),
            "fingerprint: kernels[0].block[2] is 0, expected an integer from 1 to 2147483647");
  EXPECT_EQ(error_of(with("/kernels/0/registers_per_thread"_json_pointer, 1.5)),
            "fingerprint: kernels[0].registers_per_thread is a number, expected an integer from 0 to 2147483647");
  EXPECT_EQ(error_of(with("/kernels/0/static_shared_memory_bytes"_json_pointer, -1)),
            "fingerprint: kernels[0].static_shared_memory_bytes is -1, expected an integer from 0 to 2147483647");
  EXPECT_EQ(error_of(with("/kernels/0/launches"_json_pointer, 0)),
            "fingerprint: kernels[0].launches is 0, expected an integer from 1 to 2147483647");
  EXPECT_EQ(error_of(with("/kernels/0/mangled_name"_json_pointer, "")), "fingerprint: kernels[0].mangled_name is empty");
  EXPECT_EQ(error_of(with("/kernels/0/sass_hash"_json_pointer, "EAF26DF3791A04E4")),
            "fingerprint: kernels[0].sass_hash is \"EAF26DF3791A04E4\", expected 16 lower-case hex digits or null");
  EXPECT_EQ(error_of(without("/kernels/0"_json_pointer, "sass_hash")), "fingerprint: kernels[0].sass_hash is missing")
      << "required, null when unknown";
  EXPECT_EQ(error_of(with("/kernels/0/sass_hash"_json_pointer, nullptr)), "");
  EXPECT_EQ(error_of(good), "");
}

TEST(FingerprintText, IsOneLineWithEveryKernel) {
  EXPECT_EQ(to_text(sample()),
            "fingerprint (cupti): 2 kernels, 3 launches: reverse_tile(float*, float const*)<<<256x1x1, 128x1x1, 0B>>> "
            "regs=14 smem=512B lmem=0B sass=eaf26df3791a04e4 x2; "
            "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32<<<8x8x2, 256x1x1, 98304B>>> "
            "regs=168 smem=0B lmem=16B sass=? | 1 copies and sets: memset 4194304B after launch 1 x2 | "
            "cub 3.0.0, cublas 13.0.0");
}

TEST(FingerprintText, SaysWhyNothingWasCaptured) {
  Fingerprint f;
  f.capture_status = "CUPTI unavailable: libcupti.so.13 not found";
  EXPECT_EQ(to_text(f), "fingerprint: not captured (CUPTI unavailable: libcupti.so.13 not found)");
  KernelLaunch unnamed = tile_launch();
  unnamed.name.clear();
  Fingerprint captured;
  captured.capture_status = kCapturedByCupti;
  captured.kernels = {unnamed};
  EXPECT_NE(to_text(captured).find("_Z12reverse_tilePfPKf<<<"), std::string::npos)
      << "the mangled name when there is no demangled one";
}

}  // namespace
}  // namespace gpuperf::formats
