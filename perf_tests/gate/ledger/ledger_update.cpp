#include "gate/ledger/ledger_update.h"

#include <nlohmann/json.hpp>

#include "formats/atomic_file.h"
#include "formats/escape.h"
#include "formats/json_input.h"
#include "formats/utc_time.h"

namespace gpuperf::gate {

LedgerCount count_in_same_code_ledger(const std::string& ledger_path, const std::string& report_json,
                                      const std::string& source) {
  const SameCodeVerdicts verdicts = same_code_verdicts(read_verdict_report(report_json, source));
  const std::string id = report_id(formats::parse_json_document(report_json, source));
  {
    formats::OutputFiles probe;  // checked before it is locked, read or written
    probe.add(ledger_path, "");
  }
  // Locked from its read to its write: two tests of one host count into one ledger.
  const formats::FileLocks lock({ledger_path});
  SameCodeLedger ledger;
  if (formats::input_file_exists(ledger_path)) {
    ledger = ledger_from_text(formats::read_text_file(ledger_path, "is it readable?"), ledger_path);
  }
  LedgerCount count;
  count.ledger_path = ledger_path;
  count.report = source;
  count.gpu_name = verdicts.gpu_name;
  count.mode = verdicts.mode;
  count.counted_before = counted_before(ledger, id);
  if (!count.counted_before) add_to_ledger(ledger, verdicts, formats::utc_now_iso8601(), id);
  const auto gpu = ledger.tallies.find(verdicts.gpu_slug);
  if (gpu != ledger.tallies.end() && gpu->second.count(verdicts.mode) != 0) count.tally = gpu->second.at(verdicts.mode);
  // Created if missing even when nothing was counted: a count of nothing, which the next report adds to.
  if (!count.counted_before) formats::write_file_atomically(ledger_path, ledger_to_text(ledger));
  return count;
}

std::string ledger_count_line(const LedgerCount& count) {
  if (count.tally) return ledger_line(*count.tally, count.mode);
  return "same code: nothing counted yet for " + formats::escape_console(count.gpu_name) + " (" + count.mode +
         "): " + count.report + " holds no timed verdict on unchanged code";
}

}  // namespace gpuperf::gate
