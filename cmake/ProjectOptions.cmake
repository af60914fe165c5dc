# Build type, language standards and warnings of the harness's own targets. The options of the generated
# tests (GPUPERF_STRICT_BASELINE, GPUPERF_ONLY_FAMILIES, ...) are in KernelFamily.cmake, which a project
# using the harness gets too.

if(PROJECT_IS_TOP_LEVEL AND NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  # Timings from an unoptimised build are meaningless; Release unless told otherwise. (A project that
  # builds the harness with its own kernels chooses its own build type.)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CUDA_STANDARD 17)
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
if(PROJECT_IS_TOP_LEVEL)
  set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
endif()

# The harness's warnings, on its own targets and its demo families only (exported as gpuperf::warnings:
# a project may link it to its families to hold them to the same standard).
add_library(gpuperf_warnings INTERFACE)
target_compile_options(gpuperf_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings -lineinfo>)
set_target_properties(gpuperf_warnings PROPERTIES EXPORT_NAME warnings)
add_library(gpuperf::warnings ALIAS gpuperf_warnings)
