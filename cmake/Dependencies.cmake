# What the build needs. The CUDA Toolkit (CUPTI included) and the threads library come from the system.
# GoogleTest, Google Benchmark and nlohmann-json come from wherever find_package finds them (Debian/Ubuntu,
# RHEL/Fedora, conda or Spack packages; a prefix on CMAKE_PREFIX_PATH), else are built from their pinned
# releases, else the configure stops naming what to install (FindOrFetch.cmake; docs/dependencies.md).
find_package(CUDAToolkit REQUIRED)
find_package(Threads REQUIRED)
include(FindOrFetch)
gpuperf_find_or_fetch(GTest benchmark nlohmann_json)
