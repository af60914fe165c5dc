#include "gate/history/series_json.h"

#include "gate/inputs/runner_history.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::history {
namespace {

using ordered = nlohmann::ordered_json;

constexpr const char* kHint = "write it with perf_gate history-export";

// A point is written by hand, on one line: the points are nearly all of an export (1.08 million at 108
// benchmarks x 10,000 runs), and building a JSON value per point, dumping it at 2-space indent and
// re-indenting that was most of history-changes' CPU and half of the export's size
// (tests/history/test_change_points_scale.cpp). The text is the same JSON as nlohmann would write.
void append_json_string(std::string& out, const std::string& text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
  if (plain) {
    out += '"';
    out += text;
    out += '"';
  } else {
    out += ordered(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
}

// The shortest text that reads back as `value` (as nlohmann writes a double; finite: check_finite).
void append_json_number(std::string& out, double value) {
  char text[32];
  const std::to_chars_result written = std::to_chars(text, text + sizeof text, value);
  out.append(text, written.ptr);
}

void append_point_json(std::string& out, const SeriesPoint& point, PointFields fields) {
  if (fields == PointFields::kAll) {
    out += "{\"run_key\": ";
    append_json_string(out, point.run_key);
    out += ", \"commit\": ";
  } else {
    out += "{\"commit\": ";
  }
  append_json_string(out, point.commit);
  out += ", \"date\": ";
  append_json_string(out, point.date);
  if (fields == PointFields::kAll) {
    out += ", \"gpu_uuid\": ";
    append_json_string(out, point.gpu_uuid);
  }
  out += ", \"process_medians\": [";
  for (std::size_t m = 0; m < point.process_medians.size(); ++m) {
    if (m > 0) out += ", ";
    append_json_number(out, point.process_medians[m]);
  }
  out += "], \"value\": ";
  append_json_number(out, point.value);
  out += ", \"verdict\": ";
  append_json_string(out, point.verdict);
  out += ", \"code_hash\": ";
  append_json_string(out, point.code_hash);
  out += ", \"baseline_recorded\": ";
  append_json_string(out, point.baseline_recorded);
  out += '}';
}

ordered change_point_json(const ExportedChangePoint& change) {
  return ordered{{"index", change.index},           {"good_commit", change.good_commit},
                 {"bad_commit", change.bad_commit}, {"before", change.before},
                 {"after", change.after},           {"change_pct", change.change_pct},
                 {"p_value", change.p_value}};
}

ordered drift_json(const std::optional<ExportedDrift>& drift) {
  if (!drift) return nullptr;
  return ordered{{"since", drift->since},
                 {"baseline_value", drift->baseline_value},
                 {"latest_value", drift->latest_value},
                 {"change_pct", drift->change_pct},
                 {"tolerance_pct", drift->tolerance_pct},
                 {"beyond_tolerance", drift->beyond_tolerance},
                 {"good_commit", drift->good_commit},
                 {"bad_commit", drift->bad_commit},
                 {"runner", drift->runner.empty() ? ordered(nullptr)
                                                  : ordered{{"gpu_uuid", drift->runner},
                                                            {"offset_pct", drift->runner_offset_pct},
                                                            {"runs", drift->runner_runs}}}};
}

ordered reported_json(const Reported& reported) {
  ordered changes = ordered::array();
  for (const ReportedChangePoint& change : reported.change_points) {
    changes.push_back(ordered{{"good_commit", change.good_commit},
                              {"bad_commit", change.bad_commit},
                              {"change_pct", change.change_pct},
                              {"first_reported", change.first_reported},
                              {"unseen", change.unseen}});
  }
  ordered drift = nullptr;
  if (reported.drift) {
    drift = ordered{{"since", reported.drift->since},
                    {"change_pct", reported.drift->change_pct},
                    {"first_reported", reported.drift->first_reported},
                    {"inside", reported.drift->inside}};
  }
  return ordered{{"change_points", std::move(changes)}, {"drift", std::move(drift)}};
}

// JSON has no infinity or NaN (nlohmann writes them as null, which every reader of the export then
// refuses, the dashboard for every GPU): a number that is not finite stops the export, saying where.
void check_finite(const std::string& gpu_slug, const ExportedSeries& entry) {
    const auto check = [&](const std::string& field, double value) {
      if (std::isfinite(value)) return;
      throw formats::InputError("the export of " + gpu_slug + ": series " + entry.series.benchmark + ": " +
                                field + " is " + std::to_string(value) +
                                ", not a finite number: nothing was written - a stored median out of the range of a "
                                "time makes one; remove its run (perf_gate history-remove)");
    };
    for (std::size_t p = 0; p < entry.series.points.size(); ++p) {
      const SeriesPoint& point = entry.series.points[p];
      const std::string where = "points[" + std::to_string(p) + "] (run " + point.run_key + ").";
      check(where + "value", point.value);
      for (const double median : point.process_medians) check(where + "process_medians", median);
    }
    for (std::size_t c = 0; c < entry.change_points.size(); ++c) {
      const ExportedChangePoint& change = entry.change_points[c];
      const std::string where = "change_points[" + std::to_string(c) + "].";
      check(where + "before", change.before);
      check(where + "after", change.after);
      check(where + "change_pct", change.change_pct);
      check(where + "p_value", change.p_value);
    }
    if (entry.drift) {
      check("drift.baseline_value", entry.drift->baseline_value);
      check("drift.latest_value", entry.drift->latest_value);
      check("drift.change_pct", entry.drift->change_pct);
      check("drift.tolerance_pct", entry.drift->tolerance_pct);
      check("drift.runner.offset_pct", entry.drift->runner_offset_pct);
    }
    if (entry.reported) {
      for (std::size_t c = 0; c < entry.reported->change_points.size(); ++c) {
        check("reported.change_points[" + std::to_string(c) + "].change_pct", entry.reported->change_points[c].change_pct);
      }
      if (entry.reported->drift) check("reported.drift.change_pct", entry.reported->drift->change_pct);
    }
}

// `value` as the document's dump (2-space indent) writes it `indent` spaces deep: its lines after the
// first indented by that much (a dumped string holds no raw newline: JSON escapes it).
std::string dumped(const ordered& value, std::size_t indent) {
  const std::string text = value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    out += c;
    if (c == '\n') out.append(indent, ' ');
  }
  return out;
}

void check_name(const formats::ObjectReader& object, const char* key, formats::NameKind kind, const std::string& name) {
  const std::string error = formats::name_error(kind, name);
  if (!error.empty()) object.fail(key, error);
}

SeriesPoint read_point(const formats::ObjectReader& object) {
  SeriesPoint point;
  if (object.find("run_key") != nullptr) point.run_key = object.non_empty_string("run_key");
  point.commit = object.string("commit");
  point.date = object.string("date");
  if (object.find("gpu_uuid") != nullptr) point.gpu_uuid = object.string("gpu_uuid");
  point.process_medians = object.positive_numbers("process_medians");
  if (point.process_medians.empty()) object.fail("process_medians", "is empty, expected one median per process");
  point.value = object.positive("value");
  const double expected = median(point.process_medians);
  if (std::abs(point.value - expected) > 1e-9 * expected) {
    object.fail("value", "is " + std::to_string(point.value) + ", expected the median of process_medians (" +
                             std::to_string(expected) + ")");
  }
  point.verdict = object.string("verdict");
  point.code_hash = object.string("code_hash");
  point.baseline_recorded = object.string("baseline_recorded");
  return point;
}

}  // namespace

ExportedChangePoint read_exported_change_point(const formats::ObjectReader& object, std::size_t points) {
  ExportedChangePoint change;
  const long long last = points == 0 ? std::numeric_limits<long long>::max() : static_cast<long long>(points) - 1;
  change.index = static_cast<std::size_t>(object.integer("index", 1, last));
  change.good_commit = object.string("good_commit");
  change.bad_commit = object.string("bad_commit");
  change.before = object.positive("before");
  change.after = object.positive("after");
  change.change_pct = object.number("change_pct");
  change.p_value = object.number("p_value");
  return change;
}

ExportedDrift read_exported_drift(const formats::ObjectReader& object) {
  ExportedDrift drift;
  drift.since = object.string("since");
  drift.baseline_value = object.positive("baseline_value");
  drift.latest_value = object.positive("latest_value");
  drift.change_pct = object.number("change_pct");
  drift.tolerance_pct = object.number("tolerance_pct");
  const nlohmann::json& beyond = object.require("beyond_tolerance");
  if (!beyond.is_boolean()) object.fail("beyond_tolerance", "is " + formats::describe_json_type(beyond) + ", expected true or false");
  drift.beyond_tolerance = beyond.get<bool>();
  drift.good_commit = object.string("good_commit");
  drift.bad_commit = object.string("bad_commit");
  if (const std::optional<formats::ObjectReader> runner = object.optional_object("runner")) {
    drift.runner = runner->non_empty_string("gpu_uuid");
    if (const std::string error = why_not_gpu_uuid(drift.runner); !error.empty()) runner->fail("gpu_uuid", error);
    drift.runner_offset_pct = runner->number("offset_pct");
    drift.runner_runs = static_cast<int>(runner->integer("runs", 1, 1000000));
  }
  return drift;
}

Reported read_reported(const formats::ObjectReader& object) {
  Reported reported;
  const nlohmann::json& changes = object.array("change_points");
  for (std::size_t c = 0; c < changes.size(); ++c) {
    const formats::ObjectReader change = object.element("change_points", c, changes[c]);
    ReportedChangePoint one;
    one.good_commit = change.string("good_commit");
    one.bad_commit = change.string("bad_commit");
    one.change_pct = change.number("change_pct");
    one.first_reported = change.string("first_reported");
    one.unseen = static_cast<int>(change.integer("unseen", 0, 1000000));
    reported.change_points.push_back(std::move(one));
  }
  if (const std::optional<formats::ObjectReader> drift = object.optional_object("drift")) {
    ReportedDrift one;
    one.since = drift->string("since");
    one.change_pct = drift->number("change_pct");
    one.first_reported = drift->string("first_reported");
    one.inside = static_cast<int>(drift->integer("inside", 0, 1000000));
    reported.drift = std::move(one);
  }
  return reported;
}

SeriesExport export_of(const std::string& gpu_slug, const std::vector<Series>& series) {
  SeriesExport document;
  document.gpu_slug = gpu_slug;
  document.ledger = nullptr;
  for (const Series& one : series) document.series.push_back(ExportedSeries{one, {}, std::nullopt, std::nullopt});
  return document;
}

std::string series_json(const SeriesExport& document) {
  std::ostringstream text;
  SeriesJsonWriter writer(text, document.gpu_slug, PointFields::kAll);
  for (const ExportedSeries& entry : document.series) writer.add(entry);
  writer.finish(document.ledger);
  return text.str();
}

SeriesJsonWriter::SeriesJsonWriter(std::ostream& out, const std::string& gpu_slug, PointFields fields)
    : out_(out), gpu_slug_(gpu_slug), fields_(fields) {
  out_ << "{\n  \"schema_version\": " << kSeriesExportSchemaVersion << ",\n  \"tool\": \"perf_gate\",\n  \"gpu_slug\": "
       << dumped(ordered(gpu_slug), 2) << ",\n  \"series\": [";
}

void SeriesJsonWriter::add(const ExportedSeries& entry) {
  check_finite(gpu_slug_, entry);
  ordered changes = ordered::array();
  for (const ExportedChangePoint& change : entry.change_points) changes.push_back(change_point_json(change));
  std::string text;
  text.reserve(256 + 256 * entry.series.points.size());
  text += first_ ? "\n    {\n      \"benchmark\": " : ",\n    {\n      \"benchmark\": ";
  text += dumped(ordered(entry.series.benchmark), 6);
  text += ",\n      \"unit\": ";
  text += dumped(ordered(entry.series.unit), 6);
  text += ",\n      \"points\": [";
  for (std::size_t p = 0; p < entry.series.points.size(); ++p) {
    text += p == 0 ? "\n        " : ",\n        ";
    append_point_json(text, entry.series.points[p], fields_);
  }
  text += entry.series.points.empty() ? "]" : "\n      ]";
  text += ",\n      \"change_points\": ";
  text += dumped(changes, 6);
  text += ",\n      \"drift\": ";
  text += dumped(drift_json(entry.drift), 6);
  if (entry.reported) {
    text += ",\n      \"reported\": ";
    text += dumped(reported_json(*entry.reported), 6);
  }
  text += "\n    }";
  out_ << text;
  first_ = false;
}

void SeriesJsonWriter::finish(const nlohmann::json& ledger) {
  out_ << (first_ ? "]" : "\n  ]") << ",\n  \"ledger\": " << dumped(ordered::parse(ledger.dump()), 2) << "\n}\n";
}

SeriesExport read_series_json(const std::string& text, const std::string& source) {
  const nlohmann::json json = formats::parse_json_document(text, source);
  const formats::ObjectReader top(json, source, "", kHint);
  top.schema_version(kSeriesExportSchemaVersion);
  SeriesExport document;
  document.gpu_slug = top.non_empty_string("gpu_slug");
  check_name(top, "gpu_slug", formats::NameKind::kGpuSlug, document.gpu_slug);
  const nlohmann::json& series = top.array("series");
  for (std::size_t s = 0; s < series.size(); ++s) {
    const formats::ObjectReader entry = top.element("series", s, series[s]);
    ExportedSeries exported;
    exported.series.gpu_slug = document.gpu_slug;
    exported.series.benchmark = entry.non_empty_string("benchmark");
    check_name(entry, "benchmark", formats::NameKind::kBenchmark, exported.series.benchmark);
    exported.series.unit = entry.non_empty_string("unit");
    const nlohmann::json& points = entry.array("points");
    for (std::size_t p = 0; p < points.size(); ++p) {
      exported.series.points.push_back(read_point(entry.element("points", p, points[p])));
    }
    const nlohmann::json& changes = entry.array("change_points");
    for (std::size_t c = 0; c < changes.size(); ++c) {
      exported.change_points.push_back(read_exported_change_point(entry.element("change_points", c, changes[c]), points.size()));
    }
    if (const std::optional<formats::ObjectReader> drift = entry.optional_object("drift")) {
      exported.drift = read_exported_drift(*drift);
    }
    if (const std::optional<formats::ObjectReader> reported = entry.optional_object("reported")) {
      exported.reported = read_reported(*reported);
    }
    document.series.push_back(std::move(exported));
  }
  const nlohmann::json* ledger = top.find("ledger");
  document.ledger = ledger != nullptr ? *ledger : nlohmann::json(nullptr);
  return document;
}

}  // namespace gpuperf::gate::history
