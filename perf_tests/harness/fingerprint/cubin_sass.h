#pragma once
// The machine code (SASS) of each kernel in a cubin, reduced to a size and a hash: the part of a
// benchmark's fingerprint that says whether the code it ran changed.
//
// The caller passes a cubin: the ELF image nvcc -cubin writes, and the one CUPTI hands over for every
// loaded module (CUPTI_CBID_RESOURCE_MODULE_LOADED: CUpti_ModuleResourceData::pCubin, cubinSize). The driver
// loads SASS only, so a module built from PTX is JIT-compiled to a cubin before it loads, and a fatbinary
// should never arrive from CUPTI (not yet checked on a GPU); one passed here is refused by name.
//
// What is hashed: the bytes of the kernel's section .text.<mangled name>. Branch targets are relative and
// references to functions and to the addresses of __device__ variables go through relocations (.rela.*),
// so these bytes change with the kernel's code and not with where it or anything else lies. Checked with
// nvcc 13.0 for sm_90 (2026-11), a file of four kernels (plain, shared memory, __constant__ + __device__
// + sinf, double exp):
//   - compiled twice, to other output paths, and once more as a copy under another name in another
//     directory: the cubins are byte-identical; with -lineinfo or -O3 the file differs, every hash does not;
//   - an unrelated kernel added before, or after, the others: every hash unchanged;
//   - one constant changed in one kernel (3.0f -> 3.5f): that kernel's hash changed, no other did.
// One known exception: offsets into the module-wide constant banks are written into the instructions. A
// __constant__ variable (bank 3) or a __device__ variable (its address slot in bank 4) added to the same
// translation unit ahead of one a kernel uses moves that offset, and the kernel's hash changes though its
// source did not (seen: one 4-byte operand field, in 8 instructions). A changed hash therefore says "this
// kernel's machine code changed", which can be because of its neighbours' globals; an unchanged hash says
// the code is the same.
//
// With relocatable device code (-rdc) a kernel's callees keep sections of their own, and a change in a
// callee leaves the kernel's section unchanged (checked), so the hash also covers every function reachable
// through .nv.callgraph, in name order, each as its name, a NUL and its bytes. Without -rdc callees are
// inlined or copied into the kernel's section, and the hash is FNV-1a of exactly that section's bytes
// (recompute it from `readelf -x .text.<name>`).
//
// Not read from the cubin: static shared memory. .nv.shared.<name> is 1 KiB larger than what the kernel
// declares on sm_90 (2048 bytes for a 1024-byte array, 1424 for 400: the system's reserved shared memory),
// an architecture-dependent offset; cudaFuncGetAttributes and CUPTI's kernel record give the real figure.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::fingerprint {

struct CubinKernel {
  std::string mangled_name;           // "_Z5tiledILi256EEvPfPKf": the symbol, as .text.<name> names it
  std::uint64_t code_size_bytes = 0;  // size of .text.<mangled_name> [bytes], callees not included
  std::string sass_hash;              // 16 lower-case hex digits (formats/fnv1a.h), callees included
  std::vector<std::string> callees;   // functions in sections of their own that the hash covers (-rdc only)
  // From the module's .nv.info (EIATTR_REGCOUNT, EIATTR_FRAME_SIZE); nullopt where the cubin does not say.
  std::optional<int> registers_per_thread;
  std::optional<std::uint32_t> stack_frame_bytes;  // per thread, local memory of the kernel's own frame [bytes]
};

// Every kernel (__global__ function) of `cubin`, in section order; empty when it has none.
// std::invalid_argument ("cubin: ...", saying what is wrong) for anything that is not a well-formed ELF64
// cubin: truncated, garbage, a fatbinary, another machine's ELF. .nv.info is undocumented: a record there
// that this reader does not understand ends its reading of that section and leaves the fields it did not
// reach unknown, without costing the hash.
std::vector<CubinKernel> cubin_kernels(std::string_view cubin);

}  // namespace gpuperf::fingerprint
