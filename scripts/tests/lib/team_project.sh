# shellcheck shell=bash
# A team's CMake project that declares its suite with gpuperf_add_suite, as the installed package does
# (cmake/KernelFamily.cmake, perf_gate as gpuperf::perf_gate), for the tests of a team's suite. Source it
# after lib/expectations.sh; the test sets work, here, gate, bench, cmake, ctest, generator and
# make_program.

# team_project <suite> <format> [ARGS...]: $work/team configured in $work/team/build (expected to
# configure), and suite_test, which runs its perf.<suite> under CTest into $work/log.
# shellcheck disable=SC2154  # the test's variables, named above
team_project() {
  local suite=$1 format=$2
  shift 2
  project=$work/team
  team_suite=$suite
  mkdir -p "$project/baselines"
  cat >"$project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(team LANGUAGES NONE)
add_executable(gpuperf::perf_gate IMPORTED)
set_target_properties(gpuperf::perf_gate PROPERTIES IMPORTED_LOCATION "$gate")
set_property(GLOBAL PROPERTY GPUPERF_SCRIPTS_DIR "$here/..")
include("$here/../../cmake/KernelFamily.cmake")
gpuperf_add_suite($suite COMMAND "$bench" FORMAT $format ARGS $*)
CMAKE
  "$cmake" -S "$project" -B "$project/build" -G "$generator" -DCMAKE_MAKE_PROGRAM="$make_program" \
    >"$work/log" 2>&1
  expect 0 "Generating done" "a project with gpuperf_add_suite(... FORMAT $format) configures"
}

# shellcheck disable=SC2154  # as above
suite_test() { (cd "$project/build" && "$ctest" -R "^perf\\.$team_suite\$" --output-on-failure) >"$work/log" 2>&1; }
