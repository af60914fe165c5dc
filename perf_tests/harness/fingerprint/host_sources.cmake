# The fingerprint's host sources: the library below and the gate's libFuzzer target (which compiles them
# again, instrumented, in a build without CUDA) both take them from here.
set(gpuperf_fingerprint_host_sources code_change.cpp cubin_sass.cpp elf64.cpp fingerprint.cpp)
list(TRANSFORM gpuperf_fingerprint_host_sources PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
