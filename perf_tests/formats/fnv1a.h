#pragma once
// FNV-1a, 64 bits: the hash a kernel's machine code is fingerprinted with.
//
// Why not SHA-256: the hash tells "this kernel's code changed" between two builds of our own project, not
// "these bytes are genuine" against an adversary, so collision resistance is not needed. A chance collision
// of two different codes of one kernel, 2^-64, is far below any other error of the gate. FNV-1a is five
// lines without a dependency, and anyone can recompute it from `readelf -x .text.<kernel>` (see
// cubin_sass.h).

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::formats {

inline constexpr std::uint64_t kFnv1a64Offset = 14695981039346656037ull;
inline constexpr std::uint64_t kFnv1a64Prime = 1099511628211ull;

// Continues `hash` over `bytes`; start with kFnv1a64Offset.
constexpr std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash = kFnv1a64Offset) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kFnv1a64Prime;
  }
  return hash;
}

// 16 lower-case hex digits, most significant first: "cbf29ce484222325".
inline std::string hex16(std::uint64_t value) {
  constexpr char kDigits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) text[static_cast<std::size_t>(i)] = kDigits[value & 0xfu];
  return text;
}

}  // namespace gpuperf::formats
