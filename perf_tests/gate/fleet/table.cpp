#include "gate/fleet/table.h"

#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "gate/inputs/results.h"

namespace gpuperf::gate {
namespace {

constexpr double kBytesPerGigabytePerMicrosecond = 1e3;  // GB/s = bytes / us / 1e3
constexpr double kFlopsPerTeraflopPerMicrosecond = 1e6;  // TFLOP/s = flops / us / 1e6
constexpr double kPercent = 100.0;

using Listed = std::map<std::string, const formats::ListedCase*>;

const formats::ListedCase* listed_case(const Listed& listed, const std::string& name) {
  if (name.empty()) return nullptr;
  const auto it = listed.find(name);
  return it == listed.end() ? nullptr : it->second;
}

const Measurement* measured(const GpuMeasurements& gpu, const std::string& name) {
  if (name.empty()) return nullptr;
  const auto it = gpu.benchmarks.find(name);
  return it == gpu.benchmarks.end() ? nullptr : &it->second;
}

// The benchmark's throughput on one GPU, in `kind`: its own bytes or flops where the input counted them,
// else the listing's. Empty for cycle counts and where the count is zero.
std::optional<double> throughput_on(const Measurement& m, const formats::ListedCase* listed, Throughput kind) {
  if (m.unit != formats::kUnitMicroseconds || !(m.time > 0.0)) return std::nullopt;
  const double bytes = m.bytes > 0.0 ? m.bytes : (listed != nullptr ? listed->bytes : 0.0);
  const double flops = m.flops > 0.0 ? m.flops : (listed != nullptr ? listed->flops : 0.0);
  if (kind == Throughput::kGbPerS && bytes > 0.0) return bytes / m.time / kBytesPerGigabytePerMicrosecond;
  if (kind == Throughput::kTflopPerS && flops > 0.0) return flops / m.time / kFlopsPerTeraflopPerMicrosecond;
  return std::nullopt;
}

FleetCell cell_on(const FleetRow& row, const GpuMeasurements& gpu, const Listed& listed) {
  FleetCell cell;
  const Measurement* m = measured(gpu, row.name);
  if (m == nullptr) return cell;
  const formats::ListedCase* self = listed_case(listed, row.name);
  cell.time = m->time;
  cell.unit = m->unit;
  cell.throughput = throughput_on(*m, self, row.throughput);
  const Measurement* yardstick = measured(gpu, row.compared_with);
  if (cell.throughput && yardstick != nullptr) {
    const std::optional<double> ceiling =
        throughput_on(*yardstick, listed_case(listed, row.compared_with), row.throughput);
    if (ceiling) cell.pct_of_ceiling = *cell.throughput / *ceiling * kPercent;
  }
  const Measurement* naive = measured(gpu, row.speedup_over);
  if (naive != nullptr && naive->unit == m->unit && m->time > 0.0) cell.speedup = naive->time / m->time;
  return cell;
}

void fill_cells(FleetRow& row, const std::vector<GpuMeasurements>& gpus, const Listed& listed) {
  for (const GpuMeasurements& gpu : gpus) row.cells.push_back(cell_on(row, gpu, listed));
  for (std::size_t i = 1; i < row.cells.size(); ++i) {
    const FleetCell& first = row.cells.front();
    const FleetCell& other = row.cells[i];
    const bool comparable = first.time && other.time && first.unit == other.unit && *other.time > 0.0;
    row.time_ratios.push_back(comparable ? std::optional<double>(*first.time / *other.time) : std::nullopt);
  }
}

bool measured_anywhere(const FleetRow& row) {
  for (const FleetCell& cell : row.cells) {
    if (cell.time) return true;
  }
  return false;
}

bool has_throughput(const FleetRow& row) {
  for (const FleetCell& cell : row.cells) {
    if (cell.throughput) return true;
  }
  return false;
}

// What one run of `name` counts, for choosing how to read its throughput: the first GPU's figure that is
// not zero, else the listing's. The inputs come first because some counts depend on the GPU (the wave
// sweep's grid follows the SM count), which a listing written without a GPU cannot know.
struct Counts {
  double bytes = 0.0;  // [bytes]
  double flops = 0.0;  // [floating-point operations]
};

Counts counts_of(const std::string& name, const formats::ListedCase* listed, const std::vector<GpuMeasurements>& gpus) {
  Counts counts;
  for (const GpuMeasurements& gpu : gpus) {
    if (const Measurement* m = measured(gpu, name)) {
      if (counts.bytes == 0.0) counts.bytes = m->bytes;
      if (counts.flops == 0.0) counts.flops = m->flops;
    }
  }
  if (listed != nullptr && counts.bytes == 0.0) counts.bytes = listed->bytes;
  if (listed != nullptr && counts.flops == 0.0) counts.flops = listed->flops;
  return counts;
}

// How `name` is read: in its yardstick's terms where both count them, else by its own intensity.
Throughput row_throughput(const std::string& unit, const std::string& name, const std::string& compared_with,
                          const Listed& listed, const std::vector<GpuMeasurements>& gpus) {
  const Counts own = counts_of(name, listed_case(listed, name), gpus);
  const formats::ListedCase* yardstick_case = listed_case(listed, compared_with);
  if (yardstick_case == nullptr) return throughput_of(unit, own.bytes, own.flops, nullptr);
  formats::ListedCase yardstick = *yardstick_case;
  const Counts theirs = counts_of(compared_with, yardstick_case, gpus);
  yardstick.bytes = theirs.bytes;
  yardstick.flops = theirs.flops;
  return throughput_of(unit, own.bytes, own.flops, &yardstick);
}

// "family/variant/shape..." split at its first two slashes; the shape keeps any further ones.
void split_name(FleetRow& row) {
  const std::size_t first = row.name.find('/');
  row.family = row.name.substr(0, first);
  if (first == std::string::npos) return;
  const std::size_t second = row.name.find('/', first + 1);
  row.variant = row.name.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  if (second != std::string::npos) row.shape = row.name.substr(second + 1);
}

void choose_chart(FleetFamily& family, const Listed& listed, const std::vector<GpuMeasurements>& gpus) {
  Counts largest;
  for (const FleetRow& row : family.rows) {
    if (row.throughput == Throughput::kNone || !has_throughput(row)) continue;
    const Counts c = counts_of(row.name, listed_case(listed, row.name), gpus);
    const bool larger = c.bytes > largest.bytes || (c.bytes == largest.bytes && c.flops > largest.flops);
    if (family.chart_shape.empty() || larger) {
      largest = c;
      family.chart_shape = row.shape;
      family.chart_throughput = row.throughput;
    }
  }
}

// The model in a GPU's name: its first word with a digit ("H100" in "H100 80GB HBM3", "T4" in "Tesla T4"),
// with the word before it when it is a bare number ("RTX 4090"); the whole name when no word has a digit.
std::string model_of(const std::string& name) {
  std::vector<std::string> words;
  std::istringstream in(name);
  for (std::string word; in >> word;) words.push_back(word);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.find_first_of("0123456789") == std::string::npos) continue;
    const bool bare_number = w.find_first_not_of("0123456789") == std::string::npos;
    return bare_number && i > 0 ? words[i - 1] + " " + w : w;
  }
  return name;
}

}  // namespace

const char* throughput_unit(Throughput throughput) {
  switch (throughput) {
    case Throughput::kGbPerS:
      return "GB/s";
    case Throughput::kTflopPerS:
      return "TFLOP/s";
    default:
      return "";
  }
}

Throughput throughput_of(const std::string& unit, double bytes, double flops, const formats::ListedCase* yardstick) {
  if (unit != formats::kUnitMicroseconds) return Throughput::kNone;
  if (yardstick != nullptr) {
    if (yardstick->flops > 0.0 && flops > 0.0) return Throughput::kTflopPerS;
    if (yardstick->bytes > 0.0 && bytes > 0.0) return Throughput::kGbPerS;
  }
  if (flops > 0.0 && (bytes <= 0.0 || flops / bytes >= kComputeBoundFlopsPerByte)) return Throughput::kTflopPerS;
  if (bytes > 0.0) return Throughput::kGbPerS;
  return Throughput::kNone;
}

std::vector<std::string> gpu_labels(const std::vector<GpuMeasurements>& gpus) {
  constexpr std::string_view kVendor = "NVIDIA ";
  std::vector<std::string> full;
  std::vector<std::string> model;
  for (const GpuMeasurements& gpu : gpus) {
    std::string name = gpu.name.empty() ? gpu.slug : gpu.name;
    if (name.size() > kVendor.size() && name.compare(0, kVendor.size(), kVendor) == 0) name.erase(0, kVendor.size());
    model.push_back(model_of(name));
    full.push_back(std::move(name));
  }
  const auto distinct = [](const std::vector<std::string>& labels) {
    return std::set<std::string>(labels.begin(), labels.end()).size() == labels.size();
  };
  if (distinct(model)) return model;
  if (distinct(full)) return full;
  std::vector<std::string> slugs;
  for (const GpuMeasurements& gpu : gpus) slugs.push_back(gpu.slug);
  return slugs;
}

FleetReport build_fleet_report(const formats::CaseListing& listing, const std::vector<GpuMeasurements>& gpus) {
  FleetReport report;
  const std::vector<std::string> labels = gpu_labels(gpus);
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    report.gpus.push_back(FleetGpu{gpus[g].name, gpus[g].slug, labels[g], gpus[g].source});
  }
  Listed listed;
  for (const formats::ListedCase& c : listing.cases) listed[c.name] = &c;

  std::map<std::string, std::size_t> family_index;
  for (const formats::ListedCase& c : listing.cases) {
    FleetRow row{c.name, c.family, c.variant, c.shape, c.unit, Throughput::kNone, c.compared_with, c.speedup_over,
                 {}, {}};
    row.throughput = row_throughput(c.unit, c.name, c.compared_with, listed, gpus);
    fill_cells(row, gpus, listed);
    if (!measured_anywhere(row)) {
      report.unmeasured_cases += c.perf ? 1 : 0;
      continue;
    }
    const auto [it, added] = family_index.emplace(c.family, report.families.size());
    if (added) report.families.push_back(FleetFamily{c.family, {}, "", Throughput::kNone});
    report.families[it->second].rows.push_back(std::move(row));
  }
  for (FleetFamily& family : report.families) choose_chart(family, listed, gpus);

  std::set<std::string> unlisted_names;
  for (const GpuMeasurements& gpu : gpus) {
    for (const auto& entry : gpu.benchmarks) {
      if (listed.count(entry.first) == 0) unlisted_names.insert(entry.first);
    }
  }
  for (const std::string& name : unlisted_names) {
    FleetRow row;
    row.name = name;
    split_name(row);
    for (const GpuMeasurements& gpu : gpus) {
      if (const Measurement* m = measured(gpu, name)) {
        row.unit = m->unit;
        break;
      }
    }
    row.throughput = row_throughput(row.unit, name, "", listed, gpus);
    fill_cells(row, gpus, listed);
    report.unlisted.push_back(std::move(row));
  }
  return report;
}

}  // namespace gpuperf::gate
