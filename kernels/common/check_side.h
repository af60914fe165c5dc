#pragma once
// Where a case's output is compared with its reference: on the host, or on the GPU.
//
// Small and odd sizes are compared on the host (common/compare.h), against a reference that neither the
// GPU nor its compiler had a part in. Bringing a 1 GiB output and its inputs to the host and comparing
// there took seconds per case (an H100 host, 16 cores: correctness.fusion took 51-66 s for its 18 tests,
// six of them on 2^28 floats), most of the correctness tests' time. The large sizes are compared on the
// GPU: element-wise by the same reference expression evaluated there (common/device_compare.cuh), sums
// and counts by a library (common/device_sums.cuh).

#include <cstdint>

namespace gpuperf {

// The largest output compared on the host [elements]: every odd and small size of the demo families
// (1000003 is the largest) stays there; their perf sizes (2^25 elements and more) go to the GPU.
inline constexpr std::int64_t kHostCheckMaxElements = std::int64_t{1} << 22;

inline bool checked_on_host(std::int64_t elements) { return elements <= kHostCheckMaxElements; }

}  // namespace gpuperf
