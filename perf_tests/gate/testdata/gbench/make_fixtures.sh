#!/usr/bin/env bash
# Writes this folder's Google Benchmark fixtures with a real run of fixture_suite.cpp (Debian's
# libbenchmark-dev; 1.7.1 wrote the committed ones). The manual-time samples are fixed by the suite, the
# real-time ones are whatever this machine measured: the tests assert only what the suite fixes.
#   make_fixtures.sh            (from anywhere; needs g++ and libbenchmark-dev)
# Exit: 0 written, 1 the build or the run failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
g++ -O2 -std=c++17 "$here/fixture_suite.cpp" -lbenchmark -lpthread -o "$scratch/fixture_suite"
# Five repetitions, aggregates included (the gate must leave them out); one run without repetitions.
"$scratch/fixture_suite" --benchmark_min_time=0.01 --benchmark_repetitions=5 \
  --benchmark_out="$scratch/repetitions.json" --benchmark_out_format=json >/dev/null
"$scratch/fixture_suite" --benchmark_min_time=0.01 \
  --benchmark_out="$scratch/single.json" --benchmark_out_format=json >/dev/null
# The host's name and load say nothing the tests need: blanked, so that a regeneration shows only what changed.
for f in repetitions single; do
  python3 - "$scratch/$f.json" "$here/$f.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["context"]["host_name"] = "fixture-host"
doc["context"]["executable"] = "./fixture_suite"
doc["context"]["date"] = "2026-01-01T00:00:00+00:00"
doc["context"]["load_avg"] = []
json.dump(doc, open(sys.argv[2], "w"), indent=2)
open(sys.argv[2], "a").write("\n")
PY
done
echo "wrote $here/repetitions.json and $here/single.json"
