#include "gate/judging/code_change.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

namespace gpuperf::gate {
namespace {

// The sections of CodeChange::differences, most important first: which code ran, then what it is, then how
// it was launched.
enum class Section {
  kKernels,
  kCopies,
  kSass,
  kLibraries,
  kResources,
  kLaunchConfiguration,
  kLaunchCount,
  kSassUnknown
};

Section section_of(CodeDifferenceKind kind) {
  switch (kind) {
    case CodeDifferenceKind::kKernelReplaced:
    case CodeDifferenceKind::kKernelRemoved:
    case CodeDifferenceKind::kKernelAdded: return Section::kKernels;
    case CodeDifferenceKind::kCopyResized:
    case CodeDifferenceKind::kCopyCount:
    case CodeDifferenceKind::kCopyPlace:
    case CodeDifferenceKind::kCopyRemoved:
    case CodeDifferenceKind::kCopyAdded: return Section::kCopies;
    case CodeDifferenceKind::kSassChanged: return Section::kSass;
    case CodeDifferenceKind::kLibraryRemoved:
    case CodeDifferenceKind::kLibraryAdded:
    case CodeDifferenceKind::kLibraryVersion: return Section::kLibraries;
    case CodeDifferenceKind::kRegisters:
    case CodeDifferenceKind::kLocalMemory:
    case CodeDifferenceKind::kStaticSharedMemory: return Section::kResources;
    case CodeDifferenceKind::kGrid:
    case CodeDifferenceKind::kBlock:
    case CodeDifferenceKind::kDynamicSharedMemory: return Section::kLaunchConfiguration;
    case CodeDifferenceKind::kLaunches: return Section::kLaunchCount;
    case CodeDifferenceKind::kSassUnknown: return Section::kSassUnknown;
  }
  return Section::kSassUnknown;
}

// Differences in the order they were found: launch order, then libraries by name. A stable sort by
// section keeps that order within each section.
using Differences = std::vector<CodeDifference>;

CodeDifference kernel_difference(CodeDifferenceKind kind, const std::string& kernel) {
  CodeDifference d;
  d.kind = kind;
  d.kernel = kernel;
  return d;
}

CodeDifference kernel_numbers(CodeDifferenceKind kind, const std::string& kernel, long long before, long long now,
                              bool warning = false) {
  CodeDifference d = kernel_difference(kind, kernel);
  d.before = before;
  d.now = now;
  d.warning = warning;
  return d;
}

CodeDifference library_difference(CodeDifferenceKind kind, const std::string& library, const std::string& before,
                                  const std::string& now) {
  CodeDifference d;
  d.kind = kind;
  d.library = library;
  d.before_version = before;
  d.now_version = now;
  return d;
}

CodeDifference copy_difference(CodeDifferenceKind kind, const formats::CopyOrSet& copy, long long before = 0,
                               long long now = 0) {
  CodeDifference d;
  d.kind = kind;
  d.copy_kind = copy.kind;
  d.copy_bytes = copy.bytes;
  d.before = before;
  d.now = now;
  d.warning = kind == CodeDifferenceKind::kCopyAdded;
  return d;
}

// In double: three dimensions of up to 2^31 - 1 overflow any integer type; exact below 2^53 blocks.
double total_blocks(const std::array<int, 3>& grid) {
  return static_cast<double>(grid[0]) * static_cast<double>(grid[1]) * static_cast<double>(grid[2]);
}

// Where `c` occurs in `name` outside any (), <>, [] or {}: the separators of a demangled name's parts.
// Best effort: an operator< or operator> in the name unbalances the count.
std::size_t find_top_level(std::string_view name, char c, bool last) {
  std::size_t found = std::string_view::npos;
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (depth == 0 && name[i] == c) {
      found = i;
      if (!last) return found;
    }
    if (name[i] == '(' || name[i] == '<' || name[i] == '[' || name[i] == '{') ++depth;
    if (name[i] == ')' || name[i] == '>' || name[i] == ']' || name[i] == '}') --depth;
  }
  return found;
}

// `name` without a final parenthesised parameter list and without the return type before it.
std::string_view without_signature(std::string_view name) {
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') {
      ++depth;
    } else if (name[i] == '(' && --depth == 0) {
      const std::string_view function = name.substr(0, i);
      const std::size_t space = find_top_level(function, ' ', true);
      return space == std::string_view::npos ? function : function.substr(space + 1);
    }
  }
  return name;  // unbalanced: leave it as it is
}

void compare_matched(const formats::KernelLaunch& before, const formats::KernelLaunch& now, Differences& found) {
  const std::string name = short_kernel_name(now);
  if (before.sass_hash.empty() || now.sass_hash.empty()) {
    found.push_back(kernel_difference(CodeDifferenceKind::kSassUnknown, name));
  } else if (before.sass_hash != now.sass_hash) {
    found.push_back(kernel_difference(CodeDifferenceKind::kSassChanged, name));
  }
  if (before.registers_per_thread != now.registers_per_thread) {
    found.push_back(kernel_numbers(CodeDifferenceKind::kRegisters, name, before.registers_per_thread, now.registers_per_thread));
  }
  if (before.local_memory_per_thread_bytes != now.local_memory_per_thread_bytes) {
    found.push_back(kernel_numbers(CodeDifferenceKind::kLocalMemory, name, before.local_memory_per_thread_bytes,
                                   now.local_memory_per_thread_bytes,
                                   now.local_memory_per_thread_bytes > before.local_memory_per_thread_bytes));
  }
  if (before.static_shared_memory_bytes != now.static_shared_memory_bytes) {
    found.push_back(kernel_numbers(CodeDifferenceKind::kStaticSharedMemory, name, before.static_shared_memory_bytes,
                                   now.static_shared_memory_bytes));
  }
  if (before.grid != now.grid) {
    CodeDifference grid = kernel_difference(CodeDifferenceKind::kGrid, name);
    grid.before_dims = before.grid;
    grid.now_dims = now.grid;
    grid.warning = 2.0 * total_blocks(now.grid) <= total_blocks(before.grid);
    found.push_back(grid);
  }
  if (before.block != now.block) {
    CodeDifference block = kernel_difference(CodeDifferenceKind::kBlock, name);
    block.before_dims = before.block;
    block.now_dims = now.block;
    found.push_back(block);
  }
  if (before.dynamic_shared_memory_bytes != now.dynamic_shared_memory_bytes) {
    found.push_back(kernel_numbers(CodeDifferenceKind::kDynamicSharedMemory, name, before.dynamic_shared_memory_bytes,
                                   now.dynamic_shared_memory_bytes));
  }
  if (before.launches != now.launches) {
    found.push_back(kernel_numbers(CodeDifferenceKind::kLaunches, name, before.launches, now.launches));
  }
}

// The unmatched kernels between two matched ones: pairs in order are replacements, the rest are
// removed (more of them before) or added (more now).
void compare_gap(const std::vector<const formats::KernelLaunch*>& removed, const std::vector<const formats::KernelLaunch*>& added,
                 Differences& found) {
  const std::size_t pairs = std::min(removed.size(), added.size());
  for (std::size_t p = 0; p < pairs; ++p) {
    CodeDifference replaced = kernel_difference(CodeDifferenceKind::kKernelReplaced, short_kernel_name(*removed[p]));
    replaced.other_kernel = short_kernel_name(*added[p]);
    found.push_back(replaced);
  }
  for (std::size_t p = pairs; p < removed.size(); ++p) {
    found.push_back(kernel_difference(CodeDifferenceKind::kKernelRemoved, short_kernel_name(*removed[p])));
  }
  for (std::size_t p = pairs; p < added.size(); ++p) {
    CodeDifference kernel = kernel_difference(CodeDifferenceKind::kKernelAdded, short_kernel_name(*added[p]));
    kernel.warning = true;
    found.push_back(kernel);
  }
}

// Aligns the two launch-ordered lists by stable_mangled_name along a longest common subsequence and compares
// what matched and what did not. Ties go the same way every time: a baseline kernel is dropped before a
// current one is skipped.
void compare_kernels(const std::vector<formats::KernelLaunch>& before, const std::vector<formats::KernelLaunch>& now, Differences& found) {
  const std::size_t n = before.size();
  const std::size_t m = now.size();
  // common[i * (m + 1) + j]: length of a longest common subsequence of before[i..] and now[j..].
  std::vector<std::size_t> common((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return common[i * (m + 1) + j]; };
  std::vector<std::string> before_names, now_names;
  for (const formats::KernelLaunch& k : before) before_names.push_back(stable_mangled_name(k.mangled_name));
  for (const formats::KernelLaunch& k : now) now_names.push_back(stable_mangled_name(k.mangled_name));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = before_names[i] == now_names[j] ? at(i + 1, j + 1) + 1
                                                               : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::vector<const formats::KernelLaunch*> removed;
  std::vector<const formats::KernelLaunch*> added;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before_names[i] == now_names[j]) {
      compare_gap(removed, added, found);
      removed.clear();
      added.clear();
      compare_matched(before[i++], now[j++], found);
    } else if (j == m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      removed.push_back(&before[i++]);
    } else {
      added.push_back(&now[j++]);
    }
  }
  compare_gap(removed, added, found);
}

void compare_libraries(const std::map<std::string, std::string>& before,
                       const std::map<std::string, std::string>& now, Differences& found) {
  std::set<std::string> names;
  for (const auto& entry : before) names.insert(entry.first);
  for (const auto& entry : now) names.insert(entry.first);
  for (const std::string& library : names) {
    const auto was = before.find(library);
    const auto is = now.find(library);
    if (is == now.end()) {
      found.push_back(library_difference(CodeDifferenceKind::kLibraryRemoved, library, was->second, ""));
    } else if (was == before.end()) {
      found.push_back(library_difference(CodeDifferenceKind::kLibraryAdded, library, "", is->second));
    } else if (was->second != is->second) {
      found.push_back(library_difference(CodeDifferenceKind::kLibraryVersion, library, was->second, is->second));
    }
  }
}

// Two copies or sets that are the same operation wherever they sit: what the alignment matches on.
bool same_copy_operation(const formats::CopyOrSet& a, const formats::CopyOrSet& b) {
  return a.kind == b.kind && a.bytes == b.bytes;
}

void compare_matched_copies(const formats::CopyOrSet& was, const formats::CopyOrSet& is, Differences& found) {
  if (was.count != is.count) found.push_back(copy_difference(CodeDifferenceKind::kCopyCount, is, was.count, is.count));
  if (was.after_launches != is.after_launches) {
    found.push_back(copy_difference(CodeDifferenceKind::kCopyPlace, is, was.after_launches, is.after_launches));
  }
}

// The unmatched copies between two matched ones: those of one kind pair up in order as resized ("memcpy
// DtoD of 1048576 -> 2097152 bytes"), the rest are removed or added (added: work the timed region did
// not do, a warning as an added kernel is).
void compare_copy_gap(std::vector<const formats::CopyOrSet*>& removed, std::vector<const formats::CopyOrSet*>& added,
                      Differences& found) {
  for (auto r = removed.begin(); r != removed.end();) {
    const auto a = std::find_if(added.begin(), added.end(), [&](const formats::CopyOrSet* c) { return c->kind == (*r)->kind; });
    if (a == added.end()) {
      ++r;
      continue;
    }
    found.push_back(copy_difference(CodeDifferenceKind::kCopyResized, **a, (*r)->bytes, (*a)->bytes));
    if ((*r)->count != (*a)->count) {
      found.push_back(copy_difference(CodeDifferenceKind::kCopyCount, **a, (*r)->count, (*a)->count));
    }
    added.erase(a);
    r = removed.erase(r);
  }
  for (const formats::CopyOrSet* c : removed) found.push_back(copy_difference(CodeDifferenceKind::kCopyRemoved, *c));
  for (const formats::CopyOrSet* c : added) found.push_back(copy_difference(CodeDifferenceKind::kCopyAdded, *c));
  removed.clear();
  added.clear();
}

// The copies and sets of both sides, aligned along a longest common subsequence of (kind, bytes) as the
// kernels are, so that one added set does not misalign the rest.
void compare_copies(const std::vector<formats::CopyOrSet>& before, const std::vector<formats::CopyOrSet>& now,
                    Differences& found) {
  const std::size_t n = before.size();
  const std::size_t m = now.size();
  std::vector<std::size_t> common((n + 1) * (m + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return common[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = same_copy_operation(before[i], now[j]) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::vector<const formats::CopyOrSet*> removed;
  std::vector<const formats::CopyOrSet*> added;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same_copy_operation(before[i], now[j])) {
      compare_copy_gap(removed, added, found);
      compare_matched_copies(before[i++], now[j++], found);
    } else if (j == m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      removed.push_back(&before[i++]);
    } else {
      added.push_back(&now[j++]);
    }
  }
  compare_copy_gap(removed, added, found);
}

}  // namespace

std::string stable_mangled_name(const std::string& mangled) {
  constexpr std::string_view kAnonymous = "_GLOBAL__N_";
  constexpr std::string_view kCanonical = "12_GLOBAL__N_1";  // as GCC and Clang write it
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = mangled.find(kAnonymous); at != std::string::npos; at = mangled.find(kAnonymous, from)) {
    std::size_t digits = at;
    while (digits > from && mangled[digits - 1] >= '0' && mangled[digits - 1] <= '9') --digits;
    std::size_t length = 0;
    for (std::size_t d = digits; d < at; ++d) length = length * 10 + static_cast<std::size_t>(mangled[d] - '0');
    if (digits == at || at + length > mangled.size()) {  // not a <length><identifier>: left as it is
      out.append(mangled, from, at + kAnonymous.size() - from);
      from = at + kAnonymous.size();
      continue;
    }
    out.append(mangled, from, digits - from).append(kCanonical);
    from = at + length;
  }
  return out.append(mangled, from, std::string::npos);
}

CodeChange compare_code(const formats::Fingerprint& baseline, const formats::Fingerprint& current) {
  CodeChange change;
  const bool have_baseline = baseline.capture_status == formats::kCapturedByCupti;
  const bool have_current = current.capture_status == formats::kCapturedByCupti;
  if (!have_baseline || !have_current) {
    change.comparison = CodeComparison::kUnknown;
    if (!have_baseline) {
      change.baseline_missing = CodeSideMissing::kNotCaptured;
      change.baseline_capture_status = baseline.capture_status;
    }
    if (!have_current) {
      change.current_missing = CodeSideMissing::kNotCaptured;
      change.current_capture_status = current.capture_status;
    }
    return change;
  }
  Differences found;
  compare_kernels(baseline.kernels, current.kernels, found);
  // A schema-1 side saw kernels alone: its copies are unknown, neither the same nor changed.
  const bool both_cover_copies = baseline.covers_copies && current.covers_copies;
  if (both_cover_copies) compare_copies(baseline.copies, current.copies, found);
  compare_libraries(baseline.libraries, current.libraries, found);
  std::stable_sort(found.begin(), found.end(), [](const CodeDifference& a, const CodeDifference& b) {
    return section_of(a.kind) < section_of(b.kind);
  });
  change.differences = std::move(found);
  change.comparison = change.differences.empty() ? CodeComparison::kSame : CodeComparison::kChanged;
  change.covers_all_gpu_work = change.comparison == CodeComparison::kSame && both_cover_copies;
  return change;
}

std::string short_kernel_name(const formats::KernelLaunch& kernel) {
  const std::string_view name = without_signature(kernel.name);
  if (name.empty()) return kernel.mangled_name;
  const std::size_t open = find_top_level(name, '<', false);
  if (open == std::string_view::npos || name.size() - open <= kShortNameTemplateChars) return std::string(name);
  return std::string(name.substr(0, open + kShortNameTemplateChars - 4)) + "...>";
}

}  // namespace gpuperf::gate
