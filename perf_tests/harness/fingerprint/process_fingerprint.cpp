#include "harness/fingerprint/process_fingerprint.h"

#include <algorithm>
#include <utility>

namespace gpuperf::fingerprint {
namespace {

// The library a file is ("libcublasLt.so.13" -> "cublasLt") and the name the fingerprint gives it.
const std::vector<std::pair<std::string, std::string>>& known_libraries() {
  static const std::vector<std::pair<std::string, std::string>> known = {
      {"libcudart.so", "cuda_runtime"}, {"libcublas.so", "cublas"},   {"libcublasLt.so", "cublasLt"},
      {"libcufft.so", "cufft"},         {"libcurand.so", "curand"},   {"libcusparse.so", "cusparse"},
      {"libcusolver.so", "cusolver"},   {"libcudnn.so", "cudnn"},     {"libnccl.so", "nccl"},
      {"libnvrtc.so", "nvrtc"},         {"libnvJitLink.so", "nvJitLink"}, {"libnvshmem_host.so", "nvshmem"}};
  return known;
}

}  // namespace

formats::Fingerprint distinct_launches(const formats::Fingerprint& captured) {
  formats::Fingerprint distinct = captured;
  distinct.kernels.clear();
  distinct.copies.clear();
  // seen_by_launch[i]: the distinct launches first seen among the first i launches of the capture.
  std::vector<int> seen_by_launch = {0};
  for (const formats::KernelLaunch& launch : captured.kernels) {
    const bool known = std::any_of(distinct.kernels.begin(), distinct.kernels.end(),
                                   [&](const formats::KernelLaunch& d) { return formats::same_launch(d, launch); });
    if (!known) {
      distinct.kernels.push_back(launch);
      distinct.kernels.back().launches = 1;
    }
    for (int i = 0; i < launch.launches; ++i) seen_by_launch.push_back(static_cast<int>(distinct.kernels.size()));
  }
  for (const formats::CopyOrSet& copy : captured.copies) {
    const bool known = std::any_of(distinct.copies.begin(), distinct.copies.end(), [&](const formats::CopyOrSet& d) {
      return d.kind == copy.kind && d.bytes == copy.bytes;
    });
    if (known) continue;
    const int after = copy.after_launches < static_cast<int>(seen_by_launch.size())
                          ? seen_by_launch[static_cast<std::size_t>(copy.after_launches)]
                          : static_cast<int>(distinct.kernels.size());
    distinct.copies.push_back({copy.kind, copy.bytes, after, 1});
  }
  return distinct;
}

std::map<std::string, std::string> nvidia_library_versions(const std::vector<std::string>& paths) {
  std::map<std::string, std::string> versions;
  for (const std::string& path : paths) {
    const std::string file = path.substr(path.find_last_of('/') + 1);
    for (const auto& [prefix, name] : known_libraries()) {
      if (file.compare(0, prefix.size(), prefix) != 0) continue;
      if (file.size() == prefix.size()) {
        versions.emplace(name, "unknown");
      } else if (file[prefix.size()] == '.') {
        versions[name] = file.substr(prefix.size() + 1);  // "13.0.2.14"
      }
    }
  }
  return versions;
}

}  // namespace gpuperf::fingerprint
