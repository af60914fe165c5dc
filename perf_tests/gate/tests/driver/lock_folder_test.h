#pragma once
// A driver test's scratch folder (ScratchFolderTest) whose run/ is TMPDIR, where the locks are (the GPU's
// and the files', formats/runtime_folder.h), for the test's time: the test takes no lock of the machine's
// and leaves none behind.

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::testing {

class LockFolderTest : public ScratchFolderTest {
 protected:
  void SetUp() override {
    ScratchFolderTest::SetUp();
    if (const char* previous = std::getenv("TMPDIR")) previous_runtime_dir_ = previous;
    std::filesystem::create_directories(path("run"));
    std::filesystem::permissions(path("run"), std::filesystem::perms::owner_all);
    ::setenv("TMPDIR", path("run").c_str(), 1);
  }
  void TearDown() override {
    if (previous_runtime_dir_) {
      ::setenv("TMPDIR", previous_runtime_dir_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
    ScratchFolderTest::TearDown();
  }

 private:
  std::optional<std::string> previous_runtime_dir_;
};

}  // namespace gpuperf::gate::testing
