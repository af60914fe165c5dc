#include "gate/judging/code_change.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace gpuperf::gate {
namespace {

// The sections of CodeChange::changes, most important first: which code ran, then what it is, then how
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

struct Line {
  Section section;
  std::string text;
  bool warning = false;
};

// Lines in the order they were found: launch order, then libraries by name. A stable sort by section
// keeps that order within each section.
using Lines = std::vector<Line>;

std::string dims(const std::array<int, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
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

void compare_matched(const formats::KernelLaunch& before, const formats::KernelLaunch& now, Lines& lines) {
  const std::string name = short_kernel_name(now);
  auto add = [&](Section section, const std::string& what, bool warning = false) {
    lines.push_back({section, name + ": " + what, warning});
  };
  auto from_to = [](auto before_value, auto now_value) {
    return std::to_string(before_value) + " -> " + std::to_string(now_value);
  };
  if (before.sass_hash.empty() || now.sass_hash.empty()) {
    lines.push_back({Section::kSassUnknown, "SASS of " + name + " unknown"});
  } else if (before.sass_hash != now.sass_hash) {
    add(Section::kSass, "SASS changed");
  }
  if (before.registers_per_thread != now.registers_per_thread) {
    add(Section::kResources, "registers " + from_to(before.registers_per_thread, now.registers_per_thread));
  }
  if (before.local_memory_per_thread_bytes != now.local_memory_per_thread_bytes) {
    add(Section::kResources,
        "local memory " + from_to(before.local_memory_per_thread_bytes, now.local_memory_per_thread_bytes) +
            " B/thread",
        now.local_memory_per_thread_bytes > before.local_memory_per_thread_bytes);
  }
  if (before.static_shared_memory_bytes != now.static_shared_memory_bytes) {
    add(Section::kResources,
        "static shared memory " + from_to(before.static_shared_memory_bytes, now.static_shared_memory_bytes) + " B");
  }
  if (before.grid != now.grid) {
    add(Section::kLaunchConfiguration, "grid " + dims(before.grid) + " -> " + dims(now.grid) + " blocks",
        2.0 * total_blocks(now.grid) <= total_blocks(before.grid));
  }
  if (before.block != now.block) {
    add(Section::kLaunchConfiguration, "block " + dims(before.block) + " -> " + dims(now.block) + " threads");
  }
  if (before.dynamic_shared_memory_bytes != now.dynamic_shared_memory_bytes) {
    add(Section::kLaunchConfiguration,
        "dynamic shared memory " + from_to(before.dynamic_shared_memory_bytes, now.dynamic_shared_memory_bytes) +
            " B");
  }
  if (before.launches != now.launches) add(Section::kLaunchCount, "launches " + from_to(before.launches, now.launches));
}

// The unmatched kernels between two matched ones: pairs in order are replacements, the rest are
// removed (more of them before) or added (more now).
void compare_gap(const std::vector<const formats::KernelLaunch*>& removed, const std::vector<const formats::KernelLaunch*>& added,
                 Lines& lines) {
  const std::size_t pairs = std::min(removed.size(), added.size());
  for (std::size_t p = 0; p < pairs; ++p) {
    const std::string before = short_kernel_name(*removed[p]);
    const std::string now = short_kernel_name(*added[p]);
    lines.push_back({Section::kKernels, "kernel " + before + " replaced by " +
                                            (now == before ? "another " + now + " (mangled names differ)" : now)});
  }
  for (std::size_t p = pairs; p < removed.size(); ++p) {
    lines.push_back({Section::kKernels, "kernel " + short_kernel_name(*removed[p]) + " removed"});
  }
  for (std::size_t p = pairs; p < added.size(); ++p) {
    lines.push_back({Section::kKernels, "kernel " + short_kernel_name(*added[p]) + " added", true});
  }
}

// Aligns the two launch-ordered lists by stable_mangled_name along a longest common subsequence and compares
// what matched and what did not. Ties go the same way every time: a baseline kernel is dropped before a
// current one is skipped.
void compare_kernels(const std::vector<formats::KernelLaunch>& before, const std::vector<formats::KernelLaunch>& now, Lines& lines) {
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
      compare_gap(removed, added, lines);
      removed.clear();
      added.clear();
      compare_matched(before[i++], now[j++], lines);
    } else if (j == m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      removed.push_back(&before[i++]);
    } else {
      added.push_back(&now[j++]);
    }
  }
  compare_gap(removed, added, lines);
}

void compare_libraries(const std::map<std::string, std::string>& before,
                       const std::map<std::string, std::string>& now, Lines& lines) {
  std::set<std::string> names;
  for (const auto& entry : before) names.insert(entry.first);
  for (const auto& entry : now) names.insert(entry.first);
  for (const std::string& library : names) {
    const auto was = before.find(library);
    const auto is = now.find(library);
    if (is == now.end()) {
      lines.push_back({Section::kLibraries, "library " + library + " " + was->second + " removed"});
    } else if (was == before.end()) {
      lines.push_back({Section::kLibraries, "library " + library + " " + is->second + " added"});
    } else if (was->second != is->second) {
      lines.push_back({Section::kLibraries, library + " " + was->second + " -> " + is->second});
    }
  }
}

// Two copies or sets that are the same operation wherever they sit: what the alignment matches on.
bool same_copy_operation(const formats::CopyOrSet& a, const formats::CopyOrSet& b) {
  return a.kind == b.kind && a.bytes == b.bytes;
}

std::string times(int count) { return count == 1 ? "once" : std::to_string(count) + " times"; }

void compare_matched_copies(const formats::CopyOrSet& was, const formats::CopyOrSet& is, Lines& lines) {
  const std::string what = formats::describe(is);
  if (was.count != is.count) {
    lines.push_back({Section::kCopies, what + ": " + times(was.count) + " -> " + times(is.count)});
  }
  if (was.after_launches != is.after_launches) {
    lines.push_back({Section::kCopies, what + ": after kernel launch " + std::to_string(was.after_launches) + " -> " +
                                           std::to_string(is.after_launches)});
  }
}

// The unmatched copies between two matched ones: those of one kind pair up in order as resized ("memcpy
// DtoD of 1048576 -> 2097152 bytes"), the rest are removed or added (added: work the timed region did
// not do, a warning as an added kernel is).
void compare_copy_gap(std::vector<const formats::CopyOrSet*>& removed, std::vector<const formats::CopyOrSet*>& added,
                      Lines& lines) {
  for (auto r = removed.begin(); r != removed.end();) {
    const auto a = std::find_if(added.begin(), added.end(), [&](const formats::CopyOrSet* c) { return c->kind == (*r)->kind; });
    if (a == added.end()) {
      ++r;
      continue;
    }
    lines.push_back({Section::kCopies, (*a)->kind + " of " + std::to_string((*r)->bytes) + " -> " +
                                           std::to_string((*a)->bytes) + " bytes"});
    if ((*r)->count != (*a)->count) {
      lines.push_back({Section::kCopies, formats::describe(**a) + ": " + times((*r)->count) + " -> " + times((*a)->count)});
    }
    added.erase(a);
    r = removed.erase(r);
  }
  for (const formats::CopyOrSet* c : removed) lines.push_back({Section::kCopies, formats::describe(*c) + " removed"});
  for (const formats::CopyOrSet* c : added) lines.push_back({Section::kCopies, formats::describe(*c) + " added", true});
  removed.clear();
  added.clear();
}

// The copies and sets of both sides, aligned along a longest common subsequence of (kind, bytes) as the
// kernels are, so that one added set does not misalign the rest.
void compare_copies(const std::vector<formats::CopyOrSet>& before, const std::vector<formats::CopyOrSet>& now,
                    Lines& lines) {
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
      compare_copy_gap(removed, added, lines);
      compare_matched_copies(before[i++], now[j++], lines);
    } else if (j == m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      removed.push_back(&before[i++]);
    } else {
      added.push_back(&now[j++]);
    }
  }
  compare_copy_gap(removed, added, lines);
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
      change.unknown_reason = "the baseline has no fingerprint";
      if (!baseline.capture_status.empty()) change.unknown_reason += " (" + baseline.capture_status + ")";
    }
    if (!have_current) {
      const std::string why = current.capture_status.empty() ? "no reason given" : current.capture_status;
      if (!change.unknown_reason.empty()) change.unknown_reason += "; ";
      change.unknown_reason += "not captured now (" + why + ")";
    }
    return change;
  }
  Lines lines;
  compare_kernels(baseline.kernels, current.kernels, lines);
  // A schema-1 side saw kernels alone: its copies are unknown, neither the same nor changed.
  const bool both_cover_copies = baseline.covers_copies && current.covers_copies;
  if (both_cover_copies) compare_copies(baseline.copies, current.copies, lines);
  compare_libraries(baseline.libraries, current.libraries, lines);
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Line& a, const Line& b) { return a.section < b.section; });
  for (const Line& line : lines) {
    change.changes.push_back(line.text);
    if (line.warning) change.warnings.push_back(line.text);
  }
  change.comparison = change.changes.empty() ? CodeComparison::kSame : CodeComparison::kChanged;
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
