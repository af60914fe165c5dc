// The measuring method's guard: the sources that decide how a sample is timed, hashed as stored in git,
// against the hash kept here beside the version they belong to. A change to any of them fails this test
// until someone decides whether it changes the method (then kMeasuringMethodVersion goes up, and every
// stored check against an older baseline says so) and updates the hash.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/fnv1a.h"
#include "formats/measuring_method.h"

namespace gpuperf::formats {
namespace {

// The version the hash below belongs to, and the hash of kMethodSources at that version.
constexpr int kMethodSourcesVersion = 2;
constexpr const char* kMethodSourcesHash = "0x0c3e0bce602fa53f";

// What decides how a sample is timed, relative to the source root: the sampler and its CUDA events, the
// L2 flush before each sample, the launch gate, the order and warm-up of the timed cases, and where the
// cases' device memory comes from (the stream-ordered pool). Not the kernels: their changes are the code's.
const std::vector<std::string> kMethodSources = {
    "perf_tests/harness/sampler.cu",      "perf_tests/harness/sampler.cuh",    "perf_tests/harness/event_timer.cuh",
    "perf_tests/harness/l2_flush.cu",     "perf_tests/harness/l2_flush.cuh",   "perf_tests/harness/launch_gate.cu",
    "perf_tests/harness/launch_gate.cuh", "perf_tests/harness/timed_cases.cpp", "perf_tests/harness/timed_cases.h",
    "kernels/common/device_buffer.cuh",
};

// The file's text with CRLF line ends read as LF: a checkout with autocrlf hashes as git stores it.
std::string text_as_stored(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string text = bytes.str();
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

TEST(MeasuringMethod, ItsSourcesAreTheOnesItsVersionWasSetFor) {
  std::uint64_t hash = kFnv1a64Offset;
  for (const std::string& relative : kMethodSources) {
    const std::string path = std::string(GPUPERF_SOURCE_DIR) + "/" + relative;
    const std::string text = text_as_stored(path);
    ASSERT_FALSE(text.empty()) << path << " is missing or empty: if it moved, update kMethodSources here";
    hash = fnv1a64(relative, hash);
    hash = fnv1a64(std::string_view("\0", 1), hash);
    hash = fnv1a64(text, hash);
    hash = fnv1a64(std::string_view("\0", 1), hash);
  }
  std::string files;
  for (const std::string& relative : kMethodSources) files += "\n  " + relative;
  EXPECT_EQ("0x" + hex16(hash), kMethodSourcesHash)
      << "the sources of the measuring method changed since version " << kMethodSourcesVersion << ":" << files
      << "\nif this changes how a sample is timed, bump kMeasuringMethodVersion in "
         "perf_tests/formats/measuring_method.h; either way set kMethodSourcesHash to 0x"
      << hex16(hash) << " (and kMethodSourcesVersion to the version) in " << __FILE__;
  EXPECT_EQ(kMethodSourcesVersion, kMeasuringMethodVersion)
      << "kMeasuringMethodVersion changed: set kMethodSourcesVersion to it in " << __FILE__;
}

}  // namespace
}  // namespace gpuperf::formats
