# Build type, language standards and warnings shared by every target.

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  # Timings from an unoptimised build are meaningless; Release unless told otherwise.
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

option(GPUPERF_STRICT_BASELINE
       "A GPU without a baseline file fails the perf tests instead of skipping them" OFF)
set(GPUPERF_KERNEL_FAMILIES
    "ceiling;reduction;matmul;count_equal;coalescing;bank_conflicts;occupancy;fusion;smem_latency"
    CACHE STRING "Kernel families (folders under kernels/) to build and test")
set(GPUPERF_REPETITIONS 30 CACHE STRING "Timed samples per benchmark in one perf run")
set(GPUPERF_MAX_REMEASURE 2 CACHE STRING "How often ambiguous benchmarks are re-measured before a verdict")

add_library(gpuperf_warnings INTERFACE)
target_compile_options(gpuperf_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings -lineinfo>)
