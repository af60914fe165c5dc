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
set(GPUPERF_ONLY_FAMILIES "" CACHE STRING
    "Only these kernel families (folders under kernels/), ;-separated; empty: every folder found")
# Empty: scripts/perf_test.sh's own defaults (30 samples; 3 processes a look, 3 re-measurements), which
# the gate's simulation and the README's figures assume.
set(GPUPERF_REPETITIONS "" CACHE STRING "Timed samples per benchmark per process in a perf test (empty: the default)")
set(GPUPERF_PERF_MAX_REMEASURE "" CACHE STRING "Re-measurements of ambiguous benchmarks in a perf test (empty: the default)")
option(GPUPERF_SKIP_UNCHANGED
  "Perf tests leave untimed the benchmarks whose fingerprint (kernels, machine code, launches, libraries) and platform equal the baseline's; correctness is still checked (pull requests)"
  OFF)
# A file the machine keeps between runs (a CI runner: a folder outside the checkout): the perf tests add
# their verdicts on unchanged code to it, and every report states the gate's false-alarm rate seen there.
set(GPUPERF_SAME_CODE_LEDGER "${CMAKE_BINARY_DIR}/same-code-ledger.json" CACHE FILEPATH
    "The running count of verdicts on unchanged code the perf tests add to (empty: none)")

add_library(gpuperf_warnings INTERFACE)
target_compile_options(gpuperf_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings -lineinfo>)
