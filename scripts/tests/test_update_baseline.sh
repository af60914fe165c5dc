#!/usr/bin/env bash
# scripts/update_baseline.sh, the wrapper around perf_gate run --record, end to end on a machine without
# a GPU: a build folder whose gpuperf-programs.txt names fake_bench.sh (standing in for gpuperf_bench) and
# the perf_gate under test. The checking process first, then --runs timing processes of the whole suite
# with no reference check; the fingerprints kept; the note when none was captured; a hand-set tolerance
# kept; the commit (GPUPERF_GIT_COMMIT, else the baseline folder's checkout's); a crash writes nothing (2);
# no GPU (77); the wrapper's own errors (2); the families and a team's suite sharing one file, each
# recording keeping the other's entries.
#   test_update_baseline.sh PERF_GATE
set -uo pipefail
gate=$(realpath "$1")
here="$(cd "$(dirname "$0")" && pwd)"
script="$here/../update_baseline.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work  # the GPU lock's files too
unset GPUPERF_GIT_COMMIT GPUPERF_PHASES_DIR FAKE_FINGERPRINTS FAKE_CRASH FAKE_GPU FAKE_ARGS_LOG
source "$here/lib/expectations.sh"

build=$work/build baselines=$work/baselines out=$work/build/perf-results/record
baseline=$baselines/fake-gpu.json
mkdir -p "$build" "$baselines"
printf 'bench=%s\ngate=%s\nbaselines=%s\n' "$here/fake_bench.sh" "$gate" "$baselines" >"$build/gpuperf-programs.txt"

update() { bash "$script" --build-dir "$build" "$@" >"$work/log" 2>&1; }

# The first baseline: the GPU, one checking process, then 3 timing processes; the fingerprints kept.
FAKE_FINGERPRINTS=1 FAKE_ARGS_LOG=$work/args GPUPERF_GIT_COMMIT=c0ffee update --runs 3 --repetitions 5
expect 0 "wrote $baseline: 2 benchmarks of Fake GPU (fake-gpu), 3 runs, commit c0ffee" "first baseline"
check "the GPU asked first, then one checking process of every case that times nothing" \
  diff <(head -n 2 "$work/args") <(printf '%s\n' --gpu-info \
    "--fingerprint-only --benchmark_filter=. --benchmark_out=$out/record.fingerprints.json")
check "then 3 timing processes of the whole suite, no reference check" \
  diff <(tail -n +3 "$work/args") <(for run in 1 2 3; do
    echo "--no-reference-check --benchmark_filter=. --benchmark_repetitions=5 --benchmark_out=$out/record.run$run.json --benchmark_out_format=json"
  done)
check "the baseline holds the fingerprints, from no run" \
  jq -e '.benchmarks["fake/long/n:2"].fingerprint.kernels[0].sass_hash == "00000000000000aa"
         and .recorded.runs == 3 and .recorded.commit == "c0ffee"' "$baseline"
check "each process's log is kept" test -f "$out/record.run3.log" -a -f "$out/record.fingerprints.log"
check "the last note says what to do" grep -q "review the changes above, then commit $baseline" "$work/log"

# Re-recorded without fingerprints (another profiler attached): a note; the hand-set tolerance kept; the
# commit of the baseline folder's checkout.
jq '.benchmarks["fake/long/n:2"].tolerance_pct = 6.5' "$baseline" >"$work/edited.json" && mv "$work/edited.json" "$baseline"
git -C "$baselines" init -q && git -C "$baselines" add . &&
  git -C "$baselines" -c user.name=t -c user.email=t@t commit -qm baseline
commit=$(git -C "$baselines" rev-parse --short HEAD)
update --runs 2 --repetitions 5
expect 0 "no fingerprint captured ($out/record.fingerprints.log): the baseline will hold none" "no fingerprint"
check "the hand-set tolerance is kept" jq -e '.benchmarks["fake/long/n:2"].tolerance_pct == 6.5' "$baseline"
check "what moved versus the previous file is printed" grep -q "what moved versus $baseline" "$work/log"
check "the baseline folder's commit" test "$(jq -r .recorded.commit "$baseline")" = "$commit"
check "no fingerprint in the baseline" jq -e '[.benchmarks[] | has("fingerprint")] | any | not' "$baseline"

# A crash writes nothing; no GPU is skipped.
cp "$baseline" "$work/before.json"
FAKE_CRASH=1 update --runs 2
expect 2 "crashed (signal 11) while checking the cases; log: $out/record.fingerprints.log; nothing written" "a crash"
check "a crash leaves the baseline as it was" cmp "$baseline" "$work/before.json"
FAKE_GPU=none update
expect 77 "SKIPPED: no CUDA device" "no GPU"

# The wrapper's own errors.
bash "$script" --runs 2 >"$work/log" 2>&1
expect 2 "error: --build-dir is required" "no --build-dir"
update --frobnicate
expect 2 "unknown argument '--frobnicate'" "an unknown argument"
update --baselines "$work/nothere"
expect 2 "no baseline folder $work/nothere" "a missing baseline folder"
bash "$script" --build-dir "$work/empty" >"$work/log" 2>&1
expect 2 "no built harness in $work/empty" "a build folder without the harness"
update --runs 0
expect 2 "processes" "--runs 0"
check "no baseline written by the failures" cmp "$baseline" "$work/before.json"

# --- the families and a team's suite in one baseline folder -----------------------------------------------
# The families (fake_bench.sh) and a Google Benchmark suite (fake_gbench.sh, its GPU named "Fake GPU" as
# NVML would) write one file, fake-gpu.json: recording either replaces its own benchmarks and keeps the
# other's entries byte for byte, hand-set tolerances included.
entry_of() {  # entry_of NAME: the baseline's lines of the benchmark NAME, as the file holds them
  awk -v key="    \"$1\": {" '$0 == key {on = 1} on {print} on && /^    }/ {exit}' "$baseline"
}
echo '{"name": "Fake GPU", "uuid": "GPU-fake", "driver": "0"}' >"$work/fake_gpu.json"
mkdir -p "$work/team_build/gpuperf-suites"
printf '%s\n' "gate=$gate" "bench=$here/fake_gbench.sh" "format=gbench" "baselines=$baselines" \
  >"$work/team_build/gpuperf-suites/saxpy_suite.txt"
update_suite() {
  GPUPERF_TEST_GPU_IDENTITY=$work/fake_gpu.json bash "$script" --build-dir "$work/team_build" \
    --suite saxpy_suite --runs 2 --repetitions 5 >"$work/log" 2>&1
}
entry_of fake/long/n:2 >"$work/long_before"
update_suite
expect 0 "kept 2 benchmarks of families not recorded here, as they were: fake (2)" "the suite recorded beside the families"
check "the families' entry byte for byte, its hand-set tolerance too" diff "$work/long_before" <(entry_of fake/long/n:2)
check "the file holds both" jq -e '.benchmarks | keys == ["fake/long/n:2", "fake/short/n:1",
  "saxpy_suite/BM_copy_x3cfloat_x3e/4096", "saxpy_suite/BM_saxpy/1024"]' "$baseline"
jq '.benchmarks["saxpy_suite/BM_saxpy/1024"].tolerance_pct = 7.5' "$baseline" >"$work/edited.json" &&
  mv "$work/edited.json" "$baseline"
update_suite  # the file in the gate's own layout again, the hand-set tolerance kept
entry_of saxpy_suite/BM_saxpy/1024 >"$work/saxpy_before"
check "the suite's hand-set tolerance kept by its own recording" grep -q '"tolerance_pct": 7.5' "$work/saxpy_before"
FAKE_SLOWDOWN_PCT=5 update --runs 2 --repetitions 5
expect 0 "kept 2 benchmarks of families not recorded here, as they were: saxpy_suite (2)" "the families recorded beside the suite"
check "the suite's entry byte for byte as it was" diff "$work/saxpy_before" <(entry_of saxpy_suite/BM_saxpy/1024)
check "what moved names the families' benchmarks only" bash -c "! sed -n '/what moved/,\$p' '$work/log' | grep -q saxpy_suite/"
check "the families' own benchmarks re-recorded" grep -q "fake/long/n:2" "$work/log"

# --- update_baseline.sh --suite: the suite's arguments as gpuperf_add_suite() wrote them ----------------
# Each arg= line of gpuperf-suites/<name>.txt is one argument, split at its first '=' only: a trailing '='
# kept, '=' and spaces inside kept, in order; a gate that logs what it is given stands in for perf_gate.
mkdir -p "$work/suite_build/gpuperf-suites"
logging_gate=$work/logging_gate.sh
printf '#!/usr/bin/env bash\nprintf "%%s\\n" "$@" >%q\n' "$work/suite_gate_args" >"$logging_gate"
chmod +x "$logging_gate"
printf '%s\n' "# a comment" "gate=$logging_gate" "bench=$here/fake_gbench.sh" "format=gbench" \
  "baselines=$baselines" "arg=--benchmark_min_time=0.1s" "arg=--flag=" "arg=two words" "arg=--x=a=b" \
  >"$work/suite_build/gpuperf-suites/team_suite.txt"
bash "$script" --build-dir "$work/suite_build" --suite team_suite --runs 2 >"$work/log" 2>&1
check "update_baseline.sh --suite runs the gate" test -f "$work/suite_gate_args"
check "the suite's arguments reach the gate exactly as its file lists them, a trailing '=' kept" \
  diff <(sed -n '/^--$/,$p' "$work/suite_gate_args") \
  <(printf '%s\n' -- --benchmark_min_time=0.1s --flag= "two words" --x=a=b)
# --- end of the --suite block ----------------------------------------------------------------------------

# --- update_baseline.sh --all-gpus: a host of three GPUs ---------------------------------------------------
# Each GPU records into its own folders at once (CUDA_VISIBLE_DEVICES=<it>), then one merge into the
# baseline, the existing file as --previous: every GPU's level kept, hand-set tolerances and the other
# suite's entries too; a host of one GPU is refused, and a failed recording merges nothing.
cp "$baseline" "$work/before_all.json"
FAKE_GPU_PER_DEVICE=1 CUDA_VISIBLE_DEVICES=0,1,2 update --runs 2 --repetitions 5 --all-gpus
expect 0 "wrote $baseline: 4 benchmarks of Fake GPU (fake-gpu) from 3 recordings of 3 GPUs, 6 runs" "--all-gpus"
check "each GPU recorded into its own folder" test -f "$out/gpu0/record.run2.json" -a -f "$out/gpu2/record.run2.json"
check "every GPU's level in the families' entries" jq -e '(.benchmarks["fake/long/n:2"].machine_medians | keys) ==
  ["GPU-fake0", "GPU-fake1", "GPU-fake2"] and .recorded.gpu_uuids == ["GPU-fake0", "GPU-fake1", "GPU-fake2"]' "$baseline"
check "the other suite's entry kept as it was" diff "$work/saxpy_before" <(entry_of saxpy_suite/BM_saxpy/1024)
check "the hand-set tolerance kept" jq -e '.benchmarks["fake/long/n:2"].tolerance_pct == 6.5' "$baseline"
cp "$baseline" "$work/merged.json"
FAKE_GPU_PER_DEVICE=1 CUDA_VISIBLE_DEVICES=0 update --runs 2 --all-gpus
expect 2 "--all-gpus needs two or more GPUs, this host has 1" "--all-gpus on one GPU"
FAKE_CRASH=1 FAKE_GPU_PER_DEVICE=1 CUDA_VISIBLE_DEVICES=0,1 update --runs 2 --all-gpus
expect 2 "nothing merged: a recording failed" "a failed recording"
check "nothing merged: the file as it was" cmp "$baseline" "$work/merged.json"
# --- end of the --all-gpus block -------------------------------------------------------------------------

expectations_summary "update_baseline.sh"
