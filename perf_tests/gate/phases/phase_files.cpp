#include "gate/phases/phase_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "formats/escape.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"

namespace gpuperf::gate::phases {
namespace {

constexpr const char* kHint =
    "phase files are written by scripts/ci/build.sh, scripts/ci/with_ctest_gpu.sh, perf_gate run and "
    "scripts/record_ncu.sh; "
    "delete this one or run its step again";

constexpr PhaseFileKind kKinds[] = {PhaseFileKind::kBuild, PhaseFileKind::kCorrectnessTest, PhaseFileKind::kPerfTest,
                                    PhaseFileKind::kPerfPhases, PhaseFileKind::kProfiles};

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

PhaseFileKind parse_kind(const formats::ObjectReader& doc) {
  const std::string what = doc.string("what");
  for (const PhaseFileKind kind : kKinds) {
    if (what == kind_name(kind)) return kind;
  }
  std::vector<std::string> known;
  for (const PhaseFileKind kind : kKinds) known.emplace_back(kind_name(kind));
  doc.fail("what", "is '" + formats::escape_console(what) + "', expected one of " + joined(known));
}

// The span of an object with start_epoch_s and end_epoch_s: both positive, the end not before the start.
TimeSpan parse_span(const formats::ObjectReader& object) {
  TimeSpan span{object.positive("start_epoch_s"), object.positive("end_epoch_s")};
  if (span.end_epoch_s < span.start_epoch_s) {
    object.fail("end_epoch_s", "is before start_epoch_s, expected an end at or after the start");
  }
  return span;
}

}  // namespace

const char* kind_name(PhaseFileKind kind) {
  switch (kind) {
    case PhaseFileKind::kBuild:
      return "build";
    case PhaseFileKind::kCorrectnessTest:
      return "correctness_test";
    case PhaseFileKind::kPerfTest:
      return "perf_test";
    case PhaseFileKind::kPerfPhases:
      return "perf_phases";
    case PhaseFileKind::kProfiles:
      return "profiles";
  }
  return "";
}

const std::vector<std::string>& phase_names(PhaseFileKind kind) {
  static const std::vector<std::string> build = {"configure", "build"};
  static const std::vector<std::string> perf = {"lock_wait", "checking", "first_look", "remeasure", "diagnosis"};
  static const std::vector<std::string> profiles = {"checking", "ncu"};
  static const std::vector<std::string> none;
  if (kind == PhaseFileKind::kBuild) return build;
  if (kind == PhaseFileKind::kPerfPhases) return perf;
  if (kind == PhaseFileKind::kProfiles) return profiles;
  return none;
}

PhaseFile parse_phase_file(const std::string& text, const std::string& source) {
  const nlohmann::json json = formats::parse_json_document(text, source);
  const formats::ObjectReader doc(json, source, "", kHint);
  doc.schema_version(kPhaseFileSchemaVersion);
  PhaseFile file;
  file.source = source;
  file.kind = parse_kind(doc);
  if (file.kind == PhaseFileKind::kBuild || file.kind == PhaseFileKind::kProfiles) {
    if (doc.find("family") != nullptr) {
      doc.fail("family", std::string("is given, expected none in a ") + kind_name(file.kind) + " file");
    }
  } else {
    file.family = doc.non_empty_string("family");
    if (const std::string error = formats::name_error(formats::NameKind::kFamily, file.family); !error.empty()) {
      doc.fail_at("family:", error);
    }
  }
  file.span = parse_span(doc);
  if (const nlohmann::json* phases = doc.optional_array("phases")) {
    const std::vector<std::string>& allowed = phase_names(file.kind);
    for (std::size_t i = 0; i < phases->size(); ++i) {
      const formats::ObjectReader entry = doc.element("phases", i, (*phases)[i]);
      Phase phase{entry.non_empty_string("phase"), parse_span(entry)};
      if (std::find(allowed.begin(), allowed.end(), phase.name) == allowed.end()) {
        entry.fail("phase", "is '" + formats::escape_console(phase.name) + "', expected " +
                                (allowed.empty() ? std::string("no phase in a ") + kind_name(file.kind) + " file"
                                                 : "one of " + joined(allowed)));
      }
      file.phases.push_back(std::move(phase));
    }
  }
  return file;
}

namespace {

// A time as bash's $EPOCHREALTIME prints it: seconds, six decimals (the C locale's ".": perf_gate sets none).
std::string epoch_text(double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", seconds);
  return text;
}

std::string span_fields(const TimeSpan& span) {
  return "\"start_epoch_s\": " + epoch_text(span.start_epoch_s) + ", \"end_epoch_s\": " + epoch_text(span.end_epoch_s);
}

}  // namespace

std::string phase_file_text(const PhaseFile& file) {
  std::string text = "{\"schema_version\": " + std::to_string(kPhaseFileSchemaVersion) + ", \"what\": \"" +
                     kind_name(file.kind) + "\", ";
  if (!file.family.empty()) text += "\"family\": \"" + file.family + "\", ";
  text += span_fields(file.span) + ", \"phases\": [";
  for (std::size_t i = 0; i < file.phases.size(); ++i) {
    text += (i == 0 ? "" : ",") + std::string("{\"phase\": \"") + file.phases[i].name + "\", " +
            span_fields(file.phases[i].span) + "}";
  }
  return text + "]}\n";
}

std::string phase_file_name(PhaseFileKind kind, const std::string& family) {
  return std::string(kind_name(kind)) + (family.empty() ? "" : "." + family) + ".json";
}

std::vector<std::string> list_phase_files(const std::string& dir) {
  std::error_code error;
  std::filesystem::directory_iterator it(dir, error);
  if (error) {
    throw formats::InputError("cannot read the folder " + dir + ": " + error.message() +
                              " - give the phases folder the run wrote (<build>/perf-results/phases)");
  }
  std::vector<std::string> paths;
  for (const std::filesystem::directory_entry& entry : it) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace gpuperf::gate::phases
