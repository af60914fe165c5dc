// ncu-metrics, ncu-diff, ncu-store: Nsight Compute profiles side by side, and stored beside a baseline.
#include <nlohmann/json.hpp>
#include <string>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "gate/cli/commands.h"
#include "gate/ncu/profile.h"
#include "gate/ncu/stored_profiles.h"

namespace gpuperf::gate::cli {
namespace {

NcuProfile load_ncu_profile(const std::string& path) {
  return parse_ncu_csv(formats::read_text_file(path, "did ncu write its --csv output there?"), path);
}

NcuBaseline load_ncu_baseline(const std::string& path) {
  return ncu_baseline_from_text(formats::read_text_file(path, "record the profiles with scripts/record_ncu.sh"),
                                path);
}

NcuProfile before_profile(const Arguments& args) {
  if (args.has("--before") == args.has("--before-stored")) throw UsageError("give --before or --before-stored");
  if (args.has("--before")) return load_ncu_profile(args.value("--before"));
  const std::string path = args.value("--before-stored");
  const std::string benchmark = args.required("--benchmark");
  const NcuBaseline stored = load_ncu_baseline(path);
  const auto profile = stored.benchmarks.find(benchmark);
  if (profile == stored.benchmarks.end()) {
    throw formats::InputError(path + " holds no profile of " + benchmark +
                              " - record it with scripts/record_ncu.sh (it was added after the recording?)");
  }
  return profile->second;
}

}  // namespace

int run_ncu_metrics(const Arguments& /*args*/, std::ostream& out, std::ostream& /*err*/) {
  out << ncu_metrics_argument() << "\n";
  return formats::kExitPass;
}

int run_ncu_store(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string path = args.required("--profiles");
  const std::string slug = args.required("--gpu");
  const std::string benchmark = args.required("--benchmark");
  // Both reach the file and every report that reads it: held to the names' rule (formats/names.h).
  if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, benchmark); !error.empty()) {
    throw UsageError("--benchmark: " + error);
  }
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, slug); !error.empty()) {
    throw UsageError("--gpu: " + error);
  }
  checked_outputs(args, {"--profiles"});
  const NcuProfile profile = load_ncu_profile(args.required("--csv"));
  NcuBaseline stored;
  stored.gpu_slug = slug;
  // Read, add and write under the file's lock: parallel stores into one file each keep their profile.
  const formats::FileLock lock(path);
  if (formats::input_file_exists(path)) {
    stored = load_ncu_baseline(path);
    if (stored.gpu_slug != slug) {
      throw formats::InputError(path + " holds profiles of " + stored.gpu_slug + ", not " + slug +
                                " - each GPU's profiles go beside its own baseline");
    }
  }
  stored.benchmarks[benchmark] = profile;
  formats::write_file_atomically(path, ncu_baseline_to_text(stored));
  out << "stored the profile of " << benchmark << " (" << profile.kernels.size() << " kernel launches) in " << path
      << "\n";
  return formats::kExitPass;
}

int run_ncu_diff(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  checked_outputs(args, {"--markdown", "--json"});
  const NcuProfile before = before_profile(args);
  const NcuProfile after = load_ncu_profile(args.required("--after"));
  const std::string before_label = args.has("--before-label") ? args.value("--before-label") : "before";
  const std::string after_label = args.has("--after-label") ? args.value("--after-label") : "after";
  std::string markdown = args.has("--title") ? "#### " + args.value("--title") + "\n\n" : "";
  markdown += markdown_diff_table(diff_profiles(before, after), before_label, after_label);
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
