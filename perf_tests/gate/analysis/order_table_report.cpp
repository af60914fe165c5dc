#include "gate/analysis/order_table_report.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "formats/escape.h"

namespace gpuperf::gate::analysis {
namespace {

// With 2 decimals; a value that rounds to zero is written +0.00%, never -0.00%.
std::string percent(double value, bool sign) {
  if (std::fabs(value) < 0.005) value = 0.0;
  char text[64];
  std::snprintf(text, sizeof text, sign ? "%+.2f%%" : "%.2f%%", value);
  return text;
}

// The difference of `name` in `way`; empty when the way did not time it.
std::string difference_cell(const OrderWay& way, const std::string& name) {
  for (const OrderDifference& row : way.rows) {
    if (row.name == name) return percent(row.difference_pct, true);
  }
  return "";
}

}  // namespace

std::string order_table_markdown(const OrderTable& table) {
  std::ostringstream md;
  md << "Each way against the checked suite in registry order (" << table.checked.size()
     << " benchmarks; spread of the checked processes, max/min - 1: median "
     << percent(table.checked_spread_median_pct, false) << ", largest "
     << percent(table.checked_spread_largest_pct, false) << ").\n\n";
  md << "| way | benchmarks | median abs. difference | 90th percentile | largest |\n";
  md << "|---|---:|---:|---:|---|\n";
  for (const OrderWay& way : table.ways) {
    md << "| " << formats::escape_markdown_text(way.way) << " | " << way.rows.size() << " | "
       << percent(way.median_abs_pct, false) << " | " << percent(way.percentile_abs_pct, false) << " | "
       << percent(way.largest.difference_pct, true) << " " << formats::escape_markdown_text(way.largest.name)
       << " |\n";
  }
  std::set<std::string> moved;
  for (const OrderWay& way : table.ways) {
    for (const OrderDifference& row : way.rows) {
      if (std::fabs(row.difference_pct) > kOrderListedBeyondPct) moved.insert(row.name);
    }
  }
  md << "\n";
  if (moved.empty()) {
    md << "No benchmark is more than " << kOrderListedBeyondPct << "% away in any way.\n";
    return md.str();
  }
  md << "Benchmarks more than " << kOrderListedBeyondPct << "% away in some way:\n\n";
  md << "| benchmark | checked spread |";
  for (const OrderWay& way : table.ways) md << " " << formats::escape_markdown_text(way.way) << " |";
  md << "\n|---|---:|";
  for (std::size_t i = 0; i < table.ways.size(); ++i) md << "---:|";
  md << "\n";
  for (const std::string& name : moved) {
    md << "| " << formats::escape_markdown_text(name) << " | " << percent(table.checked.at(name).spread_pct, false)
       << " |";
    for (const OrderWay& way : table.ways) md << " " << difference_cell(way, name) << " |";
    md << "\n";
  }
  return md.str();
}

}  // namespace gpuperf::gate::analysis
