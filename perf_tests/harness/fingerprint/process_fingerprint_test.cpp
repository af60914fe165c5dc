// A foreign process's fingerprint made independent of how often it ran (distinct_launches), and the
// NVIDIA libraries it loaded (nvidia_library_versions). No GPU needed.
#include <gtest/gtest.h>

#include "harness/fingerprint/process_fingerprint.h"

namespace gpuperf::fingerprint {
namespace {

formats::KernelLaunch launch(const std::string& name, int grid_x, int launches) {
  formats::KernelLaunch l;
  l.name = name;
  l.mangled_name = "_Z" + name;
  l.grid = {grid_x, 1, 1};
  l.block = {256, 1, 1};
  l.sass_hash = "0123456789abcdef";
  l.launches = launches;
  return l;
}

formats::Fingerprint captured(std::vector<formats::KernelLaunch> kernels, std::vector<formats::CopyOrSet> copies) {
  formats::Fingerprint f;
  f.kernels = std::move(kernels);
  f.copies = std::move(copies);
  f.covers_copies = true;
  f.capture_status = formats::kCapturedByCupti;
  f.libraries = {{"cublas", "13.0.2.14"}};
  return f;
}

TEST(DistinctLaunches, TheSameCodeRunATimeDecidedNumberOfTimesGivesOneFingerprint) {
  // Google Benchmark ran the iteration loop 40 times in one process and 41 in the next.
  const formats::Fingerprint forty = captured({launch("saxpy", 1056, 40)}, {{"memset", 4096, 0, 2}});
  const formats::Fingerprint forty_one = captured({launch("saxpy", 1056, 41)}, {{"memset", 4096, 0, 2}});
  EXPECT_EQ(distinct_launches(forty), distinct_launches(forty_one));
  EXPECT_EQ(distinct_launches(forty).kernels.at(0).launches, 1);
  EXPECT_EQ(distinct_launches(forty).copies.at(0).count, 1);
}

TEST(DistinctLaunches, KeepsEachLaunchOnceInTheOrderFirstLaunched) {
  const formats::Fingerprint f = captured(
      {launch("a", 8, 40), launch("b", 8, 1), launch("a", 8, 1), launch("b", 8, 1)},
      {{"memset", 4096, 0, 1}, {"memcpy DtoH", 64, 41, 1}, {"memset", 4096, 42, 1}});
  const formats::Fingerprint d = distinct_launches(f);
  ASSERT_EQ(d.kernels.size(), 2u);
  EXPECT_EQ(d.kernels[0].name, "a");
  EXPECT_EQ(d.kernels[1].name, "b");
  // The copy after launch 41 (a x40, b) comes after both distinct launches; the second memset is a repeat.
  ASSERT_EQ(d.copies.size(), 2u);
  EXPECT_EQ(d.copies[0], (formats::CopyOrSet{"memset", 4096, 0, 1}));
  EXPECT_EQ(d.copies[1], (formats::CopyOrSet{"memcpy DtoH", 64, 2, 1}));
  EXPECT_EQ(d.libraries, f.libraries);
  EXPECT_EQ(d.capture_status, formats::kCapturedByCupti);
}

TEST(DistinctLaunches, AChangedLaunchIsStillSeen) {
  const formats::Fingerprint before = captured({launch("saxpy", 1056, 40)}, {});
  const formats::Fingerprint after = captured({launch("saxpy", 66, 40)}, {});
  EXPECT_FALSE(distinct_launches(before) == distinct_launches(after));
}

TEST(DistinctLaunches, ACopyPastTheLastLaunchComesAfterEveryKernel) {
  const formats::Fingerprint d = distinct_launches(captured({launch("a", 8, 2)}, {{"memcpy DtoH", 64, 99, 1}}));
  EXPECT_EQ(d.copies.at(0).after_launches, 1);
}

TEST(NvidiaLibraryVersions, NamesTheLibrariesByTheirFilesVersions) {
  const auto versions = nvidia_library_versions(
      {"/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcublas.so.13.0.2.14",
       "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcublasLt.so.13.0.2.14", "/lib/x86_64-linux-gnu/libc.so.6",
       "/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04", "/opt/cuda/lib64/libcudart.so.13.0.96",
       "/opt/team/libcufft.so", "/opt/team/libcurandom.so.1"});
  const std::map<std::string, std::string> expected = {{"cublas", "13.0.2.14"},
                                                       {"cublasLt", "13.0.2.14"},
                                                       {"cuda_runtime", "13.0.96"},
                                                       {"cufft", "unknown"}};
  EXPECT_EQ(versions, expected);
}

}  // namespace
}  // namespace gpuperf::fingerprint
