#pragma once
// GitHub annotations of a verdict report: one workflow command per benchmark the gate did not pass, which
// GitHub shows on the run's page and in the pull request, next to the failing job. SLOW, ERROR and
// MISSING are ::error::; NOT_JUDGED, AMBIGUOUS and PLATFORM (the baseline's own code beyond its tolerance:
// the machine, driver or harness moved) ::warning::, never ::error::; SAME, FAST, NEW and UNCHANGED none.
//
//   ::error title=SLOW fake/long/n%3A2::fake/long/n:2 on Fake GPU: SLOW, change +10%25 (tolerance 3%25) [fake.verdict.json]
//
// The report comes from a run of the branch's code, so nothing in it may end the line or start another
// command: the names are the reader's (judging/verdict_report.h refuses a report with a name outside the
// rule), the reason is escaped (formats/escape.h: escape_workflow_message, escape_workflow_property).

#include <optional>
#include <string>

#include "gate/judging/verdict_report.h"

namespace gpuperf::gate {

// The annotation lines of `report`, each ending in "\n", in the report's order; "" when every benchmark
// passed. `report_name` (the report's file name) closes each message in brackets.
std::string annotation_lines(const VerdictReport& report, const std::string& report_name);

// A change in percent as an annotation writes it: rounded to one decimal, no trailing ".0", a '+' where
// positive ("+10%", "-4.2%", "0%"), "n/a" where absent or not finite. `sign`: false for a tolerance ("3%").
std::string annotation_pct(std::optional<double> pct, bool sign);

}  // namespace gpuperf::gate
