#!/usr/bin/env bash
# The name rule of perf_tests/formats/names.h, as the scripts and CMake read it: scripts/lib/name_rules.sh and
# cmake/GpuperfNameRules.cmake are what `perf_gate name-rules` writes now (else: the command that rewrites
# them), and bash's =~, jq's test() and CMake's MATCHES, anchored as the files say, take and refuse the same
# names as the gate on edge cases. Then the places that used to type the rule: bisect.sh, update_baseline.sh
# --suite, phases.sh and KernelFamily.cmake hold a name to the whole rule (its length too).
#   test_name_rules.sh PERF_GATE CMAKE
set -uo pipefail
gate=$1 cmake=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/test_name_rules.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

# 1. The checked-in files are the gate's output.
for language in shell cmake; do
  file=$([[ $language == shell ]] && echo scripts/lib/name_rules.sh || echo cmake/GpuperfNameRules.cmake)
  if ! "$gate" name-rules "--$language" >"$scratch/$language.out"; then
    fail "perf_gate name-rules --$language failed"
  elif ! diff -u "$root/$file" "$scratch/$language.out" >"$scratch/$language.diff"; then
    fail "$file is not what perf_gate name-rules --$language writes now; rewrite it:"
    echo "    perf_gate name-rules --$language > $file"
    sed 's/^/    /' "$scratch/$language.diff"
  fi
done

# 2. Every engine agrees with the rule: "<kind> <valid 0/1> <name>" (names without a newline; those follow).
source "$root/scripts/lib/common.sh"
long() { printf "%$1s" '' | tr ' ' "$2"; }
cases=(
  "benchmark 1 reduction/reduce9_shfl_down_last_warp/n:33554432" "benchmark 1 gemm/v01/m:1000,n:1001,k:999"
  "benchmark 1 fam/.." "benchmark 1 fam/a:b,c.d-e_f" "benchmark 0 fam" "benchmark 0 fam/" "benchmark 0 fam//x"
  "benchmark 0 /x" "benchmark 0 1fam/x" "benchmark 0 _fam/x" "benchmark 0 fam/a\`b" "benchmark 0 fam/a|b"
  "benchmark 0 fam/a b" "benchmark 0 fam/é" "benchmark 0 fam/a<b" "benchmark 0 ."
  "benchmark 1 $(long 48 f)/x" "benchmark 0 $(long 49 f)/x"
  "benchmark 1 fam/$(long 156 x)" "benchmark 0 fam/$(long 157 x)"
  "family 1 smem_latency" "family 1 a" "family 0 smem-latency" "family 0 1abc" "family 0 _a" "family 0 é"
  "family 1 $(long 48 f)" "family 0 $(long 49 f)" "family 0 .." "family 0 a.b"
  "gpu 1 NVIDIA H100 80GB HBM3" "gpu 1 NVIDIA A100-SXM4-40GB MIG 1g.5gb" "gpu 1 H" "gpu 0 NVIDIA H200 "
  "gpu 0  NVIDIA H200" "gpu 0 NVIDIA \`H200\`" "gpu 0 NVIDIA <b>H200</b>" "gpu 0 NVIDIA H200|x" "gpu 0 NVIDIA É"
  "gpu 1 NVIDIA $(long 89 H)" "gpu 0 NVIDIA $(long 90 H)"
  "slug 1 nvidia-h100-80gb-hbm3" "slug 1 nvidia-a100-sxm4-40gb-mig-1g.5gb" "slug 0 nvidia-h200-" "slug 0 -nvidia"
  "slug 0 Nvidia-h200" "slug 0 nvidia/h200" "slug 0 ." "slug 0 .." "slug 0 nvidia h200"
  "slug 1 nvidia-$(long 89 h)" "slug 0 nvidia-$(long 90 h)"
)
newline=$'\n'
# A trailing newline never passes (bash's $ is the end of the string, jq's \z, CMake's $).
cases+=("benchmark 0 fam/x$newline" "family 0 fam$newline" "gpu 0 NVIDIA H200$newline" "slug 0 nvidia-h200$newline")
rule_of() {  # sets rule and max_length (a GPU name's rule holds a space)
  case $1 in
    benchmark) rule=$GPUPERF_BENCHMARK_NAME_RULE max_length=$GPUPERF_MAX_BENCHMARK_NAME_LENGTH ;;
    family) rule=$GPUPERF_FAMILY_NAME_RULE max_length=$GPUPERF_MAX_FAMILY_NAME_LENGTH ;;
    gpu) rule=$GPUPERF_GPU_NAME_RULE max_length=$GPUPERF_MAX_GPU_NAME_LENGTH ;;
    slug) rule=$GPUPERF_GPU_SLUG_RULE max_length=$GPUPERF_MAX_GPU_SLUG_LENGTH ;;
  esac
}
cmake_kind() { case $1 in family) echo FAMILY_NAME ;; gpu) echo GPU_NAME ;; slug) echo GPU_SLUG ;; esac; }
echo "include(\"$root/cmake/GpuperfNameRules.cmake\")" >"$scratch/check.cmake"
cat >>"$scratch/check.cmake" <<'EOF'
function(check kind expected name)
  string(LENGTH "${name}" length)
  set(valid 0)
  if(name MATCHES "^(${GPUPERF_${kind}_RULE})$" AND NOT length GREATER GPUPERF_MAX_${kind}_LENGTH)
    set(valid 1)
  endif()
  if(NOT valid EQUAL expected)
    message("FAIL: CMake: ${kind} [${name}]: ${valid}, not ${expected}")
  endif()
endfunction()
EOF
checked=0
for entry in "${cases[@]}"; do
  kind=${entry%% *} rest=${entry#* }
  expected=${rest%% *} name=${rest#* }
  rule_of "$kind"
  valid=0
  [[ $name =~ ^($rule)$ && ${#name} -le $max_length ]] && valid=1
  ((valid == expected)) || fail "bash: $kind [$name]: $valid, not $expected"
  valid=$(jq -rn --arg name "$name" --arg rule "$rule" --argjson max_length "$max_length" \
    '$name | if test("\\A(" + $rule + ")\\z") and length <= $max_length then 1 else 0 end')
  [[ $valid == "$expected" ]] || fail "jq: $kind [$name]: $valid, not $expected"
  # CMake has no benchmark name; a newline cannot be written into a CMake string literal here.
  if [[ $kind != benchmark && $name != *"$newline" ]]; then
    echo "check($(cmake_kind "$kind") $expected \"$name\")" >>"$scratch/check.cmake"
  fi
  checked=$((checked + 1))
done
printf 'check(FAMILY_NAME 0 "fam\\n")\n' >>"$scratch/check.cmake"  # CMake's \n: a newline
"$cmake" -P "$scratch/check.cmake" >"$scratch/cmake.log" 2>&1 || fail "cmake -P failed: $(cat "$scratch/cmake.log")"
grep -q FAIL "$scratch/cmake.log" && fail "$(cat "$scratch/cmake.log")"
echo "$checked names in bash and jq, those of families and GPUs in CMake"

# 3. The places that typed the rule hold the whole of it.
name_161="fam/$(long 157 x)"
out=$(bash "$root/scripts/bisect.sh" --good a --bad b --benchmark "$name_161" 2>&1)
rc=$?
[[ $rc == 2 && $out == *"is not a benchmark name"* ]] || fail "bisect.sh took a 161-character benchmark name (rc $rc): $out"
mkdir -p "$scratch/build/gpuperf-suites"
out=$(bash "$root/scripts/update_baseline.sh" --build-dir "$scratch/build" --suite 1saxpy 2>&1)
rc=$?
[[ $rc == 2 && $out == *"is not a suite's name"* ]] || fail "update_baseline.sh took the suite 1saxpy (rc $rc): $out"
# phases.sh after common.sh (as ci/build.sh sources them): the rules once, read-only; a 49-character family
# writes no phase file.
out=$(bash -c "set -euo pipefail; source '$root/scripts/lib/common.sh'; source '$root/scripts/lib/phases.sh'
  write_phase_file '$scratch/phases' perf_test '$(long 48 f)' 1 2 && echo wrote48
  write_phase_file '$scratch/phases' perf_test '$(long 49 f)' 1 2 || echo refused49" 2>&1)
[[ $out == $'wrote48\nrefused49' ]] || fail "phases.sh after common.sh: $out"
# KernelFamily.cmake included from a function (find_package in a function): the length is still checked.
cat >"$scratch/scope.cmake" <<EOF
function(load_kernel_family)
  include("$root/cmake/KernelFamily.cmake")
endfunction()
load_kernel_family()
_gpuperf_check_name("gpuperf_add_family($(long 49 f))" family "$(long 49 f)" "the tests")
EOF
out=$("$cmake" -P "$scratch/scope.cmake" 2>&1)
rc=$?
[[ $rc != 0 && $out == *"at most 48 characters"* ]] || fail "KernelFamily.cmake took a 49-character family name (rc $rc): $out"

((failed == 0)) && echo "name rules: the checked-in files are perf_gate name-rules' output; every engine agrees"
exit "$failed"
