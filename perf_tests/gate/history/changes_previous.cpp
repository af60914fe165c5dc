#include "gate/history/changes_previous.h"

#include <sys/stat.h>

#include <algorithm>
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
      const nlohmann::json& changes = entry.array("change_points");
      for (std::size_t c = 0; c < changes.size(); ++c) {
        one.change_points.push_back(read_exported_change_point(entry.element("change_points", c, changes[c]), 0));
      }
      if (const std::optional<formats::ObjectReader> drift = entry.optional_object("drift")) one.drift = read_exported_drift(*drift);
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

std::vector<bool> new_change_points(const Series& series, const std::vector<ChangePoint>& change_points,
                                    const PreviousSeries* previous) {
  std::vector<bool> is_new(change_points.size(), true);
  if (previous == nullptr || previous->change_points.empty()) return is_new;
  // Where each commit of the previous ranges lies in the series: its first and last point.
  std::map<std::string, std::pair<std::size_t, std::size_t>> at;
  for (const ExportedChangePoint& old : previous->change_points) {
    at.emplace(old.good_commit, std::pair<std::size_t, std::size_t>{series.points.size(), 0});
    at.emplace(old.bad_commit, std::pair<std::size_t, std::size_t>{series.points.size(), 0});
  }
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    const auto found = at.find(series.points[i].commit);
    if (found == at.end()) continue;
    found->second.first = std::min(found->second.first, i);
    found->second.second = std::max(found->second.second, i);
  }
  const std::size_t absent = series.points.size();
  for (std::size_t c = 0; c < change_points.size(); ++c) {
    const ChangePoint& now = change_points[c];
    for (const ExportedChangePoint& old : previous->change_points) {
      if ((old.change_pct > 0.0) != (now.change_pct > 0.0)) continue;
      const auto good = at.at(old.good_commit);
      const auto bad = at.at(old.bad_commit);
      if (good.first == absent && bad.first == absent) continue;  // neither commit is in the series any more
      const std::size_t low = good.first != absent ? good.first : bad.first;
      const std::size_t high = bad.first != absent ? bad.second : good.second;
      if (low <= now.bad_index && now.good_index <= high) {
        is_new[c] = false;
        break;
      }
    }
  }
  return is_new;
}

bool new_drift(const ExportedDrift& drift, const PreviousSeries* previous) {
  if (!drift.beyond_tolerance) return false;
  return previous == nullptr || !previous->drift || !previous->drift->beyond_tolerance ||
         previous->drift->since != drift.since;
}

}  // namespace gpuperf::gate::history
