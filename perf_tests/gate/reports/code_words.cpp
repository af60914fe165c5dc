#include "gate/reports/code_words.h"

#include <array>

#include "formats/fingerprint.h"

namespace gpuperf::gate {
namespace {

std::string code_words_dims(const std::array<int, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

std::string code_words_from_to(long long before, long long now) {
  return std::to_string(before) + " -> " + std::to_string(now);
}

std::string code_words_times(long long count) { return count == 1 ? "once" : std::to_string(count) + " times"; }

// "memset of 4194304 bytes": the operation as formats::describe words it.
std::string code_words_operation(const CodeDifference& d) {
  formats::CopyOrSet copy;
  copy.kind = d.copy_kind;
  copy.bytes = d.copy_bytes;
  return formats::describe(copy);
}

}  // namespace

std::string code_difference_words(const CodeDifference& d) {
  const std::string& k = d.kernel;
  switch (d.kind) {
    case CodeDifferenceKind::kKernelReplaced:
      return "kernel " + k + " replaced by " +
             (d.other_kernel == k ? "another " + k + " (mangled names differ)" : d.other_kernel);
    case CodeDifferenceKind::kKernelRemoved: return "kernel " + k + " removed";
    case CodeDifferenceKind::kKernelAdded: return "kernel " + k + " added";
    case CodeDifferenceKind::kCopyResized:
      return d.copy_kind + " of " + code_words_from_to(d.before, d.now) + " bytes";
    case CodeDifferenceKind::kCopyCount:
      return code_words_operation(d) + ": " + code_words_times(d.before) + " -> " + code_words_times(d.now);
    case CodeDifferenceKind::kCopyPlace:
      return code_words_operation(d) + ": after kernel launch " + code_words_from_to(d.before, d.now);
    case CodeDifferenceKind::kCopyRemoved: return code_words_operation(d) + " removed";
    case CodeDifferenceKind::kCopyAdded: return code_words_operation(d) + " added";
    case CodeDifferenceKind::kSassChanged: return k + ": SASS changed";
    case CodeDifferenceKind::kLibraryRemoved: return "library " + d.library + " " + d.before_version + " removed";
    case CodeDifferenceKind::kLibraryAdded: return "library " + d.library + " " + d.now_version + " added";
    case CodeDifferenceKind::kLibraryVersion: return d.library + " " + d.before_version + " -> " + d.now_version;
    case CodeDifferenceKind::kRegisters: return k + ": registers " + code_words_from_to(d.before, d.now);
    case CodeDifferenceKind::kLocalMemory: return k + ": local memory " + code_words_from_to(d.before, d.now) + " B/thread";
    case CodeDifferenceKind::kStaticSharedMemory:
      return k + ": static shared memory " + code_words_from_to(d.before, d.now) + " B";
    case CodeDifferenceKind::kGrid:
      return k + ": grid " + code_words_dims(d.before_dims) + " -> " + code_words_dims(d.now_dims) + " blocks";
    case CodeDifferenceKind::kBlock:
      return k + ": block " + code_words_dims(d.before_dims) + " -> " + code_words_dims(d.now_dims) + " threads";
    case CodeDifferenceKind::kDynamicSharedMemory:
      return k + ": dynamic shared memory " + code_words_from_to(d.before, d.now) + " B";
    case CodeDifferenceKind::kLaunches: return k + ": launches " + code_words_from_to(d.before, d.now);
    case CodeDifferenceKind::kSassUnknown: return "SASS of " + k + " unknown";
  }
  return "";
}

std::vector<std::string> code_change_words(const CodeChange& change) {
  std::vector<std::string> lines;
  for (const CodeDifference& d : change.differences) lines.push_back(code_difference_words(d));
  return lines;
}

std::vector<std::string> code_warning_words(const CodeChange& change) {
  std::vector<std::string> lines;
  for (const CodeDifference& d : change.differences) {
    if (d.warning) lines.push_back(code_difference_words(d));
  }
  return lines;
}

std::string code_unknown_words(const CodeChange& change) {
  std::string text;
  switch (change.baseline_missing) {
    case CodeSideMissing::kCaptured: break;
    case CodeSideMissing::kNotCaptured:
      text = "the baseline has no fingerprint";
      if (!change.baseline_capture_status.empty()) text += " (" + change.baseline_capture_status + ")";
      break;
    case CodeSideMissing::kNoneForBenchmark: text = "the baseline has no fingerprint (none recorded for it)"; break;
  }
  std::string why_not_now;
  switch (change.current_missing) {
    case CodeSideMissing::kCaptured: return text;
    case CodeSideMissing::kNotCaptured:
      why_not_now = change.current_capture_status.empty() ? "no reason given" : change.current_capture_status;
      break;
    case CodeSideMissing::kNoneForBenchmark: why_not_now = "none captured for it"; break;
  }
  return text + (text.empty() ? "" : "; ") + "not captured now (" + why_not_now + ")";
}

std::string platform_prevents_skipping_words(const std::vector<PlatformChange>& blocking) {
  if (blocking.empty()) return "";
  std::string why;
  for (const PlatformChange& change : blocking) {
    why += (why.empty() ? "" : ", ") +
           (change.kind == PlatformChange::Kind::kUnknown ? change.label + " unknown" : describe_change(change));
  }
  return "the platform is not the baseline's (" + why + ")";
}

}  // namespace gpuperf::gate
