# Every dependency comes from the system (Debian/Ubuntu packages or the CUDA Toolkit); nothing is downloaded.
find_package(CUDAToolkit REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
find_package(nlohmann_json 3.11 REQUIRED)
find_package(Threads REQUIRED)
