#!/usr/bin/env bash
# The history dashboard (scripts/dashboard.sh, dashboard/), built from two fixture exports
# (fixtures/dashboard/: an H100 with a step change point, a baseline re-recording, a code change, a
# same-code ledger and a benchmark named like an HTML element; an H200 with flat series) and drawn in
# headless Chromium from file://: every view draws with no script error, each chart's series and
# markers are in the DOM as the data says, the hostile name is text and never an element, and a PNG
# screenshot is written. Invalid exports exit 2 and leave the site as it was.
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
hostile='x/<img src=x onerror=alert(1)>/n:1'
passed=0 failed=0
check() {  # check <description> <command...>
  if "${@:2}" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
dashboard() { bash "$root/scripts/dashboard.sh" "$@" >"$work/out.log" 2>&1; }

# Invalid input: exit 2, a message naming the file and the fault, the existing site untouched.
mkdir -p "$work/site" && echo keep >"$work/site/marker"
jq '.schema_version = 2' "$h100" >"$work/v2.json"
dashboard --out "$work/site" "$h200" "$work/v2.json"
check "an export of another schema_version exits 2" test $? -eq 2
check "and says which file and which version" grep -q "v2.json is not a series export.*schema_version is 2, this dashboard reads 1" "$work/out.log"
check "and leaves the site as it was" test -f "$work/site/marker" -a ! -e "$work/site/index.html"
echo '{"schema_version": 1, "gpu_slug": "x", "series": [{"benchmark": "a/b", "unit": "us", "points": [{"value": "fast"}]}]}' >"$work/bad-point.json"
dashboard --out "$work/site" "$work/bad-point.json"
check "a point without a numeric value exits 2 naming the benchmark" bash -c "(($? == 2)) && grep -q 'series\[0\] (a/b): a point lacks a numeric value' '$work/out.log'"
echo '{"schema_version": 1,' >"$work/truncated.json"
dashboard --out "$work/site" "$work/truncated.json"
check "a file that is not JSON exits 2" bash -c "(($? == 2)) && grep -q 'truncated.json: not valid JSON' '$work/out.log'"
dashboard --out "$work/site" "$h100" "$h100"
check "two exports of one GPU exit 2" bash -c "(($? == 2)) && grep -q \"both hold GPU 'nvidia-h100-80gb-hbm3'\" '$work/out.log'"
dashboard "$h100"
check "no --out exits 2" test $? -eq 2
check "nothing half-written beside the site" test -z "$(find "$work" -maxdepth 1 -name '.dashboard.*')"

# The site: the app, the vendored library with its licence, the data as a script.
dashboard --out "$work/site" "$h100" "$h200"
check "the site is written" test $? -eq 0
check "it replaced the old site whole" test ! -e "$work/site/marker"
check "it holds the page, its script, the data and uPlot with its licence" bash -c \
  "cd '$work/site' && test -f index.html -a -f app.js -a -f style.css -a -f data.js -a -f vendor/uplot-1.6.32/uPlot.iife.min.js -a -f vendor/uplot-1.6.32/LICENSE"
check "the page loads nothing from the network" bash -c "! grep -Eq '(src|href)=\"(https?:)?//' '$work/site/index.html'"
check "the data is both exports" bash -c "sed -n 's/^window.GPUPERF_HISTORY = \(.*\);$/\1/p' '$work/site/data.js' | jq -e '[.exports[].gpu_slug] == [\"nvidia-h100-80gb-hbm3\", \"nvidia-h200\"]'"

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
check "the overview lists both GPUs" bash -c "grep -o 'href=\"#gpu=nvidia-h[0-9]*[^\"]*\"' '$work/overview.html' | sort -u | wc -l | grep -qx 2"

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
