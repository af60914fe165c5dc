#!/usr/bin/env bash
# A project's misuse of the package is a configure error that names the fix, never a silent no-op: each
# case below is a small project using BUILD installed into a fresh prefix, configured, and expected to
# fail with the message given. Last, a project used right: the tests it gets, the perf tests in shards.
#
#   test_package_misuse.sh BUILD WORK
set -euo pipefail
(($# == 2)) || { echo "usage: $0 BUILD WORK" >&2; exit 2; }
build=$(cd "$1" && pwd) work=$2
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -n 1; }
cmake=$(cached CMAKE_COMMAND)
options=(-G "$(cached CMAKE_GENERATOR)" "-DCMAKE_PREFIX_PATH=$work/prefix" -DCMAKE_CUDA_ARCHITECTURES=75-real)
for variable in CMAKE_MAKE_PROGRAM CMAKE_CXX_COMPILER CMAKE_CUDA_COMPILER CMAKE_CUDA_HOST_COMPILER; do
  value=$(cached "$variable")
  [[ -n $value ]] && options+=("-D$variable=$value")
done

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
  { tail -n 20 "$work/install.log"; echo "FAIL: cmake --install $build"; exit 1; }

failures=0
# expect_error <case> <message regex> <extra cmake options> <CMakeLists.txt lines after project()...>
expect_error() {
  local name=$1 message=$2 extra=$3 project="project(misuse LANGUAGES CXX CUDA)"
  shift 3
  [[ $name == no_cuda ]] && project="project(misuse LANGUAGES CXX)"
  mkdir -p "$work/$name"
  [[ $name == no_default_baseline_folder ]] || mkdir "$work/$name/baselines"
  : >"$work/$name/saxpy.cu"
  printf '%s\n' "cmake_minimum_required(VERSION 3.25)" "$project" "find_package(gpuperf 0.1 CONFIG REQUIRED)" \
    "$@" >"$work/$name/CMakeLists.txt"
  local rc=0 extra_options=()
  [[ -n $extra ]] && extra_options=("$extra")
  "$cmake" -S "$work/$name" -B "$work/$name/build" "${options[@]}" "${extra_options[@]}" \
    >"$work/$name/log.txt" 2>&1 || rc=$?
  # CMake wraps long messages: compare on one line.
  if ((rc == 0)); then
    echo "FAIL: $name: configured without error"
    failures=$((failures + 1))
  elif ! tr -s ' \n' ' ' <"$work/$name/log.txt" | grep -Eq -- "$message"; then
    echo "FAIL: $name: no error matching '$message':"
    tail -n 12 "$work/$name/log.txt"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

expect_error no_cuda "the CUDA language is not enabled .* project\(<name> LANGUAGES CXX CUDA\)" "" \
  "gpuperf_add_family(saxpy SOURCES saxpy.cu)"
expect_error no_sources "gpuperf_add_family\(saxpy\) has no SOURCES" "" \
  "gpuperf_add_family(saxpy)"
expect_error no_baseline_folder "the baseline folder of the family 'saxpy', .*/nowhere, does not exist. Create it" "" \
  "gpuperf_add_family(saxpy SOURCES saxpy.cu BASELINES nowhere)"
expect_error no_default_baseline_folder "no_default_baseline_folder/baselines, does not exist.*-DGPUPERF_BASELINE_DIR" "" \
  "gpuperf_add_family(saxpy SOURCES saxpy.cu)"
expect_error declared_twice "the family 'saxpy' is declared twice" "" \
  "gpuperf_add_family(saxpy SOURCES saxpy.cu)" "gpuperf_add_family(saxpy SOURCES saxpy.cu)"
expect_error after_tests "gpuperf_add_family\(late\) comes after gpuperf_add_tests\(\)" "" \
  "gpuperf_add_family(saxpy SOURCES saxpy.cu)" "gpuperf_add_tests()" "gpuperf_add_family(late SOURCES saxpy.cu)"
expect_error unknown_only_family "GPUPERF_ONLY_FAMILIES names 'nosuch', which no gpuperf_add_family\(\) declared" \
  "-DGPUPERF_ONLY_FAMILIES=nosuch" "gpuperf_add_family(saxpy SOURCES saxpy.cu)"
expect_error misspelled_keyword "unknown arguments 'SOURCE;saxpy.cu'" "" \
  "gpuperf_add_family(saxpy SOURCE saxpy.cu)"
expect_error family_named_as_the_perf_tests "'families' names the perf tests of the families together" "" \
  "gpuperf_add_family(families SOURCES saxpy.cu)"
expect_error family_named_as_a_shard "'families_2of4' names the perf tests of the families together" "" \
  "gpuperf_add_family(families_2of4 SOURCES saxpy.cu)"
expect_error shards_not_a_number "GPUPERF_PERF_SHARDS is 'two': give the number of perf tests" \
  "-DGPUPERF_PERF_SHARDS=two" "gpuperf_add_family(saxpy SOURCES saxpy.cu)"

# A family and a suite share the tests perf.<name> and the files perf-results/<name>.*: one name, two
# declarations, refused in either order; a suite named as the families' perf tests; a suite's name that
# breaks the family rule; an argument update_baseline.sh --suite could not read back.
suite="gpuperf_add_suite(saxpy COMMAND bench.sh FORMAT gbench)"
expect_error family_then_suite "'saxpy' is declared as a family \(in .*family_then_suite/CMakeLists.txt\) and as a suite \(in .*family_then_suite/CMakeLists.txt\)" "" \
  "gpuperf_add_family(saxpy SOURCES saxpy.cu)" "$suite"
expect_error suite_then_family "'saxpy' is declared as a suite \(in .*suite_then_family/CMakeLists.txt\) and as a family \(in .*suite_then_family/CMakeLists.txt\)" "" \
  "$suite" "gpuperf_add_family(saxpy SOURCES saxpy.cu)"
expect_error suite_declared_twice "the suite 'saxpy' is declared twice" "" "$suite" "$suite"
expect_error suite_named_as_the_perf_tests "gpuperf_add_suite\(families\): 'families' names the perf tests of the families together" "" \
  "gpuperf_add_suite(families COMMAND bench.sh FORMAT gbench)"
expect_error suite_named_as_a_shard "'families_1of2' names the perf tests of the families together" "" \
  "gpuperf_add_suite(families_1of2 COMMAND bench.sh FORMAT gbench)"
expect_error suite_name_not_a_family_name "gpuperf_add_suite\(1abc\): '1abc' is not a suite name: it must be a letter" "" \
  "gpuperf_add_suite(1abc COMMAND bench.sh FORMAT gbench)"
expect_error suite_argument_line_break "the argument '--x=a b' of ARGS holds a line break" "" \
  'gpuperf_add_suite(saxpy COMMAND bench.sh FORMAT gbench ARGS "--x=a\nb")'

# And what it generates when used right: a correctness test per family, the perf tests as the shards
# GPUPERF_PERF_SHARDS asks for (perf_gate run --shard I/N), after every correctness test.
mkdir -p "$work/shards/baselines"
: >"$work/shards/saxpy.cu"
printf '%s\n' "cmake_minimum_required(VERSION 3.25)" "project(shards LANGUAGES CXX CUDA)" \
  "find_package(gpuperf 0.1 CONFIG REQUIRED)" "gpuperf_add_family(saxpy SOURCES saxpy.cu)" \
  "gpuperf_add_family(axpby SOURCES saxpy.cu)" >"$work/shards/CMakeLists.txt"
if ! "$cmake" -S "$work/shards" -B "$work/shards/build" "${options[@]}" -DGPUPERF_PERF_SHARDS=3 \
  >"$work/shards/log.txt" 2>&1; then
  tail -n 12 "$work/shards/log.txt"
  echo "FAIL: shards: the project did not configure"
  failures=$((failures + 1))
else
  ctest=$(dirname "$cmake")/ctest
  listed=$("$ctest" --test-dir "$work/shards/build" --show-only=json-v1)
  names=$(jq -r '[.tests[].name | select(test("^(correctness|perf)\\."))] | sort | join(" ")' <<<"$listed")
  expected="correctness.axpby correctness.saxpy perf.families_1of3 perf.families_2of3 perf.families_3of3"
  if [[ $names != "$expected" ]]; then
    echo "FAIL: shards: the tests are '$names', not '$expected'"
    failures=$((failures + 1))
  elif ! jq -e '[.tests[] | select(.name == "perf.families_2of3") | .command | join(" ") | test(" run --shard 2/3 ")]
      == [true]' <<<"$listed" >/dev/null ||
    ! jq -e '[.tests[] | select(.name == "perf.families_2of3") | .properties[] | select(.name == "DEPENDS")
      | .value | sort] == [["correctness.axpby", "correctness.saxpy"]]' <<<"$listed" >/dev/null; then
    echo "FAIL: shards: perf.families_2of3 does not run perf_gate run --shard 2/3 after every correctness test"
    failures=$((failures + 1))
  else
    echo "ok: shards"
  fi
fi

# A suite's arguments: gpuperf-suites/<name>.txt, which update_baseline.sh --suite reads (one arg= line each,
# split at the first '='), holds exactly those its test perf.<name> passes after "--", in order: a
# trailing '=', spaces, a lone "0" and an empty one (which add_test drops) alike.
mkdir -p "$work/suite_arguments/baselines"
printf '%s\n' "cmake_minimum_required(VERSION 3.25)" "project(suite_arguments LANGUAGES CXX CUDA)" \
  "find_package(gpuperf 0.1 CONFIG REQUIRED)" \
  'gpuperf_add_suite(args_suite COMMAND bench.sh FORMAT gbench ARGS --flag= "two words" "" 0 --x=a=b)' \
  >"$work/suite_arguments/CMakeLists.txt"
if ! "$cmake" -S "$work/suite_arguments" -B "$work/suite_arguments/build" "${options[@]}" \
  >"$work/suite_arguments/log.txt" 2>&1; then
  tail -n 12 "$work/suite_arguments/log.txt"
  echo "FAIL: suite_arguments: the project did not configure"
  failures=$((failures + 1))
else
  ctest=$(dirname "$cmake")/ctest
  of_test=$("$ctest" --test-dir "$work/suite_arguments/build" --show-only=json-v1 |
    jq -r '.tests[] | select(.name == "perf.args_suite") | .command | .[(index("--") + 1):][]')
  of_file=$(sed -n 's/^arg=//p' "$work/suite_arguments/build/gpuperf-suites/args_suite.txt")
  expected=$(printf '%s\n' --flag= "two words" 0 --x=a=b)
  if [[ $of_test != "$expected" || $of_file != "$expected" ]]; then
    echo "FAIL: suite_arguments: the test passes '$of_test', the suite's file holds '$of_file', not '$expected'"
    failures=$((failures + 1))
  else
    echo "ok: suite_arguments"
  fi
fi

((failures == 0)) || exit 1
echo "PASS: every misuse is a configure error naming the fix; shards generated as asked"
