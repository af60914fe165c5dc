#include "gate/ncu/profile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "formats/escape.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/number_text.h"

#include "gate/inputs/results.h"

namespace gpuperf::gate {
namespace {

using formats::format_number;

using nlohmann::json;

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
constexpr double kNanosecondsPerMicrosecond = 1e3;

constexpr const char* kIdColumn = "ID";
constexpr const char* kKernelNameColumn = "Kernel Name";
constexpr const char* kBlockSizeColumn = "Block Size";
constexpr const char* kGridSizeColumn = "Grid Size";
constexpr const char* kNotAvailable = "n/a";

// The units a metric may come in, and the unit a profile keeps instead: ncu 2025.3.1 with --print-units base
// writes a duration in "ns" (seen on an H100); --print-units auto scales it to "usecond", "msecond" and
// instruction counts to "Kinst" and up.
struct UnitScale {
  const char* unit;
  double factor;  // value in `base` = value in `unit` x factor
  const char* base;
};
constexpr UnitScale kUnitScales[] = {
    {"ns", 1.0, "nsecond"},      {"us", 1e3, "nsecond"},      {"ms", 1e6, "nsecond"},      {"s", 1e9, "nsecond"},
    {"nsecond", 1.0, "nsecond"}, {"usecond", 1e3, "nsecond"}, {"msecond", 1e6, "nsecond"}, {"second", 1e9, "nsecond"},
    {"Kinst", 1e3, "inst"},      {"Minst", 1e6, "inst"},      {"Ginst", 1e9, "inst"}};

// What is wrong with the CSV, without the file's name: parse_ncu_csv adds it and throws InputError.
struct CsvError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& what) { throw CsvError(what); }

std::string line_text(std::size_t number) { return "line " + std::to_string(number); }

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// One CSV line into its fields: commas separate them, a field in double quotes may hold commas (a block
// size "(256, 1, 1)", a demangled kernel name), and "" inside quotes is a quote.
std::vector<std::string> split_csv_line(std::string_view line, std::size_t number) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      field += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.push_back(std::move(field));
      field.clear();
    } else {
      field += c;
    }
  }
  if (quoted) fail(line_text(number) + " has a quoted field that is not closed");
  fields.push_back(std::move(field));
  return fields;
}

// "38,912" is 38912, "1,215,000,000.00" 1.215e9, "4.0e-05" 4e-5. A thousands separator must stand between
// groups of three digits, so that a decimal comma ("65,77", ncu under a German locale) is no number.
std::optional<double> parse_number(std::string_view text) {
  std::string plain;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
    if (text[i] == '-') plain += '-';
    ++i;
  }
  std::size_t digits = 0;
  std::size_t group = 0;  // digits since the last separator
  bool grouped = false;
  for (; i < text.size() && (is_digit(text[i]) || text[i] == ','); ++i) {
    if (text[i] != ',') {
      plain += text[i];
      ++digits;
      ++group;
      continue;
    }
    if (group == 0 || group > 3 || (grouped && group != 3)) return std::nullopt;
    grouped = true;
    group = 0;
  }
  if (digits == 0 || (grouped && group != 3)) return std::nullopt;
  plain.append(text.substr(i));  // fraction and exponent, checked by from_chars
  double value = 0.0;
  const char* end = plain.data() + plain.size();
  const auto [stop, error] = std::from_chars(plain.data(), end, value);
  if (error != std::errc() || stop != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

const UnitScale* unit_scale(const std::string& unit) {
  for (const UnitScale& scale : kUnitScales) {
    if (unit == scale.unit) return &scale;
  }
  return nullptr;
}

bool is_time_unit(const std::string& unit) {
  const UnitScale* scale = unit_scale(unit);
  return scale != nullptr && std::string(scale->base) == "nsecond";
}

// Where a named column is; npos when the header has none.
std::size_t column_of(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? std::string::npos : static_cast<std::size_t>(it - header.begin());
}

// The first line of the table: "ID" first (quoted or not). Checked before splitting, so that whatever the
// profiled program printed before the table is never parsed.
bool starts_like_header(std::string_view line) { return line.rfind("\"ID\",", 0) == 0 || line.rfind("ID,", 0) == 0; }

// The columns of one raw-page table.
struct Columns {
  std::size_t count = 0;
  std::size_t header_line = 0;
  std::size_t id = std::string::npos;
  std::size_t kernel_name = std::string::npos;
  std::size_t block_size = std::string::npos;
  std::size_t grid_size = std::string::npos;
  std::vector<std::pair<std::size_t, std::string>> metrics;  // column, metric: only ncu_metric_names()
};

Columns header_columns(const std::vector<std::string>& header, std::size_t line) {
  Columns columns;
  columns.count = header.size();
  columns.header_line = line;
  columns.id = column_of(header, kIdColumn);
  columns.kernel_name = column_of(header, kKernelNameColumn);
  columns.block_size = column_of(header, kBlockSizeColumn);
  columns.grid_size = column_of(header, kGridSizeColumn);
  if (column_of(header, "Metric Name") != std::string::npos && column_of(header, "Metric Value") != std::string::npos) {
    fail(line_text(line) +
         " is the header of ncu's details page (a \"Metric Name\" and a \"Metric Value\" "
         "column): profile with --page raw");
  }
  if (columns.kernel_name == std::string::npos) fail(line_text(line) + ": the header has no \"Kernel Name\" column");
  for (const std::string& metric : ncu_metric_names()) {
    const std::size_t column = column_of(header, metric);
    if (column != std::string::npos) columns.metrics.emplace_back(column, metric);
  }
  return columns;
}

// The units row: ncu scales a time to whatever unit reads best, and the diff needs one it can convert.
void check_units(const Columns& columns, const std::vector<std::string>& units, std::size_t line) {
  if (!units[columns.id].empty()) {
    fail(line_text(line) + " is a kernel row, not the units row that ncu's raw page prints under the header (line " +
         std::to_string(columns.header_line) + ")");
  }
  for (const auto& [column, metric] : columns.metrics) {
    if (metric == kNcuDuration && !is_time_unit(units[column])) {
      fail(line_text(line) + ", " + metric + ": unit \"" + units[column] +
           "\" is not a time (ns, us, ms, s, nsecond, usecond, msecond, second)");
    }
  }
}

KernelProfile kernel_row(const Columns& columns, const std::vector<std::string>& units,
                         const std::vector<std::string>& fields, std::size_t line) {
  KernelProfile kernel;
  kernel.kernel_name = fields[columns.kernel_name];
  if (columns.block_size != std::string::npos) kernel.block_size = fields[columns.block_size];
  if (columns.grid_size != std::string::npos) kernel.grid_size = fields[columns.grid_size];
  for (const auto& [column, metric] : columns.metrics) {
    const std::string_view text = trimmed(fields[column]);
    if (text.empty() || text == kNotAvailable) continue;
    const std::optional<double> value = parse_number(text);
    if (!value) fail(line_text(line) + ", " + metric + ": \"" + std::string(text) + "\" is not a number");
    const UnitScale* scale = unit_scale(units[column]);
    kernel.metrics[metric] = scale != nullptr ? *value * scale->factor : *value;
    kernel.units[metric] = scale != nullptr ? scale->base : units[column];
  }
  return kernel;
}

// --- diff ---

bool missing(double value) { return std::isnan(value); }

// Over the launches that have `metric`; kMissing when none has.
double sum_of(const NcuProfile& profile, const std::string& metric) {
  double sum = kMissing;
  for (const KernelProfile& kernel : profile.kernels) {
    const auto it = kernel.metrics.find(metric);
    if (it != kernel.metrics.end()) sum = (missing(sum) ? 0.0 : sum) + it->second;
  }
  return sum;
}

double max_of(const NcuProfile& profile, const std::string& metric) {
  double max = kMissing;
  for (const KernelProfile& kernel : profile.kernels) {
    const auto it = kernel.metrics.find(metric);
    if (it != kernel.metrics.end() && (missing(max) || it->second > max)) max = it->second;
  }
  return max;
}

// Weighted by each launch's duration: a long launch's occupancy is most of the benchmark's.
double duration_weighted_mean_of(const NcuProfile& profile, const std::string& metric) {
  double weighted = 0.0;
  double weights = 0.0;
  for (const KernelProfile& kernel : profile.kernels) {
    const auto value = kernel.metrics.find(metric);
    const auto duration = kernel.metrics.find(kNcuDuration);
    if (value == kernel.metrics.end() || duration == kernel.metrics.end() || !(duration->second > 0.0)) continue;
    weighted += value->second * duration->second;
    weights += duration->second;
  }
  return weights > 0.0 ? weighted / weights : kMissing;
}

double plus(double a, double b) {
  if (missing(a)) return b;
  if (missing(b)) return a;
  return a + b;
}

void add_row(std::vector<MetricDiff>& rows, const std::string& label, const std::string& unit, double before,
             double after) {
  if (missing(before) && missing(after)) return;
  rows.push_back(MetricDiff{label, unit, before, after});
}

// --- Markdown ---

// "6423712" as "6,423,712".
std::string with_thousands_separators(const std::string& digits) {
  const std::size_t sign = (!digits.empty() && digits[0] == '-') ? 1 : 0;
  std::string out = digits.substr(0, sign);
  for (std::size_t i = sign; i < digits.size(); ++i) {
    if (i > sign && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_metric(double value, const std::string& unit) {
  if (missing(value)) return "n/a";
  if (unit == formats::kUnitMicroseconds) return format_number("%.2f", value) + " us";
  if (unit == "%") return format_number("%.1f", value) + "%";
  if (unit == "cycles/issue") return format_number("%.2f", value);
  return with_thousands_separators(format_number("%.0f", value));  // counts: registers, conflicts, inst
}

std::string format_change(double before, double after) {
  if (missing(before) || missing(after) || before == 0.0) return "n/a";
  return format_number("%+.1f", (after / before - 1.0) * 100.0) + "%";
}

// --- JSON ---

}  // namespace

std::string ncu_stall_metric(const std::string& reason) {
  return "smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio";
}

std::vector<std::string> ncu_metric_names() {
  std::vector<std::string> names = {kNcuDuration,
                                    kNcuDramThroughput,
                                    kNcuL2Throughput,
                                    kNcuAchievedOccupancy,
                                    kNcuRegistersPerThread,
                                    kNcuSharedBankConflictsLoad,
                                    kNcuSharedBankConflictsStore,
                                    kNcuInstructionsExecuted};
  for (const std::string& reason : ncu_stall_reasons()) names.push_back(ncu_stall_metric(reason));
  return names;
}

std::string ncu_metrics_argument() {
  std::string argument;
  for (const std::string& name : ncu_metric_names()) argument += (argument.empty() ? "" : ",") + name;
  return argument;
}

namespace {

NcuProfile parse_csv(std::string_view text) {
  std::optional<Columns> columns;
  std::vector<std::string> units;
  NcuProfile profile;
  std::size_t number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trimmed(text.substr(start, end - start));
    start = end + 1;
    ++number;
    if (line.empty() || line.rfind("==", 0) == 0) continue;  // ncu's own ==PROF==, ==WARNING== lines
    if (!columns) {
      if (starts_like_header(line)) columns = header_columns(split_csv_line(line, number), number);
      continue;  // before the table: the profiled program's output
    }
    const std::vector<std::string> fields = split_csv_line(line, number);
    if (fields.size() != columns->count) {
      fail(line_text(number) + " has " + std::to_string(fields.size()) + " fields, the header (line " +
           std::to_string(columns->header_line) + ") has " + std::to_string(columns->count));
    }
    if (units.empty()) {
      check_units(*columns, fields, number);
      units = fields;
      continue;
    }
    profile.kernels.push_back(kernel_row(*columns, units, fields, number));
  }
  if (!columns) {
    fail(
        "no header row (\"ID\",...,\"Kernel Name\",...): is this the output of ncu --csv --page raw? (ncu prints "
        "none when no kernel was profiled)");
  }
  if (units.empty()) fail("no units row under the header (line " + std::to_string(columns->header_line) + ")");
  if (profile.kernels.empty()) {
    fail("no kernel row under the header (line " + std::to_string(columns->header_line) + ")");
  }
  return profile;
}

}  // namespace

NcuProfile parse_ncu_csv(std::string_view text, const std::string& source) {
  try {
    return parse_csv(text);
  } catch (const CsvError& e) {
    throw formats::InputError(source + ": ncu csv: " + e.what());
  }
}
void to_json(json& j, const NcuProfile& profile) {
  json kernels = json::array();
  for (const KernelProfile& kernel : profile.kernels) {
    json metrics = json::object();
    for (const auto& [name, value] : kernel.metrics) {
      const auto unit = kernel.units.find(name);
      metrics[name] = {{"value", value}, {"unit", unit == kernel.units.end() ? "" : unit->second}};
    }
    kernels.push_back({{"kernel_name", kernel.kernel_name},
                       {"block_size", kernel.block_size},
                       {"grid_size", kernel.grid_size},
                       {"metrics", metrics}});
  }
  j = {{"kernels", kernels}};
}

NcuProfile read_ncu_profile(const formats::ObjectReader& profile) {
  NcuProfile read;
  const json& kernels = profile.array("kernels");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const formats::ObjectReader entry = profile.element("kernels", i, kernels[i]);
    KernelProfile kernel;
    kernel.kernel_name = entry.string("kernel_name");
    kernel.block_size = entry.string("block_size");
    kernel.grid_size = entry.string("grid_size");
    const formats::ObjectReader metrics = entry.object("metrics");
    for (const auto& [name, value] : metrics.raw().items()) {
      const formats::ObjectReader metric = metrics.member(name, value);
      const double number = metric.number("value");
      if (!std::isfinite(number)) metric.fail("value", "is " + formats::why_not_positive_finite(number) + ", expected a finite number");
      kernel.metrics[name] = number;
      kernel.units[name] = metric.string("unit");
    }
    read.kernels.push_back(std::move(kernel));
  }
  return read;
}

void from_json(const json& j, NcuProfile& profile) {
  profile = read_ncu_profile(formats::ObjectReader(j, "ncu profile json", "", kRecordAgainHint));
}

std::vector<MetricDiff> diff_profiles(const NcuProfile& before, const NcuProfile& after) {
  std::vector<MetricDiff> rows;
  add_row(rows, "duration", formats::kUnitMicroseconds, sum_of(before, kNcuDuration) / kNanosecondsPerMicrosecond,
          sum_of(after, kNcuDuration) / kNanosecondsPerMicrosecond);
  const std::pair<const char*, const char*> weighted[] = {{"DRAM throughput", kNcuDramThroughput},
                                                          {"L2 throughput", kNcuL2Throughput},
                                                          {"achieved occupancy", kNcuAchievedOccupancy}};
  for (const auto& [label, metric] : weighted) {
    add_row(rows, label, "%", duration_weighted_mean_of(before, metric), duration_weighted_mean_of(after, metric));
  }
  add_row(rows, "registers/thread", "registers", max_of(before, kNcuRegistersPerThread),
          max_of(after, kNcuRegistersPerThread));
  add_row(rows, "shared bank conflicts", "conflicts",
          plus(sum_of(before, kNcuSharedBankConflictsLoad), sum_of(before, kNcuSharedBankConflictsStore)),
          plus(sum_of(after, kNcuSharedBankConflictsLoad), sum_of(after, kNcuSharedBankConflictsStore)));
  add_row(rows, "instructions executed", "inst", sum_of(before, kNcuInstructionsExecuted),
          sum_of(after, kNcuInstructionsExecuted));

  struct Stall {
    MetricDiff row;
    double size;  // the larger side: what ranks it
  };
  std::vector<Stall> stalls;
  for (const std::string& reason : ncu_stall_reasons()) {
    if (reason == "selected") continue;  // issuing, not stalled
    const std::string metric = ncu_stall_metric(reason);
    const double b = duration_weighted_mean_of(before, metric);
    const double a = duration_weighted_mean_of(after, metric);
    if (missing(b) && missing(a)) continue;
    stalls.push_back(Stall{MetricDiff{"stall: " + reason, "cycles/issue", b, a},
                           std::max(missing(b) ? 0.0 : b, missing(a) ? 0.0 : a)});
  }
  // Largest first; a tie keeps ncu_stall_reasons()' (alphabetical) order.
  std::stable_sort(stalls.begin(), stalls.end(), [](const Stall& x, const Stall& y) { return x.size > y.size; });
  if (stalls.size() > kNcuTopStalls) stalls.resize(kNcuTopStalls);
  for (const Stall& stall : stalls) rows.push_back(stall.row);
  return rows;
}

std::string markdown_diff_table(const std::vector<MetricDiff>& rows, std::string_view before_label,
                                std::string_view after_label) {
  std::string table = "| Metric | " + formats::escape_markdown_text(std::string(before_label)) + " | " +
                      formats::escape_markdown_text(std::string(after_label)) + " | Change |\n|---|---:|---:|---:|\n";
  for (const MetricDiff& row : rows) {
    table += "| " + formats::escape_markdown_text(row.label) + " | " + format_metric(row.before, row.unit) + " | " +
             format_metric(row.after, row.unit) + " | " + format_change(row.before, row.after) + " |\n";
  }
  return table;
}

}  // namespace gpuperf::gate
