#include "gate/judging/same_code_rule.h"

namespace gpuperf::gate {

SameCodeRuling rule_same_code(Verdict verdict, const std::optional<CodeChange>& code, bool method_changed) {
  if (verdict != Verdict::kSlow && verdict != Verdict::kFast) return SameCodeRuling::kKeep;
  if (!code || code->comparison != CodeComparison::kSame) return SameCodeRuling::kKeep;
  if (code->covers_all_gpu_work || method_changed) return SameCodeRuling::kPlatform;
  return SameCodeRuling::kKernelsOnly;
}

std::optional<MethodChange> method_change_of(const Baseline& baseline, const std::vector<ResultsFile>& results) {
  const int before = baseline.recorded.measuring_method;
  if (before == 0) return std::nullopt;
  for (const ResultsFile& file : results) {
    if (file.measuring_method != 0 && file.measuring_method != before) {
      return MethodChange{before, file.measuring_method};
    }
  }
  return std::nullopt;
}

void apply_same_code_rule(Comparison& comparison) {
  const bool method_changed = comparison.method_change.has_value();
  for (BenchmarkComparison& row : comparison.benchmarks) {
    switch (rule_same_code(row.verdict, row.code, method_changed)) {
      case SameCodeRuling::kPlatform:
        row.verdict = Verdict::kPlatform;
        break;
      case SameCodeRuling::kKernelsOnly:
        row.notes.push_back(note_of(NoteCode::kKernelsOnly));
        break;
      case SameCodeRuling::kKeep:
        break;
    }
  }
}

}  // namespace gpuperf::gate
