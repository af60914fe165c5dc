#include "gate/ledger/ledger_update.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/json_input.h"
#include "formats/utc_time.h"
#include "gate/ledger/same_code_ledger.h"

namespace gpuperf::gate {

int update_same_code_ledger(const std::string& ledger_path, const std::string& report_path,
                            const std::string& markdown_path, std::ostream& out, std::ostream& err) {
  const std::string hint = "give the --json report of perf_gate compare or ab";
  std::vector<std::string> outputs = {ledger_path, report_path};
  if (!markdown_path.empty()) outputs.push_back(markdown_path);
  {
    formats::OutputFiles probe;  // each checked before anything is read, each file once
    for (const std::string& path : outputs) probe.add(path, "");
  }
  // Every file this call reads and rewrites stays locked from its read to its write.
  const formats::FileLocks locks(outputs);
  // Rewritten below with its keys in their order.
  const std::string report_text = formats::read_text_file(report_path, hint);
  const SameCodeVerdicts verdicts = same_code_verdicts(read_verdict_report(report_text, report_path));
  nlohmann::ordered_json report = formats::parse_ordered_json_document(report_text, report_path);
  const nlohmann::json sorted_report = nlohmann::json::parse(report.dump());
  const std::string id = report_id(sorted_report);
  SameCodeLedger ledger;
  if (formats::input_file_exists(ledger_path))
    ledger = ledger_from_text(formats::read_text_file(ledger_path, "is it readable?"), ledger_path);
  const bool repeated = counted_before(ledger, id);
  if (!repeated) add_to_ledger(ledger, verdicts, formats::utc_now_iso8601(), id);
  const auto gpu = ledger.tallies.find(verdicts.gpu_slug);
  if (gpu == ledger.tallies.end() || gpu->second.count(verdicts.mode) == 0) {
    formats::write_file_atomically(ledger_path, ledger_to_text(ledger));  // created if missing, as a count of nothing
    out << "same code: nothing counted yet for " << formats::escape_console(verdicts.gpu_name) << " (" << verdicts.mode
        << "): " << report_path << " holds no timed verdict on unchanged code\n";
    return formats::kExitPass;
  }
  const SameCodeTally& tally = gpu->second.at(verdicts.mode);
  const std::string line = ledger_line(tally, verdicts.mode);
  if (repeated) {
    // A retried CI step: counting it again would inflate the count; its report and Markdown have the line.
    err << "perf_gate: " << report_path << " was counted in " << ledger_path
        << " already (the same report); nothing changed\n";
    out << line << "\n";
    return formats::kExitPass;
  }
  report["same_code_ledger"] = tally_json(tally);
  formats::OutputFiles files;
  files.add(ledger_path, ledger_to_text(ledger));
  files.add(report_path, report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (!markdown_path.empty()) {
    files.add(markdown_path,
              formats::read_text_file(markdown_path, "write it with perf_gate --markdown first") + "\n" + line + "\n");
  }
  files.write();
  out << line << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate
