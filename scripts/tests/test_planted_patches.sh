#!/usr/bin/env bash
# Every committed planted slowdown still applies to the code it slows, so that a change to that code fails
# here, on any host, not later in a GPU check:
#   kernels/reduction/planted_slowdown.patch  on this tree          (scripts/gpu_check.sh --planted-regression)
#   examples/consumer/planted_slowdown.patch  on examples/consumer/ (scripts/consumer_check.sh)
#   examples/gbench_suite/planted_slowdown.patch  on examples/gbench_suite/ (scripts/gbench_consumer_check.sh)
#   examples/nvbench_suite/planted_slowdown.patch on examples/nvbench_suite/ (scripts/nvbench_consumer_check.sh)
#   kernels/reduction/planted_ramp.patch      on this tree          (scripts/history_check.sh)
# Each is applied to a copy of the files it names, with patch -p1 and no fuzz: a patch that applies only
# with fuzz lands in changed code and must be regenerated. Then asserts that the reduce9 patch plants
# what gpu_check.sh says (at most 128 blocks), and that the check can fail: a copy of reduce9 whose
# launcher line changed must be refused. Last, that reduce7 still has the line scripts/timing_check.sh adds
# its one-line change after.
#   test_planted_patches.sh
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
command -v patch >/dev/null 2>&1 || { echo "SKIPPED: patch is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# copy_targets <patch> <tree> <copy>: copies into <copy> the files of <tree> that <patch> changes.
copy_targets() {
  local file
  while read -r file; do
    mkdir -p "$3/$(dirname "$file")"
    cp "$2/$file" "$3/$file" 2>/dev/null || true  # a file the patch names but the tree lacks: patch says so
  done < <(sed -n 's|^+++ b/||p' "$1")
}

# applies <patch> <tree>: true when <patch> applies to a copy of <tree> without fuzz; the copy stays in
# $work/applied for the caller to read.
applies() {
  rm -rf "$work/applied"
  mkdir -p "$work/applied"
  copy_targets "$1" "$2" "$work/applied"
  patch -d "$work/applied" -p1 --forward --batch --fuzz=0 -i "$1" >"$work/patch.log" 2>&1
}

reduce9=kernels/reduction/reduce9_shfl_down_last_warp.cu
# patch|the tree it applies to|the script that applies it
planted=("kernels/reduction/planted_slowdown.patch|$root|scripts/gpu_check.sh"
  "examples/consumer/planted_slowdown.patch|$root/examples/consumer|scripts/consumer_check.sh"
  "examples/gbench_suite/planted_slowdown.patch|$root/examples/gbench_suite|scripts/gbench_consumer_check.sh"
  "examples/nvbench_suite/planted_slowdown.patch|$root/examples/nvbench_suite|scripts/nvbench_consumer_check.sh"
  "kernels/reduction/planted_ramp.patch|$root|scripts/history_check.sh")
for entry in "${planted[@]}"; do
  IFS='|' read -r patch_file tree script <<<"$entry"
  if ! applies "$root/$patch_file" "$tree"; then
    cat "$work/patch.log"
    fail "$patch_file no longer applies to the code it slows ($script applies it): make its change by hand" \
      "and regenerate it with git diff"
  elif [[ $patch_file == kernels/reduction/planted_slowdown.patch ]] &&
    ! grep -q 'std::min<std::int64_t>(grid_stride_blocks(n), 128)' "$work/applied/$reduce9"; then
    fail "$patch_file does not cap reduce9's grid at 128 blocks, the regression $script describes"
  elif [[ $patch_file == kernels/reduction/planted_ramp.patch ]] &&
    ! grep -q '^constexpr long long kPlantedSpinCycles = 0;$' "$work/applied/kernels/reduction/reduce7_many_elements_per_thread.cu"; then
    fail "$patch_file has no 'constexpr long long kPlantedSpinCycles = 0;' line, which $script raises commit by commit"
  else
    echo "ok: $patch_file applies"
  fi
done

# The check can fail: reduce9 with its launcher line changed.
mkdir -p "$work/changed/$(dirname "$reduce9")"
sed 's/reduce_in_passes({grid_stride_blocks, launch}/reduce_in_passes({grid_blocks_renamed, launch}/' \
  "$root/$reduce9" >"$work/changed/$reduce9"
cmp -s "$root/$reduce9" "$work/changed/$reduce9" && fail "could not change reduce9's launcher line in the copy"
applies "$root/kernels/reduction/planted_slowdown.patch" "$work/changed" &&
  fail "the reduce9 patch applied to a reduce9 whose launcher line changed"

# scripts/timing_check.sh adds a line after this one of reduce7's kernel (a pull request's one-line change).
grep -q '^  const unsigned tid = threadIdx.x;$' "$root/kernels/reduction/reduce7_many_elements_per_thread.cu" ||
  fail "reduce7's kernel lost the line timing_check.sh adds its change after: update timing_check.sh"

((failures == 0)) && echo "planted patches: all checks passed"
((failures == 0))
