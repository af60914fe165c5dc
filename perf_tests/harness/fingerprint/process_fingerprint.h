#pragma once
// The fingerprint of a whole process of another tool's benchmark binary (inject.cpp): what it launched,
// as a set that does not depend on how often it ran. A Google Benchmark or nvbench binary decides its
// iteration count by time (MinTime in the suite's code wins over any flag), so the same code launches its
// kernel 40 times in one process and 41 in the next: counts and repeats are not its code, the launches
// are. And the NVIDIA libraries the process loaded, with their versions, from the files' names.
// Host C++ only: no GPU, no CUPTI, unit-tested in CI.

#include <map>
#include <string>
#include <vector>

#include "formats/fingerprint.h"

namespace gpuperf::fingerprint {

// `captured` with each distinct launch once, in the order first launched (launches 1), and each distinct
// copy or set (kind, bytes) once, placed after the distinct launches first seen before it (count 1):
//   A x40, memset 4 MiB after 0, B, A, B, memset 4 MiB after 42  ->  A, B, memset 4 MiB after 0.
// Libraries and capture status are kept.
formats::Fingerprint distinct_launches(const formats::Fingerprint& captured);

// The versions of the NVIDIA libraries among `paths` (the shared objects a process has loaded, resolved
// to their real files), by the name formats/fingerprint.h gives them: "/usr/local/cuda/lib64/
// libcublas.so.13.0.2.14" -> "cublas" "13.0.2.14". A library whose file name carries no version is
// "unknown"; other files are left out. Known: cudart (as "cuda_runtime"), cublas, cublasLt, cufft, curand,
// cusparse, cusolver, cudnn, nccl, nvrtc, nvJitLink, nvshmem.
std::map<std::string, std::string> nvidia_library_versions(const std::vector<std::string>& paths);

}  // namespace gpuperf::fingerprint
