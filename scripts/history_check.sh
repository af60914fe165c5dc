#!/usr/bin/env bash
# The history on a GPU host, end to end: a scratch repository of this tree with --commits commits on its
# main branch; at each, the reduction family built and measured as the default branch's perf job measures
# it (scripts/perf_test.sh, every benchmark timed) and the run appended to a history store. Commits
# --ramp-start .. --ramp-start+4 plant a ramp in reduce7 (kernels/reduction/planted_ramp.patch): a spin
# inside its timed region, raised by 1% of reduce7's time at 2^28 with each commit, so that no single
# commit moves it by more than the per-PR tolerance. Then: the change points of the history
# (perf_gate history-changes), the one found in reduce7 bisected to its commit (scripts/bisect.sh, A/B
# verdicts), and the export the dashboard draws (scripts/dashboard.sh).
#
#   history_check.sh OUTDIR [--commits N] [--ramp-start R] [--benchmark NAME] [--bisect-tolerance-pct X]
#
# Writes into OUTDIR: history.sqlite, changes.json (the series export with change points), bisect.json and
# bisect.log, runs/<i>/ (each run's results and reports), history_check.log (one line per commit: its
# verdict for the benchmark and its median). Exit: 0 when a change point was found in the benchmark within
# the ramp and the bisection named a commit of the ramp; 1 when not; 2 bad usage or a failed step; 77 no GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"

(($#)) || die "$EXIT_INVALID" "usage: $0 OUTDIR [options] (see the header)"
out=$(out_folder "$1") || exit "$EXIT_INVALID"
shift
commits=20 ramp_start=12 benchmark="reduction/reduce7_many_elements_per_thread/n:268435456" bisect_tolerance=0.5
while (($#)); do
  case "$1" in
    --commits) need_value "$@"; commits=$2; shift 2 ;;
    --ramp-start) need_value "$@"; ramp_start=$2; shift 2 ;;
    --benchmark) need_value "$@"; benchmark=$2; shift 2 ;;
    --bisect-tolerance-pct) need_value "$@"; bisect_tolerance=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ $commits =~ ^[0-9]+$ && $ramp_start =~ ^[0-9]+$ ]] || die "$EXIT_INVALID" "--commits and --ramp-start take whole numbers"
((ramp_start >= 2 && ramp_start + 4 <= commits)) ||
  die "$EXIT_INVALID" "the ramp (commits $ramp_start..$((ramp_start + 4))) must lie inside 2..$commits"
for tool in jq git patch cmake; do need_tool "$tool"; done
nvidia-smi >/dev/null 2>&1 || { echo "SKIPPED: no GPU (nvidia-smi failed)"; exit "$EXIT_NOT_JUDGED"; }

repo="$out/repo" build="$out/build" store="$out/history.sqlite" log="$out/history_check.log"
rm -rf "$repo" "$build" "$out/runs" "$store" "$log"
mkdir -p "$repo" "$out/runs"
# The scratch repository: this tree as its first commit (build folders and git metadata left out).
tar -C "$root" --exclude='./build*' --exclude='./.git' --exclude='./.gpusnap' -cf - . | tar -C "$repo" -xf -
git -C "$repo" init -q -b main
git -C "$repo" -c user.name=history-check -c user.email=history-check@localhost add -A
commit() { git -C "$repo" -c user.name=history-check -c user.email=history-check@localhost commit -q -a -m "$1"; }
git -C "$repo" -c user.name=history-check -c user.email=history-check@localhost commit -q -m "history check: the tree"
patch -p1 --fuzz=0 -s -d "$repo" <"$repo/kernels/reduction/planted_ramp.patch" ||
  die "$EXIT_INVALID" "kernels/reduction/planted_ramp.patch does not apply to this tree"
commit "reduce7: the planted ramp's hook (no cycles yet)"

cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
  -DGPUPERF_ONLY_FAMILIES=reduction -DGPUPERF_BUILD_TESTS=OFF >"$out/configure.log" 2>&1 ||
  die "$EXIT_INVALID" "configuring the scratch repository failed: $out/configure.log"
bench="$build/perf_tests/gpuperf_bench" gate="$build/perf_tests/gate/perf_gate"
uuid=""

cycles_per_pct=0
for ((i = 1; i <= commits; i++)); do
  if ((i > 1)); then
    if ((i >= ramp_start && i < ramp_start + 5)); then
      step=$((i - ramp_start + 1))
      sed -i "s/^constexpr long long kPlantedSpinCycles = .*;/constexpr long long kPlantedSpinCycles = $((step * cycles_per_pct));/" \
        "$repo/kernels/reduction/reduce7_many_elements_per_thread.cu"
      commit "reduce7: planted ramp, step $step of 5 (+1% of its time)"
    else
      echo "commit $i" >>"$repo/HISTORY_CHECK.md"
      git -C "$repo" add HISTORY_CHECK.md
      commit "history check: commit $i, no code change"
    fi
  fi
  cmake --build "$build" >"$out/build.log" 2>&1 || die "$EXIT_INVALID" "building commit $i failed: $out/build.log"
  [[ -n $uuid ]] || uuid=$(jq -r .uuid <<<"$(gpu_info "$bench")")
  runs="$out/runs/$i" rc=0
  bash "$root/scripts/perf_test.sh" --family reduction --bench "$bench" --gate "$gate" --baselines "$repo/baselines" \
    --out "$runs" --no-diagnosis >"$runs.log" 2>&1 || rc=$?
  ((rc == 0 || rc == EXIT_REGRESSION)) || die "$EXIT_INVALID" "the perf test of commit $i failed (exit $rc): $runs.log"
  sha=$(git -C "$repo" rev-parse --short=12 HEAD)
  "$gate" history-append --store "$store" --verdict "$runs/reduction.verdict.json" \
    --results "$runs"/reduction.run*.json "$runs/reduction.fingerprints.json" --commit "$sha" \
    --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --run-key "history-check/$i/$uuid" --runner "$(hostname)" >>"$out/append.log" 2>&1 ||
    die "$EXIT_INVALID" "appending run $i failed: $out/append.log"
  now=$(jq -r --arg b "$benchmark" '.benchmarks[] | select(.name == $b) | "\(.verdict) \(.current_median) \(.unit) \(.change_pct)%"' "$runs/reduction.verdict.json")
  echo "$i $sha $now" | tee -a "$log"
  if ((i == 1)); then  # 1% of the benchmark's time, in SM cycles at the clock it ran at
    cycles_per_pct=$(jq -s -r --arg b "$benchmark/iterations:1/manual_time" '
      [.[].benchmarks[] | select(.run_name == $b and .run_type == "iteration")] as $s
      | if ($s | length) == 0 then 0 else
          ($s | map(.real_time) | sort | .[length / 2 | floor]) as $us
          | ($s | map(.sm_clock_mhz) | sort | .[length / 2 | floor]) as $mhz
          | ($us * $mhz / 100 | floor) end' "$runs"/reduction.run*.json)
    ((cycles_per_pct > 0)) || die "$EXIT_INVALID" "no time of $benchmark in run 1 ($runs)"
    note "1% of $benchmark: $cycles_per_pct SM cycles"
  fi
done

slug=$(jq -r .slug <<<"$(gpu_info "$bench")")
"$gate" history-changes --store "$store" --gpu "$slug" --baseline "$repo/baselines/$slug.json" --json "$out/changes.json" \
  --markdown "$out/changes.md" >"$out/changes.log" 2>&1 || die "$EXIT_INVALID" "perf_gate history-changes failed: $out/changes.log"
cat "$out/changes.log"
read -r good bad < <(jq -r --arg b "$benchmark" \
  '.series[] | select(.benchmark == $b) | .change_points[-1] // empty | "\(.good_commit) \(.bad_commit)"' "$out/changes.json")
ramp_first=$(git -C "$repo" log --format=%h --abbrev=12 --grep='planted ramp, step 1 of 5' -n 1)
ramp_last=$(git -C "$repo" log --format=%h --abbrev=12 --grep='planted ramp, step 5 of 5' -n 1)
if [[ -z ${good:-} ]]; then
  echo "FAIL: no change point found in $benchmark (ramp: $ramp_first..$ramp_last)"
  exit "$EXIT_REGRESSION"
fi
note "change point in $benchmark between $good and $bad (ramp: $ramp_first..$ramp_last); bisecting"
rc=0
bash "$root/scripts/bisect.sh" --repo "$repo" --good "$good" --bad "$bad" --benchmark "$benchmark" \
  --work "$out/bisect" --json "$out/bisect.json" --tolerance-pct "$bisect_tolerance" \
  --cmake-args "-G Ninja -DGPUPERF_ONLY_FAMILIES=reduction -DGPUPERF_BUILD_TESTS=OFF" >"$out/bisect.log" 2>&1 || rc=$?
tail -n 5 "$out/bisect.log"
((rc == 0)) || die "$EXIT_INVALID" "scripts/bisect.sh failed (exit $rc): $out/bisect.log"
first_bad=$(jq -r .first_bad_commit "$out/bisect.json")
if git -C "$repo" merge-base --is-ancestor "$ramp_first" "$first_bad" && git -C "$repo" merge-base --is-ancestor "$first_bad" "$ramp_last"; then
  echo "PASS: the change point in $benchmark was bisected to $first_bad, $(git -C "$repo" log -1 --format=%s "$first_bad")"
  exit 0
fi
echo "FAIL: bisected to $first_bad, outside the ramp $ramp_first..$ramp_last"
exit "$EXIT_REGRESSION"
