#include <set>
#include <vector>

#include "formats/escape.h"
#include "formats/number_text.h"
#include "formats/version.h"
#include "gate/fleet/render.h"

namespace gpuperf::gate {
namespace {

using formats::format_number;
using formats::format_value;

// Names and GPU labels come from results, baselines and the case listing: written as code spans or
// escaped Markdown text (formats/escape.h), never raw.
using formats::escape_markdown_text;
using formats::markdown_code_span;

// GB/s to the GB/s (tens to thousands), TFLOP/s to a tenth (units to hundreds); two decimals below that,
// so that a small figure (a latency-bound kernel) does not print as 0.
std::string throughput_text(double value, Throughput kind) {
  const double whole_from = kind == Throughput::kTflopPerS ? 1.0 : 10.0;
  if (value < whole_from) return format_number("%.2f", value);
  return format_number(kind == Throughput::kTflopPerS ? "%.1f" : "%.0f", value);
}

// Two digits at least: "83%", "9.5%".
std::string pct_text(double pct) { return format_number(pct >= 10.0 ? "%.0f%%" : "%.1f%%", pct); }

std::string optional_text(const std::optional<double>& value, const char* format) {
  return value ? format_number(format, *value) : "";
}

// Another benchmark's name as seen from `row`: without the family or shape they share.
// ("ceiling/read_only_stream/n:268435456" from a reduction row stays whole; "matmul/cublas_sgemm_tf32/
// m:4096,n:4096,k:4096" from matmul at that shape is "cublas_sgemm_tf32".)
std::string relative_name(const std::string& name, const FleetRow& row) {
  const std::string family_prefix = row.family + "/";
  if (name.compare(0, family_prefix.size(), family_prefix) != 0) return name;
  std::string rest = name.substr(family_prefix.size());
  const std::string shape_suffix = "/" + row.shape;
  if (!row.shape.empty() && rest.size() > shape_suffix.size() &&
      rest.compare(rest.size() - shape_suffix.size(), shape_suffix.size(), shape_suffix) == 0) {
    rest.resize(rest.size() - shape_suffix.size());
  }
  return rest;
}

// Which optional columns a table shows: those some row fills.
struct TableColumns {
  bool yardstick = false;
  bool throughput = false;
  bool pct = false;
  bool speedup = false;
  Throughput kind = Throughput::kNone;  // the one kind of every row's throughput; kNone when they mix
};

TableColumns columns_of(const std::vector<FleetRow>& rows) {
  TableColumns columns;
  std::set<Throughput> kinds;
  for (const FleetRow& row : rows) {
    columns.yardstick = columns.yardstick || !row.compared_with.empty();
    if (row.throughput != Throughput::kNone) kinds.insert(row.throughput);
    for (const FleetCell& c : row.cells) {
      columns.throughput = columns.throughput || c.throughput.has_value();
      columns.pct = columns.pct || c.pct_of_ceiling.has_value();
      columns.speedup = columns.speedup || c.speedup.has_value();
    }
  }
  if (kinds.size() == 1) columns.kind = *kinds.begin();
  return columns;
}

// `leading`: the names of the columns before the GPUs' ("variant", "shape").
void write_header(const FleetReport& report, const TableColumns& columns, const std::vector<std::string>& leading,
                  std::ostream& out) {
  std::string header = "|";
  std::string rule = "|";
  const auto add = [&header, &rule](const std::string& name, const char* alignment) {
    header += " " + escape_markdown_text(name) + " |";
    rule += alignment;
  };
  for (const std::string& name : leading) add(name, "---|");
  if (columns.yardstick) add("yardstick", "---|");
  const std::string throughput = columns.kind == Throughput::kNone ? "throughput" : throughput_unit(columns.kind);
  for (const FleetGpu& gpu : report.gpus) {
    add(gpu.label + " time", "---:|");
    if (columns.throughput) add(gpu.label + " " + throughput, "---:|");
    if (columns.pct) add(gpu.label + " % of ceiling", "---:|");
    if (columns.speedup) add(gpu.label + " speedup", "---:|");
  }
  for (std::size_t i = 1; i < report.gpus.size(); ++i) {
    add(report.gpus.front().label + " / " + report.gpus[i].label + " time", "---:|");
  }
  out << header << "\n" << rule << "\n";
}

void write_row(const FleetRow& row, const std::vector<std::string>& leading, const TableColumns& columns,
               std::ostream& out) {
  out << "|";
  for (const std::string& text : leading) out << " " << escape_markdown_text(text) << " |";
  if (columns.yardstick) {
    out << " " << escape_markdown_text(row.compared_with.empty() ? "" : relative_name(row.compared_with, row))
        << " |";
  }
  for (const FleetCell& c : row.cells) {
    out << " " << (c.time ? format_value(*c.time, c.unit) : "") << " |";
    if (columns.throughput) {
      std::string text;
      if (c.throughput) {
        text = throughput_text(*c.throughput, row.throughput);
        if (columns.kind == Throughput::kNone) text += std::string(" ") + throughput_unit(row.throughput);
      }
      out << " " << text << " |";
    }
    if (columns.pct) out << " " << (c.pct_of_ceiling ? pct_text(*c.pct_of_ceiling) : "") << " |";
    if (columns.speedup) out << " " << optional_text(c.speedup, "%.2fx") << " |";
  }
  for (const std::optional<double>& ratio : row.time_ratios) out << " " << optional_text(ratio, "%.2f") << " |";
  out << "\n";
}

// The naive variants a family's speedups are over, as its rows name them.
std::string naive_variants(const FleetFamily& family) {
  std::vector<std::string> names;
  for (const FleetRow& row : family.rows) {
    if (row.speedup_over.empty()) continue;
    const std::string name = markdown_code_span(relative_name(row.speedup_over, row));
    bool seen = false;
    for (const std::string& n : names) seen = seen || n == name;
    if (!seen) names.push_back(name);
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : ", ") + names[i];
  return text;
}

void write_intro(const FleetReport& report, std::ostream& out) {
  out << "### Fleet report:";
  for (std::size_t i = 0; i < report.gpus.size(); ++i) {
    out << (i == 0 ? " " : ", ") << escape_markdown_text(report.gpus[i].label);
  }
  out << "\n\n| GPU | numbers |\n|---|---|\n";
  for (const FleetGpu& gpu : report.gpus) {
    out << "| " << escape_markdown_text(gpu.name.empty() ? gpu.slug : gpu.name) << " (" << markdown_code_span(gpu.slug)
        << ") | " << escape_markdown_text(gpu.source) << " |\n";
  }
  out << "\nPer GPU: the time of a typical process (the median of the processes' medians; a baseline's recorded "
         "value); throughput in GB/s (bytes moved / time) or TFLOP/s (flops / time); % of ceiling = this "
         "throughput / the yardstick's, the GPU's own ceiling for the case (a memory stream, cuBLAS), measured "
         "on the same GPU; speedup = the time of the seed's naive variant at the same shape / this time.";
  if (report.gpus.size() > 1) {
    out << " " << escape_markdown_text(report.gpus.front().label) << " / " << escape_markdown_text(report.gpus[1].label)
        << " time: above 1, faster on the " << escape_markdown_text(report.gpus[1].label) << ".";
  }
  out << "\n\n";
}

}  // namespace

void write_fleet_markdown(const FleetReport& report, FleetChart chart, std::ostream& out) {
  write_intro(report, out);
  for (const FleetFamily& family : report.families) {
    out << "#### " << escape_markdown_text(family.name) << "\n\n";
    const TableColumns columns = columns_of(family.rows);
    write_header(report, columns, {"variant", "shape"}, out);
    for (const FleetRow& row : family.rows) write_row(row, {row.variant, row.shape}, columns, out);
    const std::string naive = naive_variants(family);
    if (columns.speedup && !naive.empty()) out << "\nSpeedup over " << naive << " at the same shape.\n";
    if (chart == FleetChart::kMermaid) {
      const std::string block = fleet_mermaid_chart(report, family);
      if (!block.empty()) out << "\n" << block;
    }
    out << "\n";
  }
  if (!report.unlisted.empty()) {
    out << "#### Not in the registry listing\n\nMeasured, but absent from the cases listing (a stale listing, a "
           "renamed or removed case): no yardstick or naive variant is known for them.\n\n";
    const TableColumns columns = columns_of(report.unlisted);
    write_header(report, columns, {"benchmark"}, out);
    for (const FleetRow& row : report.unlisted) write_row(row, {row.name}, columns, out);
    out << "\n";
  }
  if (report.unmeasured_cases > 0) {
    out << report.unmeasured_cases << (report.unmeasured_cases == 1 ? " perf case" : " perf cases")
        << " of the listing measured on none of these GPUs: not shown.\n\n";
  }
  // Which release tabulated: a table pasted elsewhere can be traced to its gate.
  out << formats::kHarnessVersionLine << "\n";
}

}  // namespace gpuperf::gate
