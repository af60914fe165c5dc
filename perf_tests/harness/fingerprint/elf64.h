#pragma once
// A bounds-checked view of an ELF64 little-endian image, as nvcc writes a cubin: its sections and its
// symbols. Every offset and size read from the image is checked against the buffer before it is used, so
// a truncated or corrupt buffer throws std::invalid_argument saying what does not fit, and nothing is read
// outside the buffer. The views point into the caller's buffer, which must outlive the ElfImage.

#include <cstdint>
#include <string_view>
#include <vector>

namespace gpuperf::fingerprint {

// Section types (sh_type) this project reads.
inline constexpr std::uint32_t kShtSymtab = 2;
inline constexpr std::uint32_t kShtStrtab = 3;
inline constexpr std::uint32_t kShtNobits = 8;
// CUDA's own section types, as cubins carry them (values from nvcc 13.0 output, readelf -S: LOPROC+n).
inline constexpr std::uint32_t kShtCudaInfo = 0x70000000;       // .nv.info, .nv.info.<function>
inline constexpr std::uint32_t kShtCudaCallgraph = 0x70000001;  // .nv.callgraph

inline constexpr std::uint16_t kEmCuda = 190;  // e_machine of a cubin
inline constexpr unsigned char kSttFunc = 2;   // symbol type (low 4 bits of st_info) of a function

struct ElfSection {
  std::string_view name;   // ".text._Z6kernelPfi"
  std::uint32_t type = 0;  // sh_type
  std::string_view data;   // the section's bytes; empty for NOBITS (which occupy no file bytes)
  std::uint64_t size = 0;  // sh_size [bytes]; for NOBITS, the size the section takes once loaded
};

struct ElfSymbol {
  std::string_view name;
  unsigned char type = 0;   // low 4 bits of st_info: kSttFunc, ...
  unsigned char other = 0;  // st_other: CUDA marks a kernel's symbol here (STO_CUDA_ENTRY, cubin_sass.cpp)
};

struct ElfImage {
  std::uint16_t machine = 0;         // e_machine
  std::vector<ElfSection> sections;  // in section-header order, index 0 the null section
  std::vector<ElfSymbol> symbols;    // the .symtab, by index; empty when the image has none
};

// Reads the section table (names and bytes) and the symbol table of `image`. std::invalid_argument, its
// message starting with "cubin: ", when the buffer is not a 64-bit little-endian ELF image (a fatbinary is
// named as such), or when a header table (program or section headers), a section, a name or a symbol
// lies outside it.
ElfImage read_elf64(std::string_view image);

}  // namespace gpuperf::fingerprint
