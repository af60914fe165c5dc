// ncu-metrics, ncu-diff, ncu-store: Nsight Compute profiles side by side, and stored beside a baseline.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "gate/cli/commands.h"
#include "gate/inputs/results.h"
#include "gate/ncu/profile.h"
#include "gate/ncu/stored_profiles.h"
#include "gate/ncu/window_attribution.h"
#include "gate/reports/ncu_diagnosis_text.h"

namespace gpuperf::gate::cli {
namespace {

NcuProfile load_ncu_profile(const std::string& path) {
  return parse_ncu_csv(formats::read_text_file(path, "did ncu write its --csv output there?"), path);
}

// NAME's profile in a file of stored profiles (ncu-store's).
NcuProfile stored_profile(const std::string& path, const std::string& benchmark) {
  const NcuBaseline stored = load_ncu_baseline(path);
  const auto profile = stored.benchmarks.find(benchmark);
  if (profile == stored.benchmarks.end()) {
    throw formats::InputError(path + " holds no profile of " + benchmark +
                              " - record it with scripts/record_ncu.sh (it was added after the recording?)");
  }
  return profile->second;
}

NcuProfile before_profile(const Arguments& args) {
  if (args.has("--before") == args.has("--before-stored")) throw UsageError("give --before or --before-stored");
  if (args.has("--before")) return load_ncu_profile(args.value("--before"));
  return stored_profile(args.value("--before-stored"), args.required("--benchmark"));
}

NcuProfile after_profile(const Arguments& args) {
  if (args.has("--after") == args.has("--after-stored")) throw UsageError("give --after or --after-stored");
  if (args.has("--after")) return load_ncu_profile(args.value("--after"));
  return stored_profile(args.value("--after-stored"), args.required("--benchmark"));
}

// One pass of `ncu --profile-from-start off ... gpuperf_bench --profiler-window` split into each
// benchmark's verified profile (window_attribution.h); the left-out ones printed to `out`.
std::map<std::string, NcuProfile> windowed_profiles(const Arguments& args, std::ostream& out) {
  const std::string csv = args.required("--csv");
  const std::string order_path = args.required("--order");
  const ResultsFile fingerprinted = load_results(args.required("--fingerprints"));
  const std::vector<std::string> order = parse_window_order(
      formats::read_text_file(order_path, "gpuperf_bench --profiler-window-order=FILE writes it"), order_path);
  const WindowAttribution attribution =
      attribute_windows(load_ncu_profile(csv), windows_in_order(order, fingerprinted), csv);
  for (const LeftOut& left : attribution.left_out) out << "left out: " << left.benchmark << ": " << left.reason << "\n";
  if (attribution.profiles.empty()) {
    throw formats::InputError(csv + ": no benchmark's rows could be attributed" +
                              (attribution.left_out.empty() ? std::string(" (the order file names none)")
                                                            : " (first: " + attribution.left_out.front().benchmark +
                                                                  ": " + attribution.left_out.front().reason + ")"));
  }
  return attribution.profiles;
}

}  // namespace

int run_ncu_metrics(const Arguments& /*args*/, std::ostream& out, std::ostream& /*err*/) {
  out << ncu_metrics_argument() << "\n";
  return formats::kExitPass;
}

int run_ncu_store(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string path = args.required("--profiles");
  const std::string slug = args.required("--gpu");
  // Both reach the file and every report that reads it: held to the names' rule (formats/names.h).
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, slug); !error.empty()) {
    throw UsageError("--gpu: " + error);
  }
  const bool one = args.has("--benchmark");
  if (one == (args.has("--order") || args.has("--fingerprints"))) {
    throw UsageError("give --benchmark NAME (one profile) or --fingerprints and --order (a windowed pass)");
  }
  std::map<std::string, NcuProfile> profiles;
  if (one) {
    const std::string benchmark = args.value("--benchmark");
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, benchmark); !error.empty()) {
      throw UsageError("--benchmark: " + error);
    }
    checked_outputs(args, {"--profiles"});
    profiles[benchmark] = load_ncu_profile(args.required("--csv"));
  } else {
    checked_outputs(args, {"--profiles"});
    profiles = windowed_profiles(args, out);
  }
  store_ncu_profiles(path, slug, profiles);
  std::size_t launches = 0;
  for (const auto& [benchmark, profile] : profiles) launches += profile.kernels.size();
  if (one) {
    out << "stored the profile of " << profiles.begin()->first << " (" << launches << " kernel launches) in " << path
        << "\n";
  } else {
    out << "stored the profiles of " << profiles.size() << " benchmarks (" << launches << " kernel launches) in "
        << path << "\n";
  }
  return formats::kExitPass;
}

int run_ncu_diff(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  checked_outputs(args, {"--markdown", "--json"});
  const NcuProfile before = before_profile(args);
  const NcuProfile after = after_profile(args);
  const std::string before_label = args.has("--before-label") ? args.value("--before-label") : "before";
  const std::string after_label = args.has("--after-label") ? args.value("--after-label") : "after";
  const std::string markdown = ncu_diff_markdown(args.has("--title") ? args.value("--title") : "",
                                                 diff_profiles(before, after), before_label, after_label);
  formats::OutputFiles files;
  if (args.has("--json")) {
    const nlohmann::json doc = {{"before", before}, {"after", after}};
    files.add(args.value("--json"), doc.dump(2) + "\n");
  }
  if (args.has("--markdown")) files.add(args.value("--markdown"), markdown);
  files.write();
  if (!args.has("--markdown")) out << markdown;
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
