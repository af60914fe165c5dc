# shellcheck shell=bash
# What the end-to-end checks of an example project share (consumer_check.sh, gbench_consumer_check.sh): the
# harness installed into a fresh prefix, copies of the example configured and built against it, the
# expectations counted and a CTest test's status read. Source it after lib/common.sh; do not run it.

# example_check_start <script> <its arguments: BUILD OUTDIR>: sets build (absolute) and out (created); exits
# 2 on bad usage or a build without the harness, 77 on a host without a GPU (the harness's gpuperf_bench
# says).
example_check_start() {
  local script=$1
  shift
  (($# == 2)) || die "$EXIT_INVALID" "usage: $script BUILD OUTDIR (see the header)"
  build=$(cd "$1" && pwd) || die "$EXIT_INVALID" "no build folder $1"
  out=$(out_folder "$2") || exit "$EXIT_INVALID"
  [[ -x $build/perf_tests/gpuperf_bench ]] || die "$EXIT_INVALID" "$build has no built harness (perf_tests/gpuperf_bench)"
  local rc=0
  "$build/perf_tests/gpuperf_bench" --gpu-info >/dev/null 2>&1 || rc=$?
  ((rc != 77)) || die "$EXIT_NOT_JUDGED" "no GPU: nothing to check"
  failures=0
  check_started=$EPOCHSECONDS
}

# expect <what> <condition command...>: prints ok or FAIL, counting failures.
expect() {
  local what=$1
  shift
  if "$@"; then echo "ok    $what"; else echo "FAIL  $what"; failures=$((failures + 1)); fi
}

# ctest_status <test> <log>: the status CTest gave the test in its log (Passed, Skipped, Failed).
ctest_status() {
  sed -n "s/^.*Test *#[0-9]*: ${1//./\\.} [ .*]*\([A-Za-z]*\).*/\1/p" "$2"
}

# install_harness <prefix>: cmake --install of the harness's build into a fresh prefix.
install_harness() {
  rm -rf "$1"
  cmake --install "$build" --prefix "$1" >"$out/install.log" 2>&1 ||
    die "$EXIT_INVALID" "cmake --install $build failed (see $out/install.log)"
}

# example_copy <example folder> <copy> [planted]: a fresh copy of the example, with its
# planted_slowdown.patch applied when asked.
example_copy() {
  rm -rf "$2"
  cp -r "$1" "$2"
  [[ ${3:-} == planted ]] || return 0
  (cd "$2" && patch -p1 <planted_slowdown.patch) >>"$out/plant.log" 2>&1 ||
    die "$EXIT_INVALID" "could not apply planted_slowdown.patch to $2 (see $out/plant.log)"
}

# build_example <copy> <prefix>: configured against the installed harness in <copy>/build, and built.
build_example() {
  cmake -S "$1" -B "$1/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DCMAKE_PREFIX_PATH="$2" >>"$out/configure.log" 2>&1 ||
    die "$EXIT_INVALID" "configuring $1 against $2 failed (see $out/configure.log)"
  cmake --build "$1/build" >>"$out/build.log" 2>&1 || die "$EXIT_INVALID" "building $1 failed (see $out/build.log)"
}

# example_prepare <example folder>: the harness installed into OUTDIR/prefix, and two copies of the
# example built against it: OUTDIR/<name> ($project) and OUTDIR/<name>_planted ($planted), which carries
# its planted_slowdown.patch.
example_prepare() {
  local name
  name=$(basename "$1")
  prefix="$out/prefix" project="$out/$name" planted="$out/${name}_planted"
  install_harness "$prefix"
  example_copy "$1" "$project"
  example_copy "$1" "$planted" planted
  build_example "$project" "$prefix"
  build_example "$planted" "$prefix"
}

# plant_in_project: $project gets its planted_slowdown.patch too, and is rebuilt.
plant_in_project() {
  (cd "$project" && patch -p1 <planted_slowdown.patch) >>"$out/plant.log" 2>&1 ||
    die "$EXIT_INVALID" "could not apply planted_slowdown.patch to $project (see $out/plant.log)"
  cmake --build "$project/build" >>"$out/build.log" 2>&1 ||
    die "$EXIT_INVALID" "rebuilding $project with the planted slowdown failed (see $out/build.log)"
}

# run_perf <name> <report name: families, or a suite>: ctest -L perf of $project, logged to OUTDIR/<name>.log, its report
# copied to OUTDIR/<name>.md.
run_perf() {
  ctest --test-dir "$project/build" -L perf --output-on-failure >"$out/$1.log" 2>&1
  cp -f "$project/build/perf-results/$2.md" "$out/$1.md" 2>/dev/null
  return 0
}

# example_check_end <what>: exit 1 if an expectation failed, else says it held, with the time taken.
example_check_end() {
  ((failures == 0)) || exit "$EXIT_REGRESSION"
  echo "$1 on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1): every expectation held" \
    "in $((EPOCHSECONDS - check_started)) s"
}
