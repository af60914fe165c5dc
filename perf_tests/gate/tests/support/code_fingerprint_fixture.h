#pragma once
// Fingerprints for the tests of the code comparison (judging/code_change.h) and of its words
// (reports/code_words.h): three kernels of three kinds (a plain kernel, a template instantiation launched
// twice, a cuBLAS kernel named in plain C) and one cuBLAS version; each test changes what it is about.

#include <string>
#include <utility>
#include <vector>

#include "formats/fingerprint.h"
#include "formats/tests/launch_fixture.h"

namespace gpuperf::gate::testing {

inline const char* const kGemm128 = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32warpgroupsize1x1x1_execute_"
                                    "segment_k_off_kernel__5x_cublas";
inline const char* const kGemm64 = "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x128x32warpgroupsize1x1x1_execute_"
                                   "segment_k_off_kernel__5x_cublas";

inline formats::KernelLaunch reduce_launch() {
  formats::KernelLaunch k = formats::testing::launch_of("reduce_sum(float*, float const*, int)", "_Z10reduce_sumPfPKfi",
                                                        {128, 1, 1}, {512, 1, 1}, 32, "0123456789abcdef");
  k.dynamic_shared_memory_bytes = 2048;
  return k;
}

inline formats::KernelLaunch tiled_launch() {
  formats::KernelLaunch k = formats::testing::launch_of("void tiled<256>(float*, float const*)", "_Z5tiledILi256EEvPfPKf",
                                                        {528, 1, 1}, {256, 1, 1}, 64, "86d1a29afca82517");
  k.static_shared_memory_bytes = 1024;
  k.launches = 2;
  return k;
}

// A cuBLAS kernel: a plain C name, demangled as itself.
inline formats::KernelLaunch gemm_launch(const char* name) {
  formats::KernelLaunch k;
  k.name = name;
  k.mangled_name = name;
  k.grid = {8, 8, 2};
  k.block = {384, 1, 1};
  k.dynamic_shared_memory_bytes = 98304;
  k.registers_per_thread = 168;
  k.sass_hash = "fedcba9876543210";
  return k;
}

inline formats::Fingerprint captured(std::vector<formats::KernelLaunch> kernels) {
  formats::Fingerprint f;
  f.capture_status = formats::kCapturedByCupti;
  f.libraries = {{"cublas", "13.0.0"}};
  f.kernels = std::move(kernels);
  return f;
}

inline formats::Fingerprint three_kernels() { return captured({reduce_launch(), tiled_launch(), gemm_launch(kGemm128)}); }

// three_kernels() with copies and sets captured (a fingerprint of schema 2).
inline formats::Fingerprint with_copies(std::vector<formats::CopyOrSet> copies) {
  formats::Fingerprint f = three_kernels();
  f.copies = std::move(copies);
  f.covers_copies = true;
  return f;
}

}  // namespace gpuperf::gate::testing
