#!/usr/bin/env bash
# Stands in for a team's nvbench binary in the tests of perf_gate run --format nvbench, on machines without
# a GPU: writes what nvbench writes with --jsonbin FILE (JSON file version 1.0.0: its devices, benchmarks
# and states, each state's cold GPU sample times as little-endian float32 seconds in FILE-bin/N.bin, named
# relative to FILE) for three states:
#   copy_sweep  T=F32 BlockSize=2^6, T=F32 BlockSize=2^8  (a type axis and a power-of-two axis)
#   scan        (no axes)
# shaped by environment variables:
#   FAKE_SLOWDOWN_PCT=X   every sample X% slower
#   FAKE_SLOW_NAME=REGEX  only the states whose "<benchmark> <state name>" matches it are (default: all)
#   FAKE_CRASH=1          die of SIGSEGV before writing anything
#   FAKE_DEVICE_NAME=S    the device's name (default "NVIDIA H100 80GB HBM3")
#   FAKE_ARGS_LOG=FILE    append each run's arguments to FILE
#   FAKE_SPREAD_PCT=X     process n (counted in FAKE_ARGS_LOG) X% faster, as fast or X% slower, n mod 3
#   FAKE_CHANGED_GRID=N   the states FAKE_SLOW_NAME matches launch their kernel on N blocks, not 1056
# Run with CUDA_INJECTION64_PATH and GPUPERF_FINGERPRINT_OUT set and --profile (a capture process of
# perf_gate), it writes instead what the capture library would: the fingerprint of the selected state.
# It takes --devices 0, --min-samples N (the samples a state gets), --jsonbin FILE, and --benchmark NAME
# each followed by --axis NAME=VALUE options (a state runs where one --benchmark and all its --axis
# options match it; every state where no --benchmark is given), as nvbench's command line does.
set -euo pipefail
[[ -n ${FAKE_ARGS_LOG:-} ]] && echo "$*" >>"$FAKE_ARGS_LOG"
out="" samples=10 devices="" selections=() profile=0
while (($#)); do
  case "$1" in
    --profile) profile=1; shift ;;
    --jsonbin) out=$2; shift 2 ;;
    --min-samples) samples=$2; shift 2 ;;
    --devices) devices=$2; shift 2 ;;
    --benchmark) selections+=("$2|"); shift 2 ;;
    --axis) selections[-1]+="$2|"; shift 2 ;;
    *) shift ;;
  esac
done
if [[ -n ${GPUPERF_FINGERPRINT_OUT:-} && -f ${CUDA_INJECTION64_PATH:-} && $profile == 1 ]]; then
  case "${selections[*]}" in  # the state's "<benchmark> <state name>", as FAKE_SLOW_NAME matches it
    *BlockSize=64*) id="copy_sweep Device=0 T=F32 BlockSize=2^6" ;;
    *BlockSize=256*) id="copy_sweep Device=0 T=F32 BlockSize=2^8" ;;
    *) id="scan Device=0" ;;
  esac
  grid=1056
  [[ -n ${FAKE_CHANGED_GRID:-} && $id =~ ${FAKE_SLOW_NAME:-.} ]] && grid=$FAKE_CHANGED_GRID
  jq -n --arg id "$id" --argjson grid "$grid" '
    {schema: 2, capture_status: "cupti", libraries: {cuda_runtime: "13.0.96"},
     kernels: [{name: "kernel(\($id))", mangled_name: "_Zkernel", grid: [$grid, 1, 1], block: [256, 1, 1],
                dynamic_shared_memory_bytes: 0, registers_per_thread: 16, static_shared_memory_bytes: 0,
                local_memory_per_thread_bytes: 0, sass_hash: "0123456789abcdef", launches: 1}],
     copies: []}' >"$GPUPERF_FINGERPRINT_OUT"
  exit 0
fi
[[ -n $out ]] || { echo "fake_nvbench: give --jsonbin FILE" >&2; exit 2; }
[[ $devices == 0 ]] || { echo "fake_nvbench: give --devices 0 (the fake has one GPU)" >&2; exit 2; }
[[ -n ${FAKE_CRASH:-} ]] && kill -SEGV $$
offset=0
if [[ -n ${FAKE_SPREAD_PCT:-} ]]; then
  process=$(wc -l <"$FAKE_ARGS_LOG")
  offset=$((process % 3 - 1))
fi

# selected <benchmark> <axis=value...>: whether a --benchmark option (and all its --axis ones) selects it.
selected() {
  local bench=$1 selection wanted
  shift
  ((${#selections[@]})) || return 0
  for selection in "${selections[@]}"; do
    IFS='|' read -r -a wanted <<<"$selection"
    [[ ${wanted[0]} == "$bench" ]] || continue
    local axis all=1
    for axis in "${wanted[@]:1}"; do
      [[ " $* " == *" $axis "* ]] || all=0
    done
    ((all)) && return 0
  done
  return 1
}

bin="$out-bin" states="[]" index=0
rm -rf "$bin"
mkdir -p "$bin"
# add_state <benchmark> <state name> <base time [s]> <axis json> <axis=value...>
add_state() {
  local bench=$1 name=$2 base=$3 axes=$4 scale file
  shift 4
  selected "$bench" "$@" || return 0
  scale=$(jq -n --argjson offset "$offset" --argjson spread "${FAKE_SPREAD_PCT:-0}" \
    --argjson slow "${FAKE_SLOWDOWN_PCT:-0}" --arg id "$bench $name" --arg slow_name "${FAKE_SLOW_NAME:-.}" \
    '(1 + $offset * $spread / 100) * (if $id | test($slow_name) then 1 + $slow / 100 else 1 end)')
  file="$(basename "$out")-bin/$index.bin"
  # shellcheck disable=SC2016  # perl's own variables
  perl -e 'my ($n, $base, $scale) = @ARGV;
           print pack("f<*", map { $base * $scale * (1 + (($_ * 7919) % 11 - 5) / 2000) } 0 .. $n - 1)' \
    "$samples" "$base" "$scale" >"$bin/$index.bin"
  states=$(jq --arg bench "$bench" --arg name "$name" --argjson axes "$axes" --arg file "$file" \
    --arg size "$samples" --argjson mean "$(jq -n "$base * $scale")" '
    . + [{bench: $bench, state: {name: $name, device: 0, axis_values: $axes, is_skipped: false, summaries: [
      {tag: "nv/cold/sample_size", data: [{name: "value", type: "int64", value: $size}]},
      {tag: "nv/cold/time/gpu/mean", data: [{name: "value", type: "float64", value: ($mean | tostring)}]},
      {tag: "nv/json/bin:nv/cold/sample_times",
       data: [{name: "filename", type: "string", value: $file}, {name: "size", type: "int64", value: $size}]}]}}]' \
    <<<"$states")
  index=$((index + 1))
}
add_state copy_sweep "Device=0 T=F32 BlockSize=2^6" 20e-6 \
  '[{"name": "T", "type": "string", "value": "F32"}, {"name": "BlockSize", "type": "int64", "value": "64"}]' \
  T=F32 BlockSize=64
add_state copy_sweep "Device=0 T=F32 BlockSize=2^8" 18e-6 \
  '[{"name": "T", "type": "string", "value": "F32"}, {"name": "BlockSize", "type": "int64", "value": "256"}]' \
  T=F32 BlockSize=256
add_state scan "Device=0" 50e-6 'null'

jq -n --argjson states "$states" --arg device "${FAKE_DEVICE_NAME:-NVIDIA H100 80GB HBM3}" '
  {meta: {version: {json: {major: 1, minor: 0, patch: 0, string: "1.0.0"},
                    nvbench: {major: 0, minor: 1, patch: 0, string: "0.1.0"}}},
   devices: [{id: 0, name: $device, sm_version: 900, number_of_sms: 132, global_memory_size: 85520809984}],
   benchmarks: ($states | group_by(.bench) | to_entries
                | map({name: .value[0].bench, index: .key, devices: [0], states: [.value[].state]}))}' >"$out"
echo "wrote $out"
