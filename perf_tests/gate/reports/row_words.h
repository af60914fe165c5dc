#pragma once
// The words of a row's reason and notes (judging/row_reasons.h): what every report writes beside a
// verdict its numbers do not explain, and beside evidence that something limits or qualifies.

#include <string>

#include "gate/judging/row_reasons.h"
#include "gate/judging/tolerance.h"

namespace gpuperf::gate {

// "in the baseline, not in the results", "B: 27 of 30 samples throttled (...), 3 left (...)"; "" for none.
// `mode`: "compare" or "ab" (their unit mismatches are worded for their sides).
std::string reason_text(const RowReason& reason, const std::string& mode);

// The notes joined by "; " in their order: "against this GPU's own level in the baseline (+1.20% from the 3
// recording GPUs' centre); baseline from 3 processes (recommended 10): ..."; "" for none.
std::string notes_text(const RowNotes& notes);

// Where a row's tolerance came from: "default", "default, same GPU as the baseline", "family reduction",
// "machine spread 0.61% over 6 GPUs of 3 hosts", "resolution floor (2 cycles of 44)", "--tolerance-pct".
std::string tolerance_source_words(const ToleranceSource& source);

}  // namespace gpuperf::gate
