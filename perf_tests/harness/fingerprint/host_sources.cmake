# The capture's host sources (the machine code of a cubin, read and hashed; a foreign process's fingerprint
# made independent of its iteration counts).
set(gpuperf_fingerprint_host_sources cubin_sass.cpp elf64.cpp process_fingerprint.cpp)
list(TRANSFORM gpuperf_fingerprint_host_sources PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
