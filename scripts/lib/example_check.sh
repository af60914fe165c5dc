# shellcheck shell=bash
# What the end-to-end checks of an example project share (consumer_check.sh, gbench_consumer_check.sh,
# nvbench_consumer_check.sh): the harness installed into a fresh prefix, copies of the example configured and
# built against it, the expectations counted, a CTest test's status read, and a team's suite taken from
# nothing to its planted slowdown. Source it after lib/common.sh; do not run it.

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

# team_suite_check <format> <suite> <binary> <planted benchmark> <kernel> <benchmarks> <unchanged>: a team's
# suite (gpuperf_add_suite of $project, its planted twin in $planted, both built), from nothing to its planted
# slowdown caught, as gbench_consumer_check.sh and nvbench_consumer_check.sh state it: skipped without a
# baseline; the first baseline recorded (timed, OUTDIR/times.txt), holding <planted benchmark>; a clean check
# passes (timed), every one of its <benchmarks> benchmarks with the baseline's code; A/B of the clean and
# the planted build, then the stored check of the planted project, fail on <planted benchmark> with a code
# line naming <kernel>'s grid; --skip-unchanged leaves <unchanged> benchmarks UNCHANGED, untimed.
team_suite_check() {
  local format=$1 suite=$2 binary=$3 slow=$4 kernel=$5 benchmarks=$6 unchanged=$7 started baseline
  local grid_line="code: .*$kernel.*grid [0-9]*x1x1 -> [0-9]*x1x1 blocks"
  run_perf perf_without_baseline "$suite"
  expect "perf.$suite is skipped while the GPU has no baseline" \
    test "$(ctest_status "perf.$suite" "$out/perf_without_baseline.log")" = Skipped
  started=$EPOCHSECONDS
  "$prefix/share/gpuperf/scripts/update_baseline.sh" --build-dir "$project/build" --suite "$suite" \
    >"$out/record.log" 2>&1
  echo "first baseline: $((EPOCHSECONDS - started)) s" | tee -a "$out/times.txt"
  baseline=$(compgen -G "$project/baselines/*.json" | head -n 1)
  expect "update_baseline.sh --suite writes the project's own baselines/<gpu>.json" test -n "$baseline"
  [[ -n $baseline ]] && cp -f "$baseline" "$out/"
  expect "the baseline holds $slow" grep -q "\"$slow\"" "${baseline:-/dev/null}"
  started=$EPOCHSECONDS
  run_perf perf_clean "$suite"
  echo "stored check, clean: $((EPOCHSECONDS - started)) s" | tee -a "$out/times.txt"
  expect "perf.$suite passes against it" test "$(ctest_status "perf.$suite" "$out/perf_clean.log")" = Passed
  expect "with its $benchmarks benchmarks' code the baseline's" \
    grep -q "$benchmarks benchmarks ran the same code as the baseline" "$out/perf_clean.md"

  "$prefix/bin/perf_gate" ab-run --format "$format" --suite "$suite" --a "$project/build/$binary" \
    --b "$planted/build/$binary" --out "$out/ab" >"$out/ab.log" 2>&1
  expect "A/B of the clean and the planted build fails" test "$?" -eq 1
  expect "on $slow" grep -q "^SLOW .*$slow" "$out/ab.log"
  expect "naming $kernel's grid" grep -q "$grid_line" "$out/ab.log"

  plant_in_project
  run_perf perf_planted "$suite"
  expect "perf.$suite fails after the planted slowdown" \
    test "$(ctest_status "perf.$suite" "$out/perf_planted.log")" = Failed
  expect "with a SLOW line for $slow" grep -q "^SLOW .*$slow" "$out/perf_planted.log"
  expect "and a code line naming $kernel's grid" grep -q "$grid_line" "$out/perf_planted.log"

  "$prefix/bin/perf_gate" run --format "$format" --family "$suite" --bench "$project/build/$binary" \
    --baselines "$project/baselines" --out "$out/skip" --skip-unchanged >"$out/skip.log" 2>&1
  expect "--skip-unchanged fails on the planted change" test "$?" -eq 1
  # shellcheck disable=SC2016  # jq's own variables
  expect "and leaves the $unchanged others untimed, UNCHANGED" jq -e --arg slow "$slow" --argjson n "$unchanged" \
    '[.benchmarks[] | select(.verdict == "UNCHANGED") | .name] | length == $n and all(. != $slow)' \
    "$out/skip/$suite.verdict.json"

  echo "== the planted slowdown, as the perf test printed it"
  grep -hE "^(SLOW|SAME|FAST|AMBIGUOUS) " "$out/perf_planted.log" | head -n 12
  echo "== and as A/B printed it"
  grep -hE "^(SLOW|SAME|FAST|AMBIGUOUS) " "$out/ab.log" | head -n 12
}
