#include "gate/reports/report.h"

#include <sstream>

#include "gate/reports/reports.h"

namespace gpuperf::gate {

void write_console_report(const Report& report, std::ostream& out) {
  write_console_report(report.comparison, out);
  if (report.same_code) out << ledger_count_line(*report.same_code) << "\n";
}

std::string markdown_report(const Report& report) {
  std::ostringstream markdown;
  write_markdown_report(report.comparison, markdown);
  if (report.same_code && report.same_code->tally) markdown << "\n" << ledger_count_line(*report.same_code) << "\n";
  return markdown.str();
}

}  // namespace gpuperf::gate
