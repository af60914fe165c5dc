#pragma once
// The series export (perf_gate history-export --json OUT, schema_version 1): one GPU model's history, each
// benchmark's points oldest first, with the change points and drift found in it. The dashboard draws it and
// other commands read it back with read_series_json; the writer and the reader are one pair, round-trip
// tested. Change it, bump kSeriesExportSchemaVersion.
//
//   {"schema_version": 1, "tool": "perf_gate", "gpu_slug": "nvidia-h100-80gb-hbm3",
//    "series": [{"benchmark": "...", "unit": "us",
//                "points": [{"run_key", "commit", "date", "gpu_uuid", "process_medians", "value", "verdict",
//                            "code_hash", "baseline_recorded"}, ...],  (history-changes: no run_key, gpu_uuid)
//                "change_points": [{"index", "good_commit", "bad_commit", "before", "after", "change_pct",
//                                   "p_value"}, ...],
//                "drift": null | {"since", "baseline_value", "latest_value", "change_pct", "tolerance_pct",
//                                 "beyond_tolerance", "good_commit", "bad_commit"},
//                "reported": {"change_points": [{"good_commit", "bad_commit", "change_pct", "first_reported",
//                                                "unseen"}, ...],
//                             "drift": null | {"since", "change_pct", "first_reported", "inside"}}}, ...],
//    "ledger": null | <the same-code ledger file's JSON (perf_gate ledger)>}
//
// "reported" (history-changes only; history-export writes none, and a reader takes its absence for
// "nothing carried") is what the reports have listed so far, carried from analysis to analysis through
// --previous (changes_previous.h): an optional key, so schema_version 1 readers that do not know it (the
// dashboard) read the export as before.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "formats/json_fields.h"
#include "gate/history/series.h"

namespace gpuperf::gate::history {

inline constexpr int kSeriesExportSchemaVersion = 1;

// A change of level found in a series: `index` is its first point after the change.
struct ExportedChangePoint {
  std::size_t index = 0;
  std::string good_commit;  // the last commit at the level before (a step: points[index - 1]'s; a ramp: earlier)
  std::string bad_commit;   // the first commit at the level after (a step: points[index]'s; a ramp: later)
  double before = 0.0;      // the level before [the series' unit]
  double after = 0.0;       // the level after [the series' unit]
  double change_pct = 0.0;  // (after / before - 1) [percent]
  double p_value = 1.0;
};

// How far the latest level has moved from the baseline's since it was recorded.
struct ExportedDrift {
  std::string since;            // the baseline's recorded date, ISO 8601 UTC
  double baseline_value = 0.0;  // [the series' unit]
  double latest_value = 0.0;    // [the series' unit]
  double change_pct = 0.0;      // [percent]
  double tolerance_pct = 0.0;   // [percent]
  bool beyond_tolerance = false;
  std::string good_commit;  // where it built up: from this commit (drift.h)
  std::string bad_commit;   // to this one
  // Against this runner's own level of the baseline's code (drift.h, RunnerReference): its GPU UUID, that
  // level's offset from the baseline [percent] and the runs it is from; "" / 0 against the baseline.
  std::string runner;
  double runner_offset_pct = 0.0;
  int runner_runs = 0;
};

// A change point the reports have listed, as it was found the last time it was found.
struct ReportedChangePoint {
  std::string good_commit;
  std::string bad_commit;
  double change_pct = 0.0;      // its sign is the change's direction [percent]
  std::string first_reported;   // the date of the latest run of the analysis that first listed it (ISO 8601 UTC)
  int unseen = 0;               // the analyses since it was last found (0: found by this one)
};

// A drift beyond its tolerance the reports have listed, and how long it has been back inside.
struct ReportedDrift {
  std::string since;            // the baseline it is against (its recorded date)
  double change_pct = 0.0;      // the last one judged; its sign is the drift's direction [percent]
  std::string first_reported;   // as ReportedChangePoint's
  int inside = 0;               // the analyses in a row that found it clearly back inside, or judged none
};

// What the reports have listed of a series so far (changes_previous.h says when an entry is forgotten).
struct Reported {
  std::vector<ReportedChangePoint> change_points;
  std::optional<ReportedDrift> drift;
};

struct ExportedSeries {
  Series series;
  std::vector<ExportedChangePoint> change_points;  // history-export alone: none
  std::optional<ExportedDrift> drift;              // history-export alone: null
  std::optional<Reported> reported;                // history-export alone: none (the key is not written)
};

struct SeriesExport {
  std::string gpu_slug;
  std::vector<ExportedSeries> series;
  nlohmann::json ledger;  // the same-code ledger's JSON, or null
};

// The export of `series` (every series of one GPU model), without change points or drift.
SeriesExport export_of(const std::string& gpu_slug, const std::vector<Series>& series);

// The JSON text (2-space indent, a point on one line, keys in the order above, a newline at the end), every
// field of every point (PointFields::kAll). InputError, naming the series and field, for a number that is
// not finite (JSON has none; it would be written as null).
std::string series_json(const SeriesExport& document);

// Which fields of a point are written: all (history-export: the store's runs, read back whole), or those
// the dashboard draws and bisecting reads (history-changes: a point without its "run_key" and "gpu_uuid",
// which stay in the store; the dashboard dropped them anyway). The points are most of an export, and with
// CI's run keys ("<owner>/<repo>/<run id>/<GPU UUID>") and GPU UUIDs those two are about 130 of a point's
// 330 bytes (an estimate from their lengths; the test's short ones made 16% of its export).
enum class PointFields { kAll, kDrawn };

// The same text written as it is produced, one series at a time, so that a history too large to hold in
// memory (108 benchmarks x 10,000 runs: about 275 MB of text) never is: the constructor writes the head,
// add() a series, finish() the ledger and the end. series_json is this writer over a whole document
// with PointFields::kAll; history-changes writes kDrawn.
class SeriesJsonWriter {
 public:
  SeriesJsonWriter(std::ostream& out, const std::string& gpu_slug, PointFields fields = PointFields::kDrawn);
  // InputError, writing nothing of it, for a series holding a number that is not finite (JSON has none).
  void add(const ExportedSeries& series);
  void finish(const nlohmann::json& ledger);

 private:
  std::ostream& out_;
  std::string gpu_slug_;  // for messages
  PointFields fields_;
  bool first_ = true;
};

// One change point and one drift of an export, as read_series_json reads them: the previous analysis
// (changes_previous.h) reads them too, without the points. `points` bounds the change point's index (0:
// not known).
ExportedChangePoint read_exported_change_point(const formats::ObjectReader& object, std::size_t points);
ExportedDrift read_exported_drift(const formats::ObjectReader& object);
// A series' "reported" object.
Reported read_reported(const formats::ObjectReader& object);

// Reads an export; `source` names it in messages. A point without "run_key" or "gpu_uuid" (PointFields::kDrawn)
// reads as "" there. InputError for anything malformed: another
// schema_version, a missing or mistyped field, a benchmark name or GPU slug that breaks formats/names.h, a
// point whose value is not the median of its process medians, a change point's index out of its series.
SeriesExport read_series_json(const std::string& text, const std::string& source);

}  // namespace gpuperf::gate::history
