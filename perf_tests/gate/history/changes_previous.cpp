#include "gate/history/changes_previous.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "formats/atomic_file.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"

namespace gpuperf::gate::history {
namespace {

constexpr const char* kPreviousHint = "give the --json export of the previous perf_gate history-changes of this GPU";

// The export in `path`, parsed as it is read, without the points of its series: what is kept is a few
// hundred bytes a change point. InputError when it cannot be opened or is not JSON.
nlohmann::json parse_without_points(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw formats::InputError("cannot open '" + path + "': " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    throw formats::InputError("'" + path + "' is " + formats::describe_file_type(st.st_mode) +
                              ", expected a regular file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw formats::InputError("cannot open '" + path + "': " + std::strerror(errno));
  const nlohmann::json::parser_callback_t skip_points = [](int /*depth*/, nlohmann::json::parse_event_t event,
                                                           nlohmann::json& parsed) {
    return !(event == nlohmann::json::parse_event_t::key && parsed == "points");
  };
  try {
    return nlohmann::json::parse(in, skip_points);
  } catch (const nlohmann::json::exception& e) {
    throw formats::InputError(path + ": not valid JSON - " + kPreviousHint + " (parser: " + e.what() + ")");
  }
}

}  // namespace

PreviousChanges read_previous_changes(const std::string& path, const std::string& gpu_slug) {
  PreviousChanges previous;
  previous.source = path;
  try {
    const nlohmann::json json = parse_without_points(path);
    const formats::ObjectReader top(json, path, "", kPreviousHint);
    top.schema_version(kSeriesExportSchemaVersion);
    const std::string slug = top.non_empty_string("gpu_slug");
    if (slug != gpu_slug) top.fail("gpu_slug", "is " + slug + ", expected " + gpu_slug);
    const nlohmann::json& series = top.array("series");
    for (std::size_t s = 0; s < series.size(); ++s) {
      const formats::ObjectReader entry = top.element("series", s, series[s]);
      PreviousSeries one;
      if (const std::optional<formats::ObjectReader> reported = entry.optional_object("reported")) {
        one.reported = read_reported(*reported);
      } else {
        // An export from before "reported": what it found is what its report listed, at an unknown date.
        const nlohmann::json& changes = entry.array("change_points");
        for (std::size_t c = 0; c < changes.size(); ++c) {
          const ExportedChangePoint change = read_exported_change_point(entry.element("change_points", c, changes[c]), 0);
          one.reported.change_points.push_back({change.good_commit, change.bad_commit, change.change_pct, "", 0});
        }
        if (const std::optional<formats::ObjectReader> drift = entry.optional_object("drift")) {
          const ExportedDrift old = read_exported_drift(*drift);
          if (old.beyond_tolerance) one.reported.drift = ReportedDrift{old.since, old.change_pct, "", 0};
        }
      }
      previous.series[{entry.non_empty_string("benchmark"), entry.non_empty_string("unit")}] = std::move(one);
    }
    previous.state = PreviousChanges::State::kRead;
  } catch (const formats::InputError& e) {
    previous.state = PreviousChanges::State::kUnreadable;
    previous.why_unreadable = e.what();
    previous.series.clear();
  }
  return previous;
}

CarriedChangePoints carry_change_points(const Series& series, const std::vector<ChangePoint>& change_points,
                                        const PreviousSeries* previous, const std::string& now) {
  CarriedChangePoints carried;
  carried.is_new.assign(change_points.size(), true);
  const auto found_now = [&](const ChangePoint& change, const std::string& first_reported) {
    return ReportedChangePoint{series.points[change.good_index].commit, series.points[change.bad_index].commit,
                               change.change_pct, first_reported.empty() ? now : first_reported, 0};
  };
  if (previous == nullptr || previous->reported.change_points.empty()) {
    for (const ChangePoint& change : change_points) carried.reported.push_back(found_now(change, ""));
    return carried;
  }
  const std::vector<ReportedChangePoint>& old_points = previous->reported.change_points;
  // Where each commit of the reported ranges lies in the series: its first and last point.
  const std::size_t absent = series.points.size();
  std::map<std::string, std::pair<std::size_t, std::size_t>> at;
  for (const ReportedChangePoint& old : old_points) {
    at.emplace(old.good_commit, std::pair<std::size_t, std::size_t>{absent, 0});
    at.emplace(old.bad_commit, std::pair<std::size_t, std::size_t>{absent, 0});
  }
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    const auto found = at.find(series.points[i].commit);
    if (found == at.end()) continue;
    found->second.first = std::min(found->second.first, i);
    found->second.second = std::max(found->second.second, i);
  }
  std::vector<bool> old_found(old_points.size(), false);
  for (std::size_t c = 0; c < change_points.size(); ++c) {
    const ChangePoint& now_found = change_points[c];
    std::string first_reported;
    for (std::size_t o = 0; o < old_points.size(); ++o) {
      const ReportedChangePoint& old = old_points[o];
      if ((old.change_pct > 0.0) != (now_found.change_pct > 0.0)) continue;
      const auto good = at.at(old.good_commit);
      const auto bad = at.at(old.bad_commit);
      if (good.first == absent && bad.first == absent) continue;  // neither commit is in the series any more
      const std::size_t low = good.first != absent ? good.first : bad.first;
      const std::size_t high = bad.first != absent ? bad.second : good.second;
      if (low <= now_found.bad_index + kSameChangeSlack && now_found.good_index <= high + kSameChangeSlack) {
        carried.is_new[c] = false;
        old_found[o] = true;
        // The earliest of the reported ones it is (two reported may have merged into one).
        if (first_reported.empty() || (!old.first_reported.empty() && old.first_reported < first_reported)) {
          first_reported = old.first_reported;
        }
      }
    }
    carried.reported.push_back(found_now(now_found, first_reported));
  }
  for (std::size_t o = 0; o < old_points.size(); ++o) {
    if (old_found[o]) continue;
    ReportedChangePoint kept = old_points[o];
    if (at.at(kept.good_commit).first == absent && at.at(kept.bad_commit).first == absent) continue;
    if (++kept.unseen >= kForgetChangePointAfter) continue;
    carried.reported.push_back(std::move(kept));
  }
  return carried;
}

CarriedDrift carry_drift(const std::optional<ExportedDrift>& drift, const PreviousSeries* previous, const std::string& now) {
  CarriedDrift carried;
  const std::optional<ReportedDrift> known =
      previous != nullptr && previous->reported.drift && (!drift || previous->reported.drift->since == drift->since)
          ? previous->reported.drift
          : std::nullopt;  // a drift against another baseline is another drift
  const bool same_direction = drift && known && (drift->change_pct > 0.0) == (known->change_pct > 0.0);
  if (drift && drift->beyond_tolerance) {
    carried.is_new = !same_direction;
    carried.reported = ReportedDrift{drift->since, drift->change_pct, same_direction ? known->first_reported : now, 0};
    if (carried.reported->first_reported.empty()) carried.reported->first_reported = now;
    return carried;
  }
  if (!known) return carried;
  if (same_direction && std::fabs(drift->change_pct) >= kDriftHysteresis * drift->tolerance_pct) {
    carried.reported = ReportedDrift{drift->since, drift->change_pct, known->first_reported, 0};  // near the tolerance
    return carried;
  }
  // Clearly back inside, the other way, or not judged now: forgotten after kForgetDriftAfter analyses so.
  if (known->inside + 1 < kForgetDriftAfter) {
    carried.reported = *known;
    ++carried.reported->inside;
  }
  return carried;
}

}  // namespace gpuperf::gate::history
