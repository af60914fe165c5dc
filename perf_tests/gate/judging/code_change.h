#pragma once
// What changed in the code a benchmark ran, between its baseline's fingerprint and the current one: the
// lines a person reads beside the timing verdict. A timing verdict of SAME over a "SASS changed" line says
// the new code is as fast; a SLOW one over "kernel A replaced by B" says other code ran, not that the same
// code got slower. A pure function of the two fingerprints, so every case of it can be unit-tested.

#include <cstddef>
#include <string>
#include <vector>

#include "formats/fingerprint.h"

namespace gpuperf::gate {

// short_kernel_name() keeps at most this many characters of a template argument list, its '<' and the
// "...>" that marks a cut included.
inline constexpr std::size_t kShortNameTemplateChars = 48;

enum class CodeComparison {
  kSame,     // the same kernels in the same order, launched alike, with the same SASS and library versions
  kChanged,  // something differs, or a kernel's SASS could not be compared: CodeChange::changes says what
  kUnknown,  // either side was not captured: CodeChange::unknown_reason says which and why
};

struct CodeChange {
  CodeComparison comparison = CodeComparison::kUnknown;
  // One short line per difference, most important first: kernels replaced, added or removed; copies and
  // sets added, removed, resized or repeated ("memset of 4194304 bytes added", where both sides captured
  // them: Fingerprint::covers_copies); SASS changed; library versions; registers, local memory, static shared memory; grid, block, dynamic
  // shared memory; launch counts; kernels whose SASS is unknown. Within each, in launch order (libraries:
  // by name). Empty for kSame and kUnknown.
  std::vector<std::string> changes;
  // The lines of `changes` that make code slower whatever the timing says: local memory per thread grew
  // (spills), a grid's total blocks fell to half or less, a kernel or a copy or set was added to the timed
  // region.
  std::vector<std::string> warnings;
  // kUnknown only: "the baseline has no fingerprint (<status>)", "not captured now (<status>)", or both
  // joined by "; ".
  std::string unknown_reason;
  // kSame only: both fingerprints cover all the GPU work of the timed region (kernels, launches, libraries,
  // copies and sets), so a change in time cannot come from the code: a verdict beyond the tolerance is the
  // platform's (PLATFORM). False where a side's capture saw kernels alone (fingerprints of schema 1).
  bool covers_all_gpu_work = false;
};

// Compares `current` with `baseline`. Their kernels are aligned by mangled_name along a longest common
// subsequence, so one kernel added or removed does not misalign the rest. Unmatched kernels between the
// same two matched ones pair up in order as replacements ("kernel A replaced by B": how a library
// heuristic switching kernels shows); the rest are added or removed. A matched kernel gets one line per
// differing field ("tiled<256>: registers 64 -> 96"), and "SASS of tiled<256> unknown" where either side's
// sass_hash is empty.
CodeChange compare_code(const formats::Fingerprint& baseline, const formats::Fingerprint& current);

// `mangled` with each anonymous namespace written as GCC and Clang write it ("12_GLOBAL__N_1"). nvcc names
// one after its translation unit ("63_GLOBAL__N__04c93339_30_reduce9_shfl_down_last_warp_cu_2cc3570d" on
// an H100 with CUDA 13.0), which differs between checkouts of the same source in other directories:
// compare_code aligns kernels by this name, so that moving the checkout is not a code change.
std::string stable_mangled_name(const std::string& mangled);

// The kernel's name for reports: the demangled name without its return type and parameter list, template
// arguments kept up to kShortNameTemplateChars ("void tiled<256>(float*, float const*)" -> "tiled<256>");
// mangled_name when there is no demangled name. The name before the template arguments is never cut, so
// a library's kernel named in plain C ("sm90_xmma_gemm_..._cublas") stays whole.
std::string short_kernel_name(const formats::KernelLaunch& kernel);

}  // namespace gpuperf::gate
