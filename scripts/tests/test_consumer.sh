#!/usr/bin/env bash
# examples/consumer/, a project outside this tree, built with the harness as README.md ("Use it in your
# repository") says, one of two ways:
#   installed     cmake --install of BUILD into a fresh prefix, then find_package(gpuperf) from it
#   fetchcontent  FetchContent of this source tree (-DGPUPERF_FROM_SOURCE)
# Asserts that its family is the one file docs/kernels.md shows whole ("A kernel in one file", at most 30
# lines, beside its CMakeLists.txt), that its build has exactly correctness.saxpy and perf.families and
# registers the cases the example always had (gpuperf_bench --list-cases), that they run (without a GPU
# both report skipped; with one correctness passes and perf skips: the example has no baseline), and that
# the scripts find its programs and baseline folder (update_baseline.sh, record_ncu.sh --build-dir).
#
#   test_consumer.sh installed|fetchcontent BUILD WORK
#
# BUILD: this repository's CMake build (its compilers, launchers and generator are reused); WORK: a
# scratch folder, emptied first. The consumer is built for one CUDA architecture: BUILD's, where it lists
# one; else this host's GPU (native) where there is one; else the first BUILD lists.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
(($# == 3)) || { echo "usage: $0 installed|fetchcontent BUILD WORK" >&2; exit 2; }
way=$1 build=$(cd "$2" && pwd) work=$3
[[ $way == installed || $way == fetchcontent ]] || { echo "unknown way '$way'" >&2; exit 2; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -n 1; }
elapsed() { echo "[$way] $1: $((SECONDS - started)) s"; started=$SECONDS; }

cmake=$(cached CMAKE_COMMAND)
ctest=$(cached CMAKE_CTEST_COMMAND)
architectures=$(cached CMAKE_CUDA_ARCHITECTURES)
if [[ $architectures == *";"* ]]; then
  if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    architectures=native
  else
    architectures=${architectures%%;*}
  fi
fi
options=(-G "$(cached CMAKE_GENERATOR)" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$architectures")
for variable in CMAKE_MAKE_PROGRAM CMAKE_CXX_COMPILER CMAKE_CUDA_COMPILER CMAKE_CUDA_HOST_COMPILER \
  CMAKE_CXX_COMPILER_LAUNCHER CMAKE_CUDA_COMPILER_LAUNCHER; do
  value=$(cached "$variable")
  [[ -n $value ]] && options+=("-D$variable=$value")
done

# The docs show the example whole, so that what a team copies is what is built here: shows_whole DOC FILE
# holds when a fenced block of DOC is FILE, every line.
shows_whole() {
  # shellcheck disable=SC2016  # the backquotes of a Markdown fence, not an expansion
  want="$(cat "$2")" awk '
    /^```/ { if (inside) { if (block == ENVIRON["want"]) found = 1; inside = 0 } else { inside = 1; block = ""; lines = 0 }; next }
    inside { block = (lines++ ? block "\n" : "") $0 }
    END { exit !found }' "$1"
}
example="$root/examples/consumer"
for file in CMakeLists.txt saxpy/register_saxpy.cu; do
  for doc in docs/kernels.md README.md; do
    shows_whole "$root/$doc" "$example/$file" ||
      fail "$doc (A kernel in one file, Use it in your repository) does not show examples/consumer/$file as it is"
  done
done
# The family in one file of at most 30 lines (docs/kernels.md counts them).
family_lines=$(wc -l <"$example/saxpy/register_saxpy.cu")
((family_lines <= 30)) || fail "examples/consumer/saxpy/register_saxpy.cu has $family_lines lines, more than 30"

rm -rf "$work"
mkdir -p "$work" "$work/recorded"
consumer="$work/build" log="$work/log.txt"
started=$SECONDS
if [[ $way == installed ]]; then
  "$cmake" --install "$build" --prefix "$work/prefix" >"$log" 2>&1 ||
    { tail -n 20 "$log"; echo "FAIL: cmake --install $build"; exit 1; }
  options+=("-DCMAKE_PREFIX_PATH=$work/prefix")
  scripts="$work/prefix/share/gpuperf/scripts"
  # Every script the generated tests run is installed (a missing one fails every GPU test on a GPU host).
  # shellcheck disable=SC2016  # ${scripts} is CMake's, searched for as text
  while read -r named; do
    [[ -f $scripts/$named ]] || fail "cmake/KernelFamily.cmake runs scripts/$named, which the package does not install"
  done < <(grep -o '\${scripts}/[a-z_/]*\.sh' "$root/cmake/KernelFamily.cmake" | sed 's|^\${scripts}/||' | sort -u)
  elapsed "install"
else
  options+=("-DGPUPERF_FROM_SOURCE=$root")
  scripts="$root/scripts"
fi

"$cmake" -S "$root/examples/consumer" -B "$consumer" "${options[@]}" >"$log" 2>&1 ||
  { tail -n 30 "$log"; echo "FAIL: configuring examples/consumer"; exit 1; }
if [[ $way == installed ]]; then
  found=$(sed -n 's/^gpuperf_DIR:PATH=//p' "$consumer/CMakeCache.txt")
  [[ $found == "$work/prefix/lib/cmake/gpuperf" ]] || fail "find_package found gpuperf in '$found', not in the fresh prefix"
fi
elapsed "configure"
"$cmake" --build "$consumer" --parallel "$(nproc)" >"$log" 2>&1 ||
  { tail -n 30 "$log"; echo "FAIL: building examples/consumer"; exit 1; }
elapsed "build"

tests=$("$ctest" --test-dir "$consumer" -N | sed -n 's/^ *Test *#[0-9]*: //p' | sort | paste -sd ' ' -)
[[ $tests == "correctness.saxpy perf.families" ]] ||
  fail "the consumer's tests are '$tests', not 'correctness.saxpy perf.families'"

# The one-file family registers what the example's hand-written registry did: each variant at 1 and
# 1000003 (checked) and 2^26 (checked and timed), under the same names, so baselines keep their keys.
cases=$("$consumer/gpuperf_bench" --list-cases | jq -r '.cases[] | "\(.name) \(.roles | join("+"))"' | paste -sd ' ' -) ||
  fail "gpuperf_bench --list-cases of the consumer failed"
expected_cases="saxpy/naive/n:1 correctness saxpy/naive/n:1000003 correctness saxpy/naive/n:67108864 correctness+perf"
expected_cases+=" saxpy/grid_stride_vec4/n:1 correctness saxpy/grid_stride_vec4/n:1000003 correctness"
expected_cases+=" saxpy/grid_stride_vec4/n:67108864 correctness+perf"
[[ $cases == "$expected_cases" ]] || fail "the consumer's cases are '$cases', not '$expected_cases'"

gpu=1
"$consumer/gpuperf_bench" --gpu-info >/dev/null 2>&1 || { (($? == 77)) && gpu=""; }
"$ctest" --test-dir "$consumer" >"$log" 2>&1 || true
status_of() { sed -n "s/^.*Test *#[0-9]*: $1 [ .*]*\([A-Za-z]*\).*/\1/p" "$log"; }
expected_correctness=Skipped
[[ -n $gpu ]] && expected_correctness=Passed
[[ $(status_of correctness.saxpy) == "$expected_correctness" ]] ||
  fail "correctness.saxpy: '$(status_of correctness.saxpy)', expected $expected_correctness ($([[ -n $gpu ]] && echo "a GPU" || echo "no GPU") here)"
[[ $(status_of perf.families) == Skipped ]] ||
  fail "perf.families: '$(status_of perf.families)', expected Skipped (the example has no baseline)"
if [[ -n $gpu ]] && ! grep -q "examples/consumer/baselines/.*update_baseline.sh --build-dir" "$consumer/Testing/Temporary/LastTest.log"; then
  fail "perf.families did not look for its baseline in examples/consumer/baselines/"
fi
elapsed "ctest"

# The scripts find the consumer's programs (gpuperf-programs.txt): update_baseline.sh reaches the GPU
# (none: exit 77) and record_ncu.sh reaches its check for ncu. On a GPU it records: 8 samples a process,
# as the gate keeps a process's median from 5 valid samples on (with 3, an H100 host refused to record).
rc=0
"$scripts/update_baseline.sh" --build-dir "$consumer" --baselines "$work/recorded" --runs 2 --repetitions 8 \
  >"$log" 2>&1 || rc=$?
if [[ -n $gpu ]]; then
  if ((rc != 0)) || ! compgen -G "$work/recorded/*.json" >/dev/null; then
    fail "update_baseline.sh --build-dir $consumer: exit $rc, no baseline written: $(tail -n 3 "$log")"
  fi
elif ((rc != 77)); then
  fail "update_baseline.sh --build-dir $consumer: exit $rc, expected 77 (no GPU): $(tail -n 3 "$log")"
fi
rc=0
"$scripts/record_ncu.sh" --build-dir "$consumer" --ncu "$work/no-such-ncu" >"$log" 2>&1 || rc=$?
if ((rc != 2)) || ! grep -q "ncu not found" "$log"; then
  fail "record_ncu.sh --build-dir $consumer: exit $rc, expected 2 (ncu not found): $(tail -n 3 "$log")"
fi

# ... and default to the baseline folder the build names: a build folder whose gpuperf-programs.txt names
# the fake benchmark program and a folder of its own.
fake="$work/fake-build"
mkdir -p "$fake" "$work/fake-baselines"
printf 'bench=%s\ngate=%s\nbaselines=%s\n' "$here/fake_bench.sh" "$(sed -n 's/^gate=//p' "$consumer/gpuperf-programs.txt")" \
  "$work/fake-baselines" >"$fake/gpuperf-programs.txt"
if ! "$scripts/update_baseline.sh" --build-dir "$fake" --runs 2 --repetitions 5 >"$log" 2>&1 ||
  [[ ! -f $work/fake-baselines/fake-gpu.json ]]; then
  fail "update_baseline.sh did not write the baseline into the build's folder $work/fake-baselines: $(tail -n 3 "$log")"
fi
# On a GPU host scripts/consumer_check.sh and gbench_consumer_check.sh take the examples through their
# first day; without a GPU they judge nothing (77); a bad call is exit 2.
if [[ -z $gpu && $way == installed ]]; then
  for check in consumer_check gbench_consumer_check; do
    rc=0
    "$root/scripts/$check.sh" "$build" "$work/$check" >"$log" 2>&1 || rc=$?
    ((rc == 77)) || fail "$check.sh without a GPU: exit $rc, expected 77: $(tail -n 3 "$log")"
    rc=0
    "$root/scripts/$check.sh" "$build" >"$log" 2>&1 || rc=$?
    if ((rc != 2)) || ! grep -q "usage: .*$check.sh BUILD OUTDIR" "$log"; then
      fail "$check.sh without OUTDIR: exit $rc, expected 2 with its usage: $(tail -n 3 "$log")"
    fi
  done
fi
elapsed "scripts"

((failures == 0)) || exit 1
echo "PASS: examples/consumer ($way, CUDA architecture $architectures): correctness.saxpy, perf.families, scripts"
