#include "gate/ledger/same_code_ledger.h"

#include <algorithm>
#include <utility>

#include "formats/escape.h"
#include "formats/fnv1a.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/number_text.h"

namespace gpuperf::gate {

namespace {

using formats::format_number;

// The benchmarks with false alarms the line names.
constexpr std::size_t kLedgerLineBenchmarks = 3;

// The largest count a file may hold: a hundred million verdicts is decades of CI, and four such counts
// still add up within an int.
constexpr long long kMaxCount = 100'000'000;

constexpr const char* kStartOver = "move the file away to start a new count";

using formats::ObjectReader;

// The ledger lives on the runner between jobs and its names reach every later report: they are held to
// the names' rule where they are read, as a results file's are (formats/names.h).
void require_name(formats::NameKind kind, const std::string& name, const ObjectReader& object, const std::string& where) {
  if (const std::string error = formats::name_error(kind, name); !error.empty()) object.fail_at(where + ":", error);
}

// The timed verdicts a tally counts, by the names the reports write.
constexpr const char* kSame = "SAME";
constexpr const char* kAmbiguous = "AMBIGUOUS";
constexpr const char* kSlow = "SLOW";
constexpr const char* kFast = "FAST";
constexpr const char* kPlatformVerdict = "PLATFORM";

int count_member(const ObjectReader& object, const char* key) { return static_cast<int>(object.integer(key, 0, kMaxCount)); }

nlohmann::ordered_json verdicts_json(const SameCodeTally& tally) {
  return nlohmann::ordered_json{
      {kSame, tally.same}, {kAmbiguous, tally.ambiguous}, {kSlow, tally.slow}, {kFast, tally.fast},
      {kPlatformVerdict, tally.platform}};
}

nlohmann::ordered_json tally_file_json(const SameCodeTally& tally) {
  nlohmann::ordered_json false_alarms = nlohmann::ordered_json::object();
  for (const auto& [name, count] : tally.false_alarms) false_alarms[name] = count;
  return nlohmann::ordered_json{{"gpu_name", tally.gpu_name},
                                {"since", tally.since},
                                {"last", tally.last},
                                {"reports", tally.reports},
                                {"reports_with_false_alarms", tally.reports_with_false_alarms},
                                {"verdicts", verdicts_json(tally)},
                                {"false_alarms", false_alarms}};
}

SameCodeTally tally_from_json(const ObjectReader& j) {
  SameCodeTally tally;
  tally.gpu_name = j.string("gpu_name");
  require_name(formats::NameKind::kGpu, tally.gpu_name, j, j.field("gpu_name"));
  tally.since = j.string("since");
  tally.last = j.string("last");
  tally.reports = count_member(j, "reports");
  tally.reports_with_false_alarms = count_member(j, "reports_with_false_alarms");
  const ObjectReader verdicts = j.object("verdicts");
  tally.same = count_member(verdicts, kSame);
  tally.ambiguous = count_member(verdicts, kAmbiguous);
  tally.slow = count_member(verdicts, kSlow);
  tally.fast = count_member(verdicts, kFast);
  tally.platform = static_cast<int>(verdicts.optional_integer(kPlatformVerdict, 0, kMaxCount).value_or(0));
  const ObjectReader false_alarms = j.object("false_alarms");
  long long listed = 0;
  for (const auto& [name, count] : false_alarms.raw().items()) {
    require_name(formats::NameKind::kBenchmark, name, j, false_alarms.path());
    const long long n = false_alarms.integer_at(count, false_alarms.path() + formats::quoted_key(name), 1,
                                                std::max(1, tally.slow + tally.fast));
    tally.false_alarms[name] = static_cast<int>(n);
    listed += n;
  }
  if (listed != tally.slow + tally.fast) {
    j.fail("false_alarms", "list " + std::to_string(listed) + " where SLOW + FAST is " + std::to_string(tally.slow + tally.fast));
  }
  const int alarms = tally.slow + tally.fast;
  if (tally.reports_with_false_alarms > std::min(tally.reports, alarms) ||
      (alarms > 0 && tally.reports_with_false_alarms == 0)) {
    j.fail("reports_with_false_alarms", "is " + std::to_string(tally.reports_with_false_alarms) + ", which does not fit " +
                                            std::to_string(tally.reports) + " reports with SLOW + FAST " +
                                            std::to_string(alarms));
  }
  if (tally.reports > tally.timed()) j.fail("reports", "is more than the verdicts (each report counted has at least one)");
  return tally;
}

bool is_report_id(const std::string& id) {
  return id.size() == 16 && std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::vector<std::string> counted_reports_from_json(const ObjectReader& doc) {
  const nlohmann::json* list = doc.optional_array("counted_reports");
  if (list == nullptr) return {};
  if (list->size() > kCountedReportsKept) {
    doc.fail("counted_reports", "holds " + std::to_string(list->size()) + " report ids, expected at most " +
                                    std::to_string(kCountedReportsKept));
  }
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string where = doc.field("counted_reports") + "[" + std::to_string(i) + "]";
    ids.push_back(doc.string_at((*list)[i], where));
    if (!is_report_id(ids.back())) doc.fail_at(where, "is " + (*list)[i].dump() + ", not a report id (16 hex digits)");
  }
  return ids;
}

std::string mode_words(const std::string& mode) { return mode == "ab" ? "A/B" : "against the baseline"; }

// "2026-11-23" of "2026-11-23T01:02:03Z".
std::string date_of(const std::string& time) { return time.substr(0, 10); }

}  // namespace

SameCodeVerdicts same_code_verdicts(const VerdictReport& report) {
  SameCodeVerdicts verdicts;
  verdicts.mode = report.mode;
  verdicts.gpu_slug = report.gpu_slug;
  verdicts.gpu_name = report.gpu_name;
  for (const VerdictRow& row : report.rows) {
    if (row.code_comparison != "same") continue;
    if (row.verdict == kSame) {
      ++verdicts.same;
    } else if (row.verdict == kAmbiguous) {
      ++verdicts.ambiguous;
    } else if (row.verdict == kSlow || row.verdict == kFast) {
      ++(row.verdict == kSlow ? verdicts.slow : verdicts.fast);
      verdicts.false_alarms.push_back(row.name);
    } else if (row.verdict == kPlatformVerdict) {
      ++verdicts.platform;
    }
  }
  return verdicts;
}

std::string report_id(const nlohmann::json& report) {
  nlohmann::json counted = report;
  if (counted.is_object()) counted.erase("same_code_ledger");
  return formats::hex16(
      formats::fnv1a64(counted.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
}

bool counted_before(const SameCodeLedger& ledger, const std::string& id) {
  return std::find(ledger.counted_reports.begin(), ledger.counted_reports.end(), id) != ledger.counted_reports.end();
}

void add_to_ledger(SameCodeLedger& ledger, const SameCodeVerdicts& verdicts, const std::string& now,
                   const std::string& id) {
  if (verdicts.timed() == 0) return;
  if (!id.empty()) {
    ledger.counted_reports.push_back(id);
    if (ledger.counted_reports.size() > kCountedReportsKept) {
      ledger.counted_reports.erase(ledger.counted_reports.begin(),
                                   ledger.counted_reports.end() - static_cast<std::ptrdiff_t>(kCountedReportsKept));
    }
  }
  SameCodeTally& tally = ledger.tallies[verdicts.gpu_slug][verdicts.mode];
  if (tally.reports == 0) tally.since = now;
  tally.gpu_name = verdicts.gpu_name;
  tally.last = now;
  ++tally.reports;
  if (!verdicts.false_alarms.empty()) ++tally.reports_with_false_alarms;
  tally.same += verdicts.same;
  tally.ambiguous += verdicts.ambiguous;
  tally.slow += verdicts.slow;
  tally.fast += verdicts.fast;
  tally.platform += verdicts.platform;
  for (const std::string& name : verdicts.false_alarms) ++tally.false_alarms[name];
}

std::string ledger_to_text(const SameCodeLedger& ledger) {
  nlohmann::ordered_json gpus = nlohmann::ordered_json::object();
  for (const auto& [slug, modes] : ledger.tallies) {
    for (const auto& [mode, tally] : modes) gpus[slug][mode] = tally_file_json(tally);
  }
  nlohmann::ordered_json doc{{"schema_version", kLedgerSchemaVersion}, {"gpus", gpus}};
  if (!ledger.counted_reports.empty()) doc["counted_reports"] = ledger.counted_reports;
  return doc.dump(2) + "\n";
}

SameCodeLedger ledger_from_text(const std::string& text, const std::string& source) {
  nlohmann::json doc;
  try {
    doc = formats::parse_json_document(text, source);
  } catch (const formats::InputError& e) {
    throw formats::InputError(std::string(e.what()) + "; " + kStartOver);
  }
  const ObjectReader top(doc, source + " (the same-code ledger)", "", kStartOver);
  top.schema_version(kLedgerSchemaVersion);
  SameCodeLedger ledger;
  const ObjectReader gpus = top.object("gpus");
  for (const auto& [slug, value] : gpus.raw().items()) {
    require_name(formats::NameKind::kGpuSlug, slug, gpus, gpus.path());
    const ObjectReader modes = gpus.member(slug, value);
    for (const auto& [mode, tally] : modes.raw().items()) {
      if (mode != "compare" && mode != "ab") {
        modes.fail_here("has an unknown mode '" + formats::escape_console(mode) + "', expected compare or ab");
      }
      ledger.tallies[slug][mode] = tally_from_json(modes.member(mode, tally));
    }
  }
  ledger.counted_reports = counted_reports_from_json(top);
  return ledger;
}

nlohmann::ordered_json tally_json(const SameCodeTally& tally) {
  nlohmann::ordered_json j = tally_file_json(tally);
  const int timed = tally.timed();
  j["timed_verdicts"] = timed;
  j["false_alarm_rate"] =
      timed > 0 ? nlohmann::ordered_json(static_cast<double>(tally.slow + tally.fast) / timed) : nlohmann::ordered_json();
  return j;
}

// The line goes to the console and is appended to the Markdown report. The ledger lives on the runner, so
// a name written into it once would reach every later report there: what it read (the GPU's name, the
// date, the benchmarks') is escaped as Markdown text, which is safe on a console too (formats/escape.h).
std::string ledger_line(const SameCodeTally& tally, const std::string& mode) {
  using formats::escape_markdown_text;
  const int timed = tally.timed();
  const int alarms = tally.slow + tally.fast;
  std::string line = "same code on this GPU (" + escape_markdown_text(tally.gpu_name) + ", " + mode_words(mode) +
                     "), " + std::to_string(tally.reports) + (tally.reports == 1 ? " report" : " reports") +
                     " since " + escape_markdown_text(date_of(tally.since)) + ": " + std::to_string(timed) +
                     " timed verdicts, " + std::to_string(tally.slow) + " SLOW, " + std::to_string(tally.fast) +
                     " FAST (false alarms in " + format_number("%.2g", timed > 0 ? 100.0 * alarms / timed : 0.0) +
                     "% of verdicts, " + std::to_string(tally.reports_with_false_alarms) + " of " +
                     std::to_string(tally.reports) + " reports)";
  // The benchmarks with the most false alarms first: where a team looks for a noisy benchmark.
  std::vector<std::pair<std::string, int>> by_count(tally.false_alarms.begin(), tally.false_alarms.end());
  std::stable_sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (std::size_t i = 0; i < by_count.size(); ++i) {
    if (i == kLedgerLineBenchmarks) {
      line += ", " + std::to_string(by_count.size() - i) + " more";
      break;
    }
    line += (i == 0 ? "; false alarms in: " : ", ") + escape_markdown_text(by_count[i].first) + " (" +
            std::to_string(by_count[i].second) + ")";
  }
  if (tally.platform > 0) {
    line += "; " + std::to_string(tally.platform) + " PLATFORM (the machine, driver or harness moved, not the code: no "
            "false alarms)";
  }
  return line;
}

}  // namespace gpuperf::gate
