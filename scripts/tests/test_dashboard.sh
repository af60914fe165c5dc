#!/usr/bin/env bash
# The history dashboard (scripts/dashboard.sh, dashboard/), built from two fixture exports
# (fixtures/dashboard/: an H100 with a step change point, a baseline re-recording, a code change, a
# same-code ledger and a benchmark named like an HTML element; an H200 with flat series) and drawn in
# headless Chromium from file://: every view draws with no script error and loads only its own data file
# (the index holds each GPU model's families with their counts), each chart's series and markers are in
# the DOM as the data says, the hostile name is text and never an element, and a PNG screenshot is
# written. A bad export (a third fixture: perf_gate's export of medians 10^-289 and 10^291, whose change
# is infinite, written null) is refused alone: exit 2, its GPU model named on the console and on the
# index, the others written; a bad ledger (a null tally) is left out of its GPU's page, and a tally that
# is not one reads "no tally" on the page. SITE_DIR is replaced only when empty or a site dashboard.sh
# wrote; a run that writes nothing leaves it as it was. A synthetic export of the suite's shape
# (fixtures/dashboard/synthetic_export.sh) is split so that no page loads a sixth of it.
#   test_dashboard.sh [SCREENSHOT.png]   (the screenshot is kept there for a CI artifact)
# Exit 77 (skipped) without Chromium: bash scripts/install_deps.sh --with-browser. GPUPERF_CHROMIUM names
# the browser to use.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
screenshot_out=${1:-}
browser=${GPUPERF_CHROMIUM:-}
if [[ -z $browser ]]; then
  for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then browser=$name; break; fi
  done
fi
[[ -n $browser ]] || { echo "SKIPPED: no Chromium (chromium, chromium-browser or google-chrome) on PATH: bash scripts/install_deps.sh --with-browser"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "SKIPPED: jq is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fixtures="$here/fixtures/dashboard"
h100="$fixtures/history-nvidia-h100-step-rerecord-code-change-hostile-name.json"
h200="$fixtures/history-nvidia-h200-flat.json"
absurd="$fixtures/history-nvidia-h200-absurd-medians-infinite-change.json"
hostile='x/<img src=x onerror=alert(1)>/n:1'
passed=0 failed=0
check() {  # check <description> <command...>
  if "${@:2}" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
dashboard() { bash "$root/scripts/dashboard.sh" "$@" >"$work/out.log" 2>&1; }

# Nothing valid: exit 2, a message naming the file and the fault, nothing written.
jq '.schema_version = 2' "$h100" >"$work/v2.json"
dashboard --out "$work/none" "$work/v2.json"
check "an export of another schema_version exits 2" test $? -eq 2
check "and says which file and which version" grep -q "v2.json is not a series export.*schema_version is 2, this dashboard reads 1" "$work/out.log"
check "and with no other export writes no site" test ! -e "$work/none"
echo '{"schema_version": 1, "gpu_slug": "x", "series": [{"benchmark": "a/b", "unit": "us", "points": [{"value": "fast"}]}]}' >"$work/bad-point.json"
dashboard --out "$work/none" "$work/bad-point.json"
check "a point without a numeric value exits 2 naming the benchmark" bash -c "(($? == 2)) && grep -q 'series\[0\] (a/b): a point lacks a numeric value' '$work/out.log'"
echo '{"schema_version": 1,' >"$work/truncated.json"
dashboard --out "$work/none" "$work/truncated.json"
check "a file that is not JSON exits 2" bash -c "(($? == 2)) && grep -q 'truncated.json: not valid JSON' '$work/out.log'"
dashboard --out "$work/none" "$h100" "$h100"
check "two exports of one GPU exit 2" bash -c "(($? == 2)) && grep -q \"both hold GPU 'nvidia-h100-80gb-hbm3'\" '$work/out.log' && test ! -e '$work/none'"
dashboard "$h100"
check "no --out exits 2" test $? -eq 2

# The site: the app, the vendored library with its licence, the index as a script, each GPU model's
# export split per family in data/.
dashboard --out "$work/site" "$h100" "$h200"
check "the site is written" test $? -eq 0
check "it holds the page, its script, the data and uPlot with its licence" bash -c \
  "cd '$work/site' && test -f index.html -a -f app.js -a -f style.css -a -f data.js -a -d data -a -f vendor/uplot-1.6.32/uPlot.iife.min.js -a -f vendor/uplot-1.6.32/LICENSE"
check "the page loads nothing from the network" bash -c "! grep -Eq '(src|href)=\"(https?:)?//' '$work/site/index.html'"
site_index() { sed -n 's/^window.GPUPERF_HISTORY_INDEX = \(.*\);$/\1/p' "$1/data.js"; }
export -f site_index
site_index "$work/site" >"$work/index.json"
check "the data is both exports" jq -e '[.gpus[].gpu_slug] == ["nvidia-h100-80gb-hbm3", "nvidia-h200"]' "$work/index.json"
check "the index lists each GPU model's families with their counts" jq -e '
  [.gpus[0].families[] | [.family, .benchmarks, .runs, .change_points, .drifting]] ==
    [["matmul", 1, 8, 0, 0], ["reduction", 2, 8, 1, 1], ["x", 1, 4, 0, 0]]
  and .gpus[0].benchmarks == 4 and .gpus[1].benchmarks == 2 and .refused == []' "$work/index.json"
check "each family and each GPU page is a data file of its own, holding only its series" bash -c "
  cd '$work/site' && files=\$(jq -r '.gpus[] | .summary, .families[].file' '$work/index.json') &&
  test \$(sort -u <<<\"\$files\" | wc -l) -eq 7 && test \$(ls data | wc -l) -eq 7 &&
  file=\$(jq -r '.gpus[0].families[1].file' '$work/index.json') && test -f \"\$file\" &&
  test \$(grep -o '\"benchmark\":' \"\$file\" | wc -l) -eq 2 && ! grep -q matmul \"\$file\""

# SITE_DIR: replaced whole only when it is a site dashboard.sh wrote or an empty folder; never left half.
echo stale >"$work/site/stale"
dashboard --out "$work/site" "$h100" "$h200"
check "a site it wrote is replaced whole" bash -c "(($? == 0)) && test -f '$work/site/.gpuperf-dashboard' -a ! -e '$work/site/stale'"
mkdir -p "$work/photos" && echo keep >"$work/photos/holiday.jpg"
dashboard --out "$work/photos" "$h100"
check "an unrelated folder is refused, exit 2, and says so" bash -c "(($? == 2)) && grep -q 'photos is a folder that dashboard.sh did not write' '$work/out.log'"
check "and left as it was" bash -c "test \"\$(ls -A '$work/photos')\" = holiday.jpg && grep -qx keep '$work/photos/holiday.jpg'"
echo keep >"$work/a-file"
dashboard --out "$work/a-file" "$h100"
check "a file in its place is refused and kept" bash -c "(($? == 2)) && grep -qx keep '$work/a-file'"
mkdir -p "$work/empty"
dashboard --out "$work/empty" "$h200"
check "an empty folder is written" bash -c "(($? == 0)) && test -f '$work/empty/index.html'"
mkdir -p "$work/older" && echo '// Written by scripts/dashboard.sh from 1 series export(s); read by app.js.' >"$work/older/data.js"
dashboard --out "$work/older" "$h200"
check "a site of an older dashboard.sh (no marker) is replaced" bash -c "(($? == 0)) && test -f '$work/older/.gpuperf-dashboard'"
cp -a "$work/site" "$work/site-before"
dashboard --out "$work/site" "$work/v2.json" "$work/truncated.json"
check "a run that writes nothing leaves the site as it was" bash -c "(($? == 2)) && diff -r '$work/site' '$work/site-before'"
check "nothing half-written beside the sites" test -z "$(find "$work" -maxdepth 1 -name '.dashboard*')"

# One bad export refuses its GPU model alone: an H200 whose medians were 10^-289 and 10^291 (a real
# export of perf_gate: the change is infinite, written null). The H100's pages are written.
dashboard --out "$work/partial" "$h100" "$absurd"
check "an export with an infinite change exits 2" test $? -eq 2
check "and the console names the file, the series and the fault" grep -q \
  "absurd-medians-infinite-change.json is not a series export.*series\[0\] (reduction/reduce1_interleaved_divergent/n:1048576): change_points\[0\]: change_pct is null, not a finite number.*GPU 'nvidia-h200' is left out" "$work/out.log"
site_index "$work/partial" >"$work/partial.json"
check "the other GPU model is written, the refused one is in the index with why" jq -e '
  [.gpus[].gpu_slug] == ["nvidia-h100-80gb-hbm3"] and (.refused | length) == 1 and .refused[0].gpu_slug == "nvidia-h200"
  and (.refused[0].file | endswith("absurd-medians-infinite-change.json"))
  and (.refused[0].message | test("change_pct is null"))' "$work/partial.json"
dashboard --out "$work/partial-missing" "$h200" "$work/no-such-export.json"
check "a missing export is refused alone too" bash -c "(($? == 2)) && grep -q 'no-such-export.json: no such readable file' '$work/out.log' && test -f '$work/partial-missing/data.js'"

# dashboard_from_store.sh: a GPU model whose history-changes fails is left out, with perf_gate's words.
mkdir -p "$work/baselines" && echo '{}' >"$work/baselines/nvidia-h100-80gb-hbm3.json" && echo '{}' >"$work/baselines/nvidia-h200.json"
cat >"$work/fake_gate.sh" <<FAKE
#!/usr/bin/env bash
# history-changes --store S --gpu SLUG --baseline B --json OUT: the H200 fixture, or a failure for the H100.
[[ \$4 == nvidia-h200 ]] || { echo "perf_gate: the store cannot be read" >&2; exit 2; }
cp '$h200' "\$8"
FAKE
chmod +x "$work/fake_gate.sh"
bash "$root/scripts/dashboard_from_store.sh" "$work/fake_gate.sh" store "$work/baselines" "$work/from-store" >"$work/out.log" 2>&1
check "a GPU model whose export fails is left out of the store's site, exit 2" bash -c "(($? == 2)) &&
  site_index '$work/from-store' | jq -e '[.gpus[].gpu_slug] == [\"nvidia-h200\"] and .refused[0].gpu_slug == \"nvidia-h100-80gb-hbm3\"
    and .refused[0].message == \"perf_gate history-changes failed (exit 2): perf_gate: the store cannot be read\"'"

# A ledger that is not one (a null tally) is left out of its GPU model's page, the rest written.
jq '.ledger.gpus["nvidia-h100-80gb-hbm3"].compare = null' "$h100" >"$work/null-tally.json"
dashboard --out "$work/ledger-site" "$work/null-tally.json" "$h200"
check "a null tally exits 2, naming the file and the tally" bash -c \
  "(($? == 2)) && grep -q 'null-tally.json: ledger.gpus\[\"nvidia-h100-80gb-hbm3\"\]\[\"compare\"\] is null: a tally is an object' '$work/out.log'"
check "and both GPU models are written" bash -c "site_index '$work/ledger-site' | jq -e '[.gpus[].gpu_slug] == [\"nvidia-h100-80gb-hbm3\", \"nvidia-h200\"]'"
# load <name> <fragment> [extra options...]: the DOM after the page ran, in $work/<name>.html, its log in .log.
load() {
  local name=$1 fragment=$2
  shift 2
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --user-data-dir="$work/profile-$name" \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 --window-size=1200,1400 "$@" \
    "file://$site/index.html#$fragment" >"$work/$name.html" 2>"$work/$name.log"
}
# A view drew without a script error: its data-ready is set, its error counter 0, and Chromium logged
# no uncaught error, console error or refused load (the page's Content-Security-Policy).
drew_cleanly() {
  grep -q 'data-ready="1"' "$work/$1.html" && grep -q 'data-errors="0"' "$work/$1.html" &&
    ! grep -Eq 'Uncaught|ERROR:CONSOLE|Refused to' "$work/$1.log"
}
sections() { grep -o '<section class="series"[^>]*>' "$work/$1.html"; }
export -f sections drew_cleanly
export work
gpu_query="gpu=nvidia-h100-80gb-hbm3"
hostile_query=$(jq -rn --arg b "$hostile" '$b | @uri')
site="$work/site"

load overview "" --dump-dom
check "the overview draws cleanly" drew_cleanly overview
check "the overview lists both GPUs" bash -c "grep -o 'href=\"#gpu=nvidia-h[0-9a-z-]*\"' '$work/overview.html' | sort -u | wc -l | grep -qx 2"

load gpu "$gpu_query" --dump-dom
check "the GPU view draws cleanly" drew_cleanly gpu
check "it links each family" bash -c "grep -q 'family=matmul' '$work/gpu.html' && grep -q 'family=reduction' '$work/gpu.html' && grep -q 'family=x\"' '$work/gpu.html'"
check "it shows the same-code ledger's counts" grep -q '<table class="ledger">.*<td>compare</td>.*<td>107</td>' "$work/gpu.html"
check "it lists the change point with its commit range and change" grep -q 'change point a100004000..a100005000: +3.0%' "$work/gpu.html"

load family "$gpu_query&family=reduction" --dump-dom
check "the family view draws cleanly" drew_cleanly family
check "it draws the family's two series, on canvases" bash -c "test \$(grep -o '<section class=\"series\"' '$work/family.html' | wc -l) -eq 2 && test \$(grep -o '<canvas' '$work/family.html' | wc -l) -eq 2"
check "reduce7: 8 runs, the change point, the baseline re-recording, no code change" bash -c "sections family | grep 'reduce7' | grep -q 'data-points=\"8\" data-change-points=\"1\" data-baseline-changes=\"1\" data-code-changes=\"0\"'"
check "reduce9: 8 runs, only the code change" bash -c "sections family | grep 'reduce9' | grep -q 'data-points=\"8\" data-change-points=\"0\" data-baseline-changes=\"0\" data-code-changes=\"1\"'"
check "the markers are listed: the change point between its runs, the re-recording, the code change" bash -c "
  grep -q '<li data-kind=\"change-point\" data-index=\"5\"' '$work/family.html' &&
  grep -q '<li data-kind=\"baseline\" data-index=\"6\"' '$work/family.html' &&
  grep -q '<li data-kind=\"code\" data-index=\"3\"' '$work/family.html'"
check "the drift beyond tolerance is said" grep -q 'class="drift beyond">drift since the baseline of 2026-11-01T00:00:00Z: 255.00 -&gt; 262.80 us (+3.1%, tolerance 2.0%)' "$work/family.html"
check "the y axis says it is not from zero, with its unit" grep -q 'y: us, not from zero' "$work/family.html"

load h200 "gpu=nvidia-h200&family=matmul" --dump-dom
check "the other GPU's family view draws its one flat series, no marker" bash -c "sections h200 | grep -q 'data-gpu=\"nvidia-h200\" data-benchmark=\"matmul/tiled_32/n:512\" data-points=\"5\" data-change-points=\"0\"' && grep -q 'data-kind=\"none\"' '$work/h200.html'"
check "and draws cleanly" drew_cleanly h200

load hostile "$gpu_query&benchmark=$hostile_query" --dump-dom
check "the hostile benchmark's view draws cleanly" drew_cleanly hostile
check "its name is an attribute value and text" bash -c "grep -q 'data-benchmark=\"x/&lt;img src=x onerror=alert(1)&gt;/n:1\"' '$work/hostile.html' && grep -q '>x/&lt;img src=x onerror=alert(1)&gt;/n:1<' '$work/hostile.html'"
check "and never an element: no <img> in the page" bash -c "! grep -qi '<img' '$work/hostile.html'"
check "its runs are tabled" bash -c "grep -o '<tr><td>2026-11-1[0-3]T17:05:38Z</td>' '$work/hostile.html' | wc -l | grep -qx 4"

# Each view loads only its data: the overview none, a GPU page its own part, a family its family's.
check "the overview loads no data file" bash -c "! grep -q 'data-parts=' '$work/overview.html'"
check "the GPU view loads its part only" grep -q "data-parts=\"$(jq -r '.gpus[0].summary' "$work/index.json")\"" "$work/gpu.html"
check "the family view loads its family's file only" grep -q "data-parts=\"$(jq -r '.gpus[0].families[1].file' "$work/index.json")\"" "$work/family.html"
bash "$fixtures/synthetic_export.sh" 40 9 12 >"$work/synthetic.json"
dashboard --out "$work/synthetic-site" "$work/synthetic.json"
check "a suite's export (108 benchmarks, 9 families) is split: no data file holds a sixth of it" bash -c "
  (($? == 0)) && test \$(find '$work/synthetic-site/data' '$work/synthetic-site/data.js' -type f -printf '%s\n' | sort -n | tail -n 1) -lt \$((\$(jq -c . '$work/synthetic.json' | wc -c) / 6))"
site="$work/synthetic-site" load synthetic "gpu=nvidia-h100-80gb-hbm3&family=family04" --dump-dom
check "and its family view draws the family's 12 series" bash -c "drew_cleanly synthetic && test \$(sections synthetic | grep -c 'data-points=\"40\"') -eq 12"

# A refused export: the index says which file and why, its GPU's page says so, the others draw.
site="$work/partial" load partial-overview "" --dump-dom
check "with an export refused, the overview draws cleanly" drew_cleanly partial-overview
check "and lists the refused GPU with its file and what is wrong" bash -c "
  grep -q '<tr data-refused-gpu=\"nvidia-h200\"><td>nvidia-h200</td><td class=\"refused\">[^<]*absurd-medians-infinite-change.json is not a series export[^<]*change_pct is null' '$work/partial-overview.html'"
site="$work/partial" load partial-refused "gpu=nvidia-h200" --dump-dom
check "the refused GPU's page says why" bash -c "drew_cleanly partial-refused && grep -q '<p class=\"refused\" data-refused-gpu=\"nvidia-h200\">Refused, left out of this site: [^<]*change_pct is null' '$work/partial-refused.html'"
site="$work/partial" load partial-family "$gpu_query&family=reduction" --dump-dom
check "the other GPU's family draws cleanly" bash -c "drew_cleanly partial-family && test \$(sections partial-family | wc -l) -eq 2"

# A ledger left out: the GPU page says so and draws the rest; a tally that is not one shows "no tally".
site="$work/ledger-site" load ledger-refused "$gpu_query" --dump-dom
check "a GPU page whose ledger was left out draws cleanly, saying why, with its change points" bash -c "drew_cleanly ledger-refused &&
  grep -q '<p class=\"refused\">Left out: [^<]*null-tally.json: ledger.gpus' '$work/ledger-refused.html' &&
  grep -q 'change point a100004000..a100005000: +3.0%' '$work/ledger-refused.html' && ! grep -q 'class=\"ledger\"' '$work/ledger-refused.html'"
cp -r "$site" "$work/null-tally-site"
part="$work/null-tally-site/$(jq -r '.gpus[0].summary' "$work/index.json")"
sed -i 's/"compare":{"gpu_name"[^}]*}[^}]*}[^}]*}}/"compare":null,"ab":"x"}/' "$part"
site="$work/null-tally-site" load null-tally "$gpu_query" --dump-dom
check "(the part now holds a null tally)" grep -q '"compare":null,"ab":"x"' "$part"
check "a tally that is not one shows 'no tally', no script error" bash -c "drew_cleanly null-tally &&
  test \$(grep -o '<td>nvidia-h100-80gb-hbm3</td><td>[a-z]*</td><td>no tally</td>' '$work/null-tally.html' | wc -l) -eq 2"

# The checks have teeth: the same page with names written as HTML shows the element.
cp -r "$site" "$work/unsafe-site"
sed -i 's/document.createTextNode(String(child))/Object.assign(document.createElement("span"), {innerHTML: String(child)})/' "$work/unsafe-site/app.js"
site="$work/unsafe-site" load unsafe "$gpu_query&benchmark=$hostile_query" --dump-dom
check "(names written as HTML would put an <img> in the page: the check above can fail)" grep -qi '<img src="x"' "$work/unsafe.html"

cp -r "$site" "$work/throwing-site"
echo 'window.addEventListener("load", () => { null.draw(); });' >>"$work/throwing-site/app.js"
site="$work/throwing-site" load throwing "$gpu_query" --dump-dom
check "(a script error is seen: the clean-drawing check can fail)" bash -c "! drew_cleanly throwing"

# The screenshot: a PNG of the family view, kept for CI.
load screenshot "$gpu_query&family=reduction" --hide-scrollbars --screenshot="$work/dashboard.png"
check "a PNG screenshot is written" bash -c "head -c 8 '$work/dashboard.png' | od -An -tx1 | tr -d ' \n' | grep -qx 89504e470d0a1a0a && test \$(stat -c %s '$work/dashboard.png') -gt 20000"
if [[ -n $screenshot_out && -f $work/dashboard.png ]]; then
  mkdir -p "$(dirname "$screenshot_out")" && cp "$work/dashboard.png" "$screenshot_out" && echo "screenshot: $screenshot_out"
fi

echo "$passed passed, $failed failed"
((failed == 0))
