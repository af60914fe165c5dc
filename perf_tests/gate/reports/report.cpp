#include "gate/reports/report.h"

#include <sstream>

#include "gate/reports/ncu_diagnosis_text.h"
#include "gate/reports/reports.h"

namespace gpuperf::gate {

void write_console_report(const Report& report, std::ostream& out) {
  write_console_report(report.comparison, out);
  if (report.same_code) out << ledger_count_line(*report.same_code) << "\n";
  write_ncu_diagnosis_console(report.diagnosis, out);
}

std::string markdown_report(const Report& report) {
  std::ostringstream markdown;
  write_markdown_report(report.comparison, markdown);
  if (report.same_code && report.same_code->tally) markdown << "\n" << ledger_count_line(*report.same_code) << "\n";
  markdown << ncu_diagnosis_markdown(report.diagnosis);
  return markdown.str();
}

}  // namespace gpuperf::gate
