// The gate's unit tests run under a TMPDIR of their own: a folder made under the machine's temporary
// folder before the first test and removed after the last. The scratch folders (ScratchFolderTest) and
// the lock files the commands take (formats/runtime_folder.h: ${TMPDIR}/gpuperf-locks-<uid>/, which
// outlive their processes by design) are all in it, so that a run of the tests leaves nothing in /tmp and
// never shares a lock with a perf run of the machine.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace gpuperf::gate::testing {
namespace {

class PrivateTmpdir : public ::testing::Environment {
 public:
  void SetUp() override {
    if (const char* previous = std::getenv("TMPDIR")) previous_ = previous;
    std::string pattern = std::filesystem::temp_directory_path().string() + "/unit_gate.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << "cannot make a temporary folder in " << pattern;
    folder_ = pattern;
    // Searchable by all, as the machine's temporary folder is: some tests run a step as another user.
    ::chmod(folder_.c_str(), 0755);
    ::setenv("TMPDIR", folder_.c_str(), 1);
  }
  void TearDown() override {
    if (previous_) {
      ::setenv("TMPDIR", previous_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
    std::error_code ignored;
    if (!folder_.empty()) std::filesystem::remove_all(folder_, ignored);
  }

 private:
  std::optional<std::string> previous_;
  std::string folder_;
};

// Registered before main() runs (gtest_main), which owns and deletes it.
[[maybe_unused]] ::testing::Environment* const kPrivateTmpdir =
    ::testing::AddGlobalTestEnvironment(new PrivateTmpdir);

}  // namespace
}  // namespace gpuperf::gate::testing
