// The driver's parts on their own: the filters it gives a suite, the phase file it writes, the lock
// folder's rule, the GPU lock, processes (a crash told apart, the log, the environment) and the suite of
// gpuperf_bench's format read from its --gpu-info.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

#include "formats/exit_codes.h"
#include "formats/foreign_names.h"
#include "formats/input_error.h"
#include "formats/runtime_folder.h"
#include "gate/driver/benchmark_filters.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/gbench_suite.h"
#include "gate/driver/gpu_lock.h"
#include "gate/driver/gpuperf_suite.h"
#include "gate/driver/nvbench_suite.h"
#include "gate/driver/nvml_gpu.h"
#include "gate/driver/process.h"
#include "gate/driver/suite_format.h"
#include "gate/phases/phase_files.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::driver {
namespace {

using testing::file_text;

TEST(BenchmarkFilters, AreTheScriptsRegularExpressions) {
  EXPECT_EQ(family_filter("reduction", "ceiling"), "^(reduction|ceiling)/");
  EXPECT_EQ(family_filter("ceiling", "ceiling"), "^ceiling/") << "the canary's own family once";
  EXPECT_EQ(family_filter("reduction", ""), "^reduction/");
  EXPECT_EQ(exact_filter({"fake/long/n:2", "fake/short/n:1"}), "^(fake/long/n:2|fake/short/n:1)(/|$)");
  EXPECT_EQ(names_filter({"fake/long/n:2"}, "fake", "ceiling"), "^(fake/long/n:2)(/|$)|^ceiling/");
  EXPECT_EQ(regex_escaped("a.b*c+d?(e)[f]{g}|h^i$j\\k"), "a\\.b\\*c\\+d\\?\\(e\\)\\[f\\]\\{g\\}\\|h\\^i\\$j\\\\k");
}

TEST(PhaseFileText, IsReadBackAsWritten) {
  phases::PhaseFile file;
  file.kind = phases::PhaseFileKind::kPerfPhases;
  file.family = "reduction";
  file.span = {1767225600.25, 1767225645.5};
  file.phases = {{"lock_wait", {1767225600.25, 1767225600.5}}, {"checking", {1767225600.5, 1767225602.125}}};
  const std::string text = phases::phase_file_text(file);
  EXPECT_EQ(text,
            "{\"schema_version\": 1, \"what\": \"perf_phases\", \"family\": \"reduction\", \"start_epoch_s\": "
            "1767225600.250000, \"end_epoch_s\": 1767225645.500000, \"phases\": [{\"phase\": \"lock_wait\", "
            "\"start_epoch_s\": 1767225600.250000, \"end_epoch_s\": 1767225600.500000},{\"phase\": \"checking\", "
            "\"start_epoch_s\": 1767225600.500000, \"end_epoch_s\": 1767225602.125000}]}\n");
  const phases::PhaseFile read = phases::parse_phase_file(text, "written");
  ASSERT_EQ(read.phases.size(), 2u);
  EXPECT_EQ(read.phases[1].name, "checking");
  EXPECT_DOUBLE_EQ(read.phases[1].span.end_epoch_s, 1767225602.125);
  EXPECT_EQ(phases::phase_file_name(phases::PhaseFileKind::kPerfPhases, "reduction"), "perf_phases.reduction.json");
  EXPECT_EQ(phases::phase_file_name(phases::PhaseFileKind::kBuild, ""), "build.json");
}

using testing::ScopedEnvironment;
using RuntimeFolderTest = testing::ScratchFolderTest;

TEST_F(RuntimeFolderTest, AFolderOfTheUserUnderTmpdirMadePrivate) {
  const ScopedEnvironment tmpdir("TMPDIR", dir_.string());
  const std::string made = formats::private_lock_folder();
  EXPECT_EQ(made, dir_.string() + "/gpuperf-locks-" + std::to_string(::getuid()));
  struct stat info {};
  ASSERT_EQ(::stat(made.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u) << "created private";
  EXPECT_EQ(formats::private_lock_folder(), made) << "and used again";
}

TEST_F(RuntimeFolderTest, AFolderOthersCanWriteOrALinkIsRefused) {
  std::filesystem::create_directories(path("open"));
  ::chmod(path("open").c_str(), 0777);
  EXPECT_EQ(formats::why_not_private_folder(path("open")), path("open") + " is writable by group or others (mode 777)");
  std::filesystem::create_directories(path("mine"));
  ::chmod(path("mine").c_str(), 0700);
  std::filesystem::create_directory_symlink(path("mine"), path("link"));
  EXPECT_EQ(formats::why_not_private_folder(path("link")), path("link") + " is a symbolic link");
  EXPECT_EQ(formats::why_not_private_folder(path("mine")), "");
  const std::string uid = std::to_string(::getuid());
  std::filesystem::create_directories(path("tmp/gpuperf-locks-" + uid));
  ::chmod(path("tmp/gpuperf-locks-" + uid).c_str(), 0777);
  const ScopedEnvironment tmpdir("TMPDIR", path("tmp"));
  try {
    formats::private_lock_folder();
    FAIL() << "a folder others can write was used";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the lock folder is not private: " + path("tmp/gpuperf-locks-" + uid) +
                                         " is writable by group or others"),
              std::string::npos)
        << e.what();
  }
  try {
    const GpuLock lock("GPU-test-1", 0);
    FAIL() << "a GPU locked in a folder others can write";
  } catch (const DriverStop& stop) {
    EXPECT_EQ(stop.exit_code(), formats::kExitInvalidInput) << "the driver's own error, exit 2";
    EXPECT_NE(std::string(stop.what()).find("the lock folder is not private"), std::string::npos) << stop.what();
  }
  // Another user's folder cannot be made here without root; the rule names the owner.
  if (::getuid() != 0) {
    EXPECT_NE(formats::why_not_private_folder("/").find("belongs to another user (uid 0)"), std::string::npos);
  }
}

TEST_F(RuntimeFolderTest, TheGpuLockWaitsThenSaysWhoHoldsIt) {
  const ScopedEnvironment tmpdir("TMPDIR", dir_.string());
  const GpuLock held("GPU-test-1", 0);
  EXPECT_EQ(held.file(), formats::private_lock_folder() + "/gpuperf-GPU-test-1.lock");
  try {
    const GpuLock second("GPU-test-1", 0);
    FAIL() << "two holders of one GPU";
  } catch (const DriverStop& stop) {
    EXPECT_NE(std::string(stop.what())
                  .find("another perf run has held GPU GPU-test-1 for more than 0 s (lock file " + held.file() +
                        "). Wait for it to finish, or raise --lock-wait."),
              std::string::npos)
        << stop.what();
  }
  const GpuLock other_gpu("GPU-test-2", 0);  // another GPU is free
  EXPECT_THROW(GpuLock("../GPU", 0), DriverStop) << "a UUID names a file: no path in it";
}

// A lock file at the shared path that is not root's (another user made it to stall our runs) is never
// waited on; root's shared file is (runner_setup.md), which only a root test can make.
TEST_F(RuntimeFolderTest, OnlyRootsSharedLockFileIsUsed) {
  const ScopedEnvironment tmpdir("TMPDIR", dir_.string());
  write("gpuperf-GPU-shared.lock", "");
  const GpuLock lock("GPU-shared", 0);
  if (::getuid() == 0) {
    EXPECT_EQ(lock.file(), path("gpuperf-GPU-shared.lock")) << "root's file, shared by every user";
  } else {
    EXPECT_EQ(lock.file(), formats::private_lock_folder() + "/gpuperf-GPU-shared.lock") << "a file of this user's own";
  }
}

using ProcessTest = testing::ScratchFolderTest;

TEST_F(ProcessTest, ACrashIsToldApartFromAFailure) {
  const ProcessOutcome crashed = run_process({{"/bin/sh", "-c", "kill -SEGV $$"}, {}, path("crash.log")});
  EXPECT_TRUE(crashed.signaled);
  EXPECT_EQ(crashed.code, 11);
  EXPECT_EQ(crashed.describe(), "signal 11");
  const ProcessOutcome failed = run_process({{"/bin/sh", "-c", "exit 139"}, {}, path("fail.log")});
  EXPECT_FALSE(failed.signaled) << "an exit code above 128 is not a signal";
  EXPECT_EQ(failed.describe(), "exit 139");
}

TEST_F(ProcessTest, OutputGoesToTheLogWithTheEnvironmentAdded) {
  const ProcessOutcome outcome = run_process({{"/bin/sh", "-c", "echo out $GPUPERF_GIT_COMMIT; echo err >&2"},
                                              {{"GPUPERF_GIT_COMMIT", "abc123"}},
                                              path("log")});
  EXPECT_TRUE(outcome.succeeded());
  EXPECT_EQ(file_text(path("log")), "out abc123\nerr\n");
  std::string lines;
  for (int i = 1; i <= 30; ++i) lines += std::to_string(i) + "\n";
  std::ofstream(path("long.log")) << lines;
  EXPECT_EQ(log_tail(path("long.log"), 2), "29\n30\n");
  std::string captured;
  EXPECT_EQ(run_process_captured({{"/bin/sh", "-c", "echo a; echo b >&2; exit 3"}, {}, ""}, captured).code, 3);
  EXPECT_EQ(captured, "a\nb\n");
  try {
    run_process({{path("none")}, {}, path("none.log")});
    FAIL() << "a missing program ran";
  } catch (const DriverStop& stop) {
    EXPECT_NE(std::string(stop.what()).find("cannot run '" + path("none") + "'"), std::string::npos) << stop.what();
  }
}

// Whether process `pid` still runs (a zombie no longer does).
bool process_runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  const std::size_t state = text.rfind(')');
  return !text.empty() && state != std::string::npos && text.substr(state + 2, 1) != "Z";
}

// The pid a process wrote into `file`, waited for up to 10 s; 0 where none came.
pid_t pid_written(const std::string& file) {
  for (int i = 0; i < 1000; ++i) {
    std::ifstream in(file);
    long pid = 0;
    if (in >> pid && pid > 0) return static_cast<pid_t>(pid);
    ::usleep(10000);
  }
  return 0;
}

// A process past the time limit is killed with what it started, and the test stops (exit 2) naming it,
// its limit and what to do; captured output too. Without a limit, a process runs to its end.
TEST_F(ProcessTest, AHungProcessIsKilledWithItsGroupAtTheTimeLimit) {
  EXPECT_EQ(default_process_timeout_s(30), 900 + 60 * 30);
  const std::string hang = "sleep 60 & echo $! >" + path("sleep.pid") + "; wait";
  const auto start = std::chrono::steady_clock::now();
  {
    const ProcessTimeLimit limit(1);
    try {
      run_process({{"/bin/sh", "-c", hang}, {}, path("hang.log")});
      ADD_FAILURE() << "a hung process ran past its limit";
    } catch (const DriverStop& stop) {
      EXPECT_EQ(stop.exit_code(), formats::kExitInvalidInput);
      EXPECT_NE(std::string(stop.what()).find("'/bin/sh' ran past its time limit of 1 s and was killed with its "
                                              "process group (log: " + path("hang.log") + ")"),
                std::string::npos)
          << stop.what();
      EXPECT_NE(std::string(stop.what()).find("--process-timeout SECONDS"), std::string::npos) << stop.what();
    }
    std::string captured;
    EXPECT_THROW(run_process_captured({{"/bin/sh", "-c", "echo started; sleep 60"}, {}, ""}, captured), DriverStop);
    EXPECT_EQ(captured, "started\n");
    EXPECT_TRUE(run_process({{"/bin/sh", "-c", "exit 0"}, {}, ""}).succeeded()) << "a quick one is untouched";
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  const pid_t sleeper = pid_written(path("sleep.pid"));
  ASSERT_GT(sleeper, 0);
  for (int i = 0; i < 200 && process_runs(sleeper); ++i) ::usleep(10000);
  EXPECT_FALSE(process_runs(sleeper)) << "what the hung process started still runs";
  EXPECT_TRUE(run_process({{"/bin/sh", "-c", "sleep 2"}, {}, ""}).succeeded()) << "no limit once it ended";
}

// A driver stopped by SIGTERM while its benchmark runs ends the benchmark's process group before it dies
// of the signal itself: the next run, which can then take the GPU's lock, has the GPU to itself. It dies
// even when the benchmark ended of the signal first (a race CI once lost: the driver went on, exit 0).
TEST_F(ProcessTest, AStoppedDriverEndsItsRunningProcessGroupFirst) {
  for (const bool captured : {false, true}) {
    SCOPED_TRACE(captured ? "run_process_captured" : "run_process");
    const std::string pid_file = path(captured ? "captured.pid" : "bench.pid");
    const std::string bench = "sleep 60 & echo $! >" + pid_file + "; wait";
    std::cout.flush();
    const pid_t driver = ::fork();
    ASSERT_GE(driver, 0);
    if (driver == 0) {
      try {
        std::string output;
        if (captured) {
          run_process_captured({{"/bin/sh", "-c", bench}, {}, ""}, output);
        } else {
          run_process({{"/bin/sh", "-c", bench}, {}, path("bench.log")});
        }
      } catch (...) {
      }
      ::_exit(0);
    }
    const pid_t benchmark = pid_written(pid_file);
    ASSERT_GT(benchmark, 0);
    ::kill(driver, SIGTERM);
    int status = 0;
    ASSERT_EQ(::waitpid(driver, &status, 0), driver);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "the driver dies of the signal: " << status;
    for (int i = 0; i < 200 && process_runs(benchmark); ++i) ::usleep(10000);
    EXPECT_FALSE(process_runs(benchmark)) << "the benchmark outlived the driver";
    if (process_runs(benchmark)) ::kill(benchmark, SIGKILL);
  }
}

TEST_F(ProcessTest, TheGpuperfSuiteReadsItsGpuInfo) {
  const std::string bench = write("bench.sh",
                                  "#!/bin/sh\necho '{\"name\": \"Fake GPU\", \"slug\": \"fake-gpu\", "
                                  "\"uuid\": \"GPU-fake\"}'\n");
  ::chmod(bench.c_str(), 0755);
  const SuiteGpu gpu = GpuperfSuite(bench).gpu();
  EXPECT_EQ(gpu.slug, "fake-gpu");
  EXPECT_EQ(gpu.uuid, "GPU-fake");
  const std::string none = write("none.sh", "#!/bin/sh\necho 'SKIPPED: no CUDA device' >&2\nexit 77\n");
  ::chmod(none.c_str(), 0755);
  try {
    GpuperfSuite(none).gpu();
    FAIL() << "no GPU, no skip";
  } catch (const DriverStop& stop) {
    EXPECT_EQ(stop.exit_code(), formats::kExitNotJudged);
    EXPECT_STREQ(stop.what(), "no CUDA device");
  }
  EXPECT_THROW(parse_gpu_info("{\"name\": \"x\", \"slug\": \"../x\", \"uuid\": \"\"}", "info"), formats::InputError)
      << "a slug names a file";
}

TEST(SuiteFormat, EachFormatMakesItsSuite) {
  EXPECT_EQ(parse_suite_format("gbench"), SuiteFormat::kGbench);
  EXPECT_EQ(parse_suite_format("nvbench"), SuiteFormat::kNvbench);
  EXPECT_THROW(parse_suite_format("catch2"), DriverStop);
  EXPECT_NE(make_suite(SuiteFormat::kGpuperf, "bench"), nullptr);
  for (const SuiteFormat format : {SuiteFormat::kGbench, SuiteFormat::kNvbench}) {
    const std::unique_ptr<Suite> team = make_suite(format, "bench", "saxpy_suite");
    EXPECT_FALSE(team->abilities().checks) << format_name(format);
    EXPECT_FALSE(team->abilities().canary) << format_name(format);
    EXPECT_FALSE(team->supports_time_filter()) << format_name(format);
    EXPECT_EQ(team->read_fingerprints("any.json"), std::nullopt) << format_name(format);
  }
}

// The options nvbench's command line gives each process are the driver's: a suite's arguments that hold one
// are refused, saying which.
TEST(NvbenchSuite, RefusesArgumentsTheDriverOwns) {
  EXPECT_NE(make_suite(SuiteFormat::kNvbench, "bench", "s", {"--max-noise", "1", "--axis", "T=[F32]"}), nullptr);
  for (const char* owned : {"-b", "--benchmark", "-d", "--devices", "--json", "--jsonbin"}) {
    try {
      make_suite(SuiteFormat::kNvbench, "bench", "s", {owned, "x"});
      ADD_FAILURE() << owned << " was taken";
    } catch (const DriverStop& stop) {
      EXPECT_EQ(stop.exit_code(), formats::kExitInvalidInput);
      EXPECT_NE(std::string(stop.what()).find(std::string("hold ") + owned + ","), std::string::npos) << stop.what();
    }
  }
}

// A re-measurement's selection: each state by its benchmark and an --axis per axis value; a value nvbench's
// axis syntax cannot hold selects its whole benchmark, once.
TEST(NvbenchSuite, SelectionNamesTheStatesOurNamesCameFrom) {
  using Args = std::vector<std::string>;
  EXPECT_EQ(nvbench_selection({"s/copy_sweep/T:F32,BlockSize:64", "s/scan"}, "s"),
            (Args{"--benchmark", "copy_sweep", "--axis", "T=F32", "--axis", "BlockSize=64", "--benchmark", "scan"}));
  const formats::MappedName range =
      formats::nvbench_to_our_name("s", {"sweep", {{"Range", "1:2"}, {"N", "8"}}});
  const formats::MappedName other =
      formats::nvbench_to_our_name("s", {"sweep", {{"Range", "3"}, {"N", "8"}}});
  ASSERT_TRUE(range.ok() && other.ok()) << range.error << other.error;
  EXPECT_EQ(nvbench_selection({other.name, range.name}, "s"), (Args{"--benchmark", "sweep"}))
      << "a value with ':' selects the whole benchmark, and its other state is not selected again";
  EXPECT_THROW(nvbench_selection({"other/scan"}, "s"), DriverStop) << "another family";
  EXPECT_THROW(nvbench_selection({"s/copy/T:F32,BlockSize"}, "s"), DriverStop) << "not a name the mapping writes";
}

// Whether Google Benchmark would run `full_name` under `filter`: searched in the full name, POSIX extended
// regular expressions (its src/re.h with std::regex).
bool gbench_selects(const std::string& filter, const std::string& full_name) {
  return std::regex_search(full_name, std::regex(filter, std::regex::extended));
}

// A re-measurement's --benchmark_filter: our names mapped back to Google Benchmark's run names, escaped,
// selecting their runs whatever run settings the full names hold, and no other run.
TEST(GbenchSuite, FilterNamesTheRunsOurNamesCameFrom) {
  const std::string two =
      gbench_filter({"saxpy_suite/BM_saxpy/1024", "saxpy_suite/BM_copy_x3cfloat_x3e/4096"}, "saxpy_suite");
  for (const char* run : {"BM_saxpy/1024", "BM_saxpy/1024/manual_time", "BM_copy<float>/4096/real_time",
                          "BM_saxpy/1024/min_time:0.500/repeats:3/process_time/real_time"}) {
    EXPECT_TRUE(gbench_selects(two, run)) << run << " under " << two;
  }
  for (const char* run : {"BM_saxpy/10240", "BM_saxpy/1024/2", "BM_saxpy/1024/manual_time/threads:2",
                          "BM_copy<float>/4096/8/real_time", "XBM_saxpy/1024", "BM_saxpyy/1024"}) {
    EXPECT_FALSE(gbench_selects(two, run)) << run << " under " << two;
  }
  // ->Threads(2)->UseRealTime() writes its settings before threads:N.
  const std::string threaded = gbench_filter({"s/BM_a/1024/threads:2", "s/BM_x/1"}, "s");
  for (const char* run : {"BM_a/1024/threads:2", "BM_a/1024/manual_time/threads:2", "BM_a/1024/real_time/threads:2",
                          "BM_a/1024/iterations:10/repeats:2/min_warmup_time:0.1/manual_time/threads:2",
                          "BM_x/1/manual_time", "BM_x/1"}) {
    EXPECT_TRUE(gbench_selects(threaded, run)) << run << " under " << threaded;
  }
  for (const char* run : {"BM_a/1024/threads:4", "BM_a/1024/manual_time/threads:20", "BM_a/1024",
                          "BM_a/1024/threads:2/manual_time", "BM_x/1/2", "BM_x/1/threads:2"}) {
    EXPECT_FALSE(gbench_selects(threaded, run)) << run << " under " << threaded;
  }
  const std::string dotted = gbench_filter({"s/BM_x.y/1"}, "s");
  EXPECT_TRUE(gbench_selects(dotted, "BM_x.y/1/real_time"));
  EXPECT_FALSE(gbench_selects(dotted, "BM_xzy/1")) << "a regex character is escaped";
  EXPECT_THROW(gbench_filter({"other/BM_x/1"}, "s"), DriverStop) << "another family";
  EXPECT_THROW(gbench_filter({"s/BM_x41/1"}, "s"), DriverStop) << "not a name the mapping writes";
}

// CUDA_VISIBLE_DEVICES's first entry as CUDA reads it: an index, a GPU's UUID or a prefix of it, a MIG
// device in either form; what CUDA would run on is never "no device".
TEST(NvmlGpu, VisibleDevicesAreReadAsCudaReadsThem) {
  using Kind = VisibleDevice::Kind;
  EXPECT_EQ(parse_visible_device(nullptr).kind, Kind::kIndex);
  EXPECT_EQ(parse_visible_device(" 1 ,0").index, 1);
  const VisibleDevice prefix = parse_visible_device("GPU-3cb3,GPU-aa");
  EXPECT_EQ(prefix.kind, Kind::kGpuUuid);
  EXPECT_EQ(prefix.uuid, "GPU-3cb3");
  const VisibleDevice mig = parse_visible_device("MIG-5c6e0a1b-1111-2222-3333-444455556666");
  EXPECT_EQ(mig.kind, Kind::kMigUuid);
  EXPECT_EQ(mig.uuid, "MIG-5c6e0a1b-1111-2222-3333-444455556666");
  const VisibleDevice old_mig = parse_visible_device("MIG-GPU-3cb3a1f0-aaaa-bbbb-cccc-ddddeeeeffff/1/0");
  EXPECT_EQ(old_mig.kind, Kind::kGpuUuid) << "its GPU named";
  EXPECT_EQ(old_mig.uuid, "GPU-3cb3a1f0-aaaa-bbbb-cccc-ddddeeeeffff");
  for (const char* none : {"", "-1", "x", "GPU-", "MIG-"}) {
    EXPECT_EQ(parse_visible_device(none).kind, Kind::kNone) << none;
  }
  const std::vector<std::string> uuids = {"GPU-3cb3a1f0-aaaa", "GPU-3cb4ffff-bbbb", "GPU-9d00aaaa-cccc"};
  std::string error;
  EXPECT_EQ(match_uuid_prefix("GPU-3cb3", uuids, error), "GPU-3cb3a1f0-aaaa") << error;
  EXPECT_EQ(match_uuid_prefix("GPU-9d00aaaa-cccc", uuids, error), "GPU-9d00aaaa-cccc") << "a whole UUID";
  EXPECT_EQ(match_uuid_prefix("GPU-3cb", uuids, error), "");
  EXPECT_NE(error.find("several GPUs (GPU-3cb3a1f0-aaaa, GPU-3cb4ffff-bbbb)"), std::string::npos) << error;
  EXPECT_EQ(match_uuid_prefix("GPU-77", uuids, error), "");
  EXPECT_NE(error.find("no GPU's UUID begins with CUDA_VISIBLE_DEVICES's GPU-77"), std::string::npos) << error;
}

// The test stand-in for NVML (GPUPERF_TEST_GPU_IDENTITY): a GPU, or none with its reason.
TEST(NvmlGpu, TestIdentityFileGivesAGpuOrNone) {
  std::string why;
  const auto gpu = parse_test_gpu_identity(R"({"name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-1", "driver": "580.1"})",
                                           "id.json", why);
  ASSERT_TRUE(gpu);
  EXPECT_EQ(gpu->slug, "nvidia-h100-80gb-hbm3") << "made from the name";
  EXPECT_EQ(gpu->uuid, "GPU-1");
  EXPECT_EQ(gpu->driver, "580.1");
  EXPECT_FALSE(gpu->memory_mib) << "unknown where not given";
  EXPECT_EQ(parse_test_gpu_identity(R"({"name": "N", "uuid": "U", "memory_mib": 143771})", "id.json", why)->memory_mib,
            143771);
  EXPECT_THROW(parse_test_gpu_identity(R"({"name": "N", "uuid": "U", "memory_mib": 0})", "id.json", why),
               formats::InputError);
  EXPECT_FALSE(parse_test_gpu_identity(R"({"none": "no device visible"})", "id.json", why));
  EXPECT_EQ(why, "no device visible");
  EXPECT_THROW(parse_test_gpu_identity(R"({"name": "x", "uuid": "u", "slug": "../x"})", "id.json", why),
               formats::InputError)
      << "a slug names a file";
  EXPECT_THROW(parse_test_gpu_identity(R"({"uuid": "u"})", "id.json", why), formats::InputError);
}

}  // namespace
}  // namespace gpuperf::gate::driver
