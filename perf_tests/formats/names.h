#pragma once
// The names that reach every report: benchmark, family and GPU names. They come from files a run of
// untrusted code can write (results, baselines, case listings), so they are held to one character set
// and length, checked where they enter (the registry at start-up, the gate's readers); a name that
// breaks the rule is an input error, never printed raw. baselines/README.md ("Names") states the rule.
//
//   benchmark  family/part[/part...], at most kMaxBenchmarkNameLength characters; the registry's are
//              family/variant/shape ("reduction/reduce9_shfl_down_last_warp/n:33554432")
//   family     a letter, then letters, digits, '_'; at most kMaxFamilyNameLength ("smem_latency")
//   part       (variant, shape) one or more of letters, digits, _ . , : - ("m:1000,n:1001,k:999")
//   GPU        letters, digits, space, _ . - starting and ending with a letter or digit; at most
//              kMaxGpuNameLength ("NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB MIG 1g.5gb")
//   GPU slug   the GPU name in lower case, other characters as '-' ("nvidia-h100-80gb-hbm3", gpu_slug()):
//              lower-case letters, digits, _ . - starting and ending with a letter or digit, at most
//              kMaxGpuNameLength. It names files (baselines/<slug>.json), so it can hold no '/' and never be
//              "." or "..".
//
// None of them can hold a backtick, '|', '<', '&', '@', '[', a quote, a backslash, a control character or
// any non-ASCII byte, so no name can close a code span, open HTML or a link, mention anyone or start a
// line. Every name the registry makes (108 perf cases, the longest 82 characters) fits with room to spare.

#include <cstddef>
#include <string>
#include <string_view>

namespace gpuperf::formats {

inline constexpr std::size_t kMaxBenchmarkNameLength = 160;  // [characters]
inline constexpr std::size_t kMaxFamilyNameLength = 48;      // [characters]
inline constexpr std::size_t kMaxGpuNameLength = 96;         // [characters]

enum class NameKind { kBenchmark, kFamily, kNamePart, kGpu, kGpuSlug };

// "" when `text` is a valid name of this kind; else one line saying which name (escaped with
// escape_console, so it is safe to print), what is wrong with it and the rule, e.g.
//   benchmark name 'fam/a\x0a::error::x/n:1' has a control character (\x0a) at 6; a benchmark name is ...
std::string name_error(NameKind kind, std::string_view text);

// The rule for one kind of name, in words (as in the header comment): what name_error() ends with.
std::string name_rule(NameKind kind);

// The longest name of this kind: kMaxBenchmarkNameLength for a benchmark name and a part, kMaxFamilyNameLength,
// kMaxGpuNameLength for a GPU name and a slug. [characters]
std::size_t name_max_length(NameKind kind);

// The rule for one kind of name as a POSIX extended regular expression, for the scripts and CMake that check
// names without perf_gate (perf_gate name-rules writes them into scripts/lib/name_rules.sh and
// cmake/GpuperfNameRules.cmake). Unanchored, with no '|' outside parentheses: bash anchors it ^...$
// ([[ $x =~ ^$rule$ ]], where $ is the end of the string), jq \A...\z (its $ matches before a final
// newline too). ASCII ranges only, which mean the same in the C and the UTF-8 locales. Its bounds ({0,47})
// hold the lengths of a family (in a benchmark name too), a GPU name and a slug, so that for those kinds the
// pattern alone is the rule; a benchmark name's and a part's length a regular expression cannot hold: check
// name_max_length() beside it. A name is valid exactly when it matches and is at most name_max_length() long
// (tests/test_names.cpp checks both on a corpus).
std::string name_pattern(NameKind kind);

// name_pattern() without bounds, for regular expressions that have none (CMake's MATCHES): the length is then
// name_max_length()'s alone to check. For a benchmark name it is looser than the rule (its family's length
// is not checked): check the family apart.
std::string name_pattern_without_bounds(NameKind kind);

// The slug of a GPU name: lower case, every run of other characters than letters and digits one '-', none
// at either end: "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3". The harness names the GPU it runs on
// by it, and the gate a GPU another tool's output names (gate/inputs/nvbench_results.h).
std::string gpu_slug(std::string_view gpu_name);

}  // namespace gpuperf::formats
