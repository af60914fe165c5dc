#pragma once
// What changed in the code a benchmark ran, between its baseline's fingerprint and the current one: the
// differences a person reads beside the timing verdict, as codes with fields (reports/code_words.h words
// them). A timing verdict of SAME over "SASS changed" says the new code is as fast; a SLOW one over "kernel
// A replaced by B" says other code ran, not that the same code got slower. A pure function of the two
// fingerprints, so every case of it can be unit-tested.

#include <array>
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
  kChanged,  // something differs, or a kernel's SASS could not be compared: CodeChange::differences says what
  kUnknown,  // either side was not captured: CodeChange's *_missing say which and why
};

// What one difference is. The order of the sections (kernels, copies, SASS, libraries, resources, launch
// configuration, launch counts, SASS unknown) is the order of CodeChange::differences, most important
// first: which code ran, then what it is, then how it was launched.
enum class CodeDifferenceKind {
  kKernelReplaced,      // `kernel` ran before, `other_kernel` in its place now (equal short names: the
                        // mangled names differ past what short_kernel_name keeps)
  kKernelRemoved,       // `kernel` ran before only
  kKernelAdded,         // `kernel` runs now only (a warning)
  kCopyResized,         // a `copy_kind` of `before` -> `now` bytes, paired in order within its gap
  kCopyCount,           // a `copy_kind` of `copy_bytes`: `before` -> `now` consecutive operations
  kCopyPlace,           // a `copy_kind` of `copy_bytes`: after kernel launch `before` -> `now`
  kCopyRemoved,         // a `copy_kind` of `copy_bytes` issued before only
  kCopyAdded,           // a `copy_kind` of `copy_bytes` issued now only (a warning)
  kSassChanged,         // `kernel`'s sass_hash differs
  kLibraryRemoved,      // `library` at `before_version`, before only
  kLibraryAdded,        // `library` at `now_version`, now only
  kLibraryVersion,      // `library`: `before_version` -> `now_version`
  kRegisters,           // `kernel`: `before` -> `now` [registers per thread]
  kLocalMemory,         // `kernel`: `before` -> `now` [bytes per thread] (grown: a warning, spills)
  kStaticSharedMemory,  // `kernel`: `before` -> `now` [bytes per block]
  kGrid,                // `kernel`: `before_dims` -> `now_dims` [blocks] (half the blocks or fewer: a warning)
  kBlock,               // `kernel`: `before_dims` -> `now_dims` [threads]
  kDynamicSharedMemory, // `kernel`: `before` -> `now` [bytes per block]
  kLaunches,            // `kernel`: `before` -> `now` consecutive launches
  kSassUnknown,         // `kernel`'s sass_hash is empty on either side: its SASS could not be compared
};

// One difference between the two fingerprints: its kind and the names and numbers its kind names, no words
// (reports/code_words.h words it). Fields a kind does not name stay empty or zero.
struct CodeDifference {
  CodeDifferenceKind kind = CodeDifferenceKind::kSassChanged;
  std::string kernel;        // kernels: short_kernel_name (the current side's where both ran)
  std::string other_kernel;  // kKernelReplaced: the short name of the kernel that ran in its place
  std::string library;       // libraries: as the fingerprint names it ("cublas")
  std::string before_version;
  std::string now_version;
  std::string copy_kind;     // copies and sets: formats::CopyOrSet::kind ("memset", "memcpy DtoD")
  long long copy_bytes = 0;  // copies and sets: one operation now (kCopyRemoved: before) [bytes]
  long long before = 0;      // the numbers of the kinds that name them, in the units given there
  long long now = 0;
  std::array<int, 3> before_dims{};  // kGrid [blocks], kBlock [threads]
  std::array<int, 3> now_dims{};
  // It makes the code slower whatever the timing says: local memory per thread grew (spills), a grid's
  // total blocks fell to half or less, a kernel or a copy or set was added to the timed region.
  bool warning = false;
};

// Why one side of a kUnknown comparison has no fingerprint to compare.
enum class CodeSideMissing {
  kCaptured,          // it has one
  kNotCaptured,       // its fingerprint was not captured: its capture_status says why ("" where it does not)
  kNoneForBenchmark,  // the side holds fingerprints, none for this benchmark (add_code_changes)
};

struct CodeChange {
  CodeComparison comparison = CodeComparison::kUnknown;
  // One per difference, most important first (CodeDifferenceKind's sections); within each, in launch
  // order (libraries: by name). Copies and sets only where both sides captured them
  // (Fingerprint::covers_copies). Empty for kSame and kUnknown.
  std::vector<CodeDifference> differences;
  // kUnknown only: which sides were not captured, and the capture_status each side's file gave.
  CodeSideMissing baseline_missing = CodeSideMissing::kCaptured;
  std::string baseline_capture_status;
  CodeSideMissing current_missing = CodeSideMissing::kCaptured;
  std::string current_capture_status;
  // kSame only: both fingerprints cover all the GPU work of the timed region (kernels, launches, libraries,
  // copies and sets), so a change in time cannot come from the code: a verdict beyond the tolerance is the
  // platform's (PLATFORM). False where a side's capture saw kernels alone (fingerprints of schema 1).
  bool covers_all_gpu_work = false;
};

// Compares `current` with `baseline`. Their kernels are aligned by mangled_name along a longest common
// subsequence, so one kernel added or removed does not misalign the rest. Unmatched kernels between the
// same two matched ones pair up in order as replacements ("kernel A replaced by B": how a library
// heuristic switching kernels shows); the rest are added or removed. A matched kernel gets one difference
// per differing field (kRegisters 64 -> 96), and kSassUnknown where either side's sass_hash is empty.
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
