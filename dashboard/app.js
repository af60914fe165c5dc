// The history dashboard: reads window.GPUPERF_HISTORY_INDEX (data.js, written by scripts/dashboard.sh
// from series exports, one per GPU model: each GPU model with its families and their counts, and the
// exports it refused) and, when a view needs them, the parts of data/ it names: a GPU model's change
// points, drift and ledger, or one family's series. It draws, per GPU, per family and per benchmark, each
// run's value with the spread of its process medians, and where the series changed: change points,
// baseline re-recordings, code changes. Every name from the data is untrusted: it reaches the page only as
// text (textContent, text nodes) or as an attribute value (setAttribute), never as HTML.
//
// Routes (the URL's fragment, so that the page works from file://):
//   #                                   every GPU model, and the exports refused
//   #gpu=SLUG                           one GPU: its families, change points, drift, same-code ledger
//   #gpu=SLUG&family=F                  the charts of one family
//   #gpu=SLUG&benchmark=NAME            one benchmark: its chart and its points
// A benchmark's family is its name up to the first "/" (dashboard.sh splits the data so).
//
// For tests and readers of the DOM: <html data-errors> counts the script errors seen, <html data-ready>
// is "1" once a view is drawn, <html data-parts> lists the data files loaded, and each chart is a
// <section class="series"> with data-gpu, data-benchmark and the counts data-points, data-change-points,
// data-baseline-changes, data-code-changes, followed by its markers as a list (li[data-kind]). A refused
// export is a <tr data-refused-gpu> of the overview's table "Refused", and a <p class="refused"> on its
// GPU's page.
(function () {
  "use strict";

  const root = document.documentElement;
  function countError() {
    root.setAttribute("data-errors", String(Number(root.getAttribute("data-errors") || 0) + 1));
  }
  window.addEventListener("error", countError);
  window.addEventListener("unhandledrejection", countError);
  const consoleError = console.error.bind(console);
  console.error = function (...args) { countError(); consoleError(...args); };

  // y axis: by default a range around the data (and the baseline value, when drift gives it), so that a
  // change of a few percent is visible; the chart says so beside it. The checkbox starts it at zero.
  const Y_PADDING = 0.08;  // of the data's span, above and below
  const COLORS = {value: "#1f4e9c", spread: "#1f4e9c", "change-point": "#c0392b", baseline: "#7d3c98",
                  code: "#1e8449", baselineValue: "#888888"};

  const index = window.GPUPERF_HISTORY_INDEX || {gpus: [], refused: []};
  const gpusBySlug = new Map(index.gpus.map((g) => [g.gpu_slug, g]));
  let charts = [];

  // A part of data/ is a script that pushes {gpu_slug, family (null: the GPU page's part), ...} onto
  // window.GPUPERF_HISTORY_PARTS: a script element loads from file:// where fetch() may not. Loaded once.
  window.GPUPERF_HISTORY_PARTS = window.GPUPERF_HISTORY_PARTS || [];
  const parts = new Map();  // file -> Promise of its part
  function loadPart(file, slug, family) {
    if (!parts.has(file)) {
      parts.set(file, new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = file;
        script.onload = () => {
          const list = window.GPUPERF_HISTORY_PARTS;
          const i = list.findIndex((p) => p && p.gpu_slug === slug && p.family === family);
          if (i < 0) { reject(new Error(`${file} does not hold the data it should`)); return; }
          root.setAttribute("data-parts", ((root.getAttribute("data-parts") || "") + " " + file).trim());
          resolve(list.splice(i, 1)[0]);
        };
        script.onerror = () => reject(new Error(`${file} could not be loaded`));
        document.head.appendChild(script);
      }));
    }
    return parts.get(file);
  }

  // el("p", {class: "x"}, "text", child...): attributes by setAttribute, strings as text nodes.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== undefined && v !== null) node.setAttribute(k, String(v));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" || typeof child === "number"
        ? document.createTextNode(String(child)) : child);
    }
    return node;
  }
  function link(params, text) {
    return el("a", {href: "#" + new URLSearchParams(params).toString()}, text);
  }
  function familyOf(benchmark) {
    const slash = benchmark.indexOf("/");
    return slash < 0 ? benchmark : benchmark.slice(0, slash);
  }
  function fmt(x, digits) {
    return typeof x === "number" && isFinite(x) ? x.toFixed(digits === undefined ? 2 : digits) : "?";
  }
  function pct(x) {
    return (x > 0 ? "+" : "") + fmt(x, 1) + "%";
  }
  function shortCommit(c) {
    return typeof c === "string" ? c.slice(0, 10) : "?";
  }
  function isObject(x) {
    return typeof x === "object" && x !== null && !Array.isArray(x);
  }

  // Where a series changed, each as {kind, index (the first point after it), text}. A series of a GPU
  // page's part has no points: its change points only (dashboard.sh gives them their commits).
  function markersOf(s) {
    const markers = [];
    for (const cp of s.change_points || []) {
      const p = s.points || [];
      const good = cp.good_commit || (p[cp.index - 1] || {}).commit;
      const bad = cp.bad_commit || (p[cp.index] || {}).commit;
      markers.push({kind: "change-point", index: cp.index,
        text: `change point ${shortCommit(good)}..${shortCommit(bad)}: ${pct(cp.change_pct)} ` +
              `(${fmt(cp.before)} -> ${fmt(cp.after)} ${s.unit}` +
              (typeof cp.p_value === "number" ? `, p = ${cp.p_value.toPrecision(2)})` : ")")});
    }
    for (let i = 1; i < (s.points || []).length; i++) {
      const before = s.points[i - 1], after = s.points[i];
      if ((before.baseline_recorded || "") !== (after.baseline_recorded || "")) {
        markers.push({kind: "baseline", index: i,
          text: `baseline re-recorded (${after.baseline_recorded || "none"}) before ${shortCommit(after.commit)}`});
      }
      if ((before.code_hash || "") !== (after.code_hash || "")) {
        markers.push({kind: "code", index: i,
          text: `code changed ${shortCommit(before.commit)}..${shortCommit(after.commit)}`});
      }
    }
    return markers;
  }

  function spreadOf(p) {
    const m = (p.process_medians || []).filter((x) => typeof x === "number");
    return m.length ? [Math.min(...m), Math.max(...m)] : [p.value, p.value];
  }

  // The x of each point: its date (seconds), made strictly increasing (two runs in one second, or a
  // date that does not parse, sit one second after the previous point).
  function xsOf(points) {
    const xs = [];
    for (const p of points) {
      const t = Date.parse(p.date) / 1000;
      const prev = xs.length ? xs[xs.length - 1] : -Infinity;
      xs.push(isFinite(t) && t > prev ? t : (isFinite(prev) ? prev + 1 : 0));
    }
    return xs;
  }

  function drawChart(container, s, gpu, height) {
    const zeroBased = document.getElementById("zero-based").checked;
    const xs = xsOf(s.points);
    const values = s.points.map((p) => p.value);
    const spreads = s.points.map(spreadOf);
    const markers = markersOf(s);
    const baselineValue = s.drift && typeof s.drift.baseline_value === "number" ? s.drift.baseline_value : null;
    let lo = Math.min(...spreads.map((r) => r[0])), hi = Math.max(...spreads.map((r) => r[1]));
    if (baselineValue !== null) { lo = Math.min(lo, baselineValue); hi = Math.max(hi, baselineValue); }
    const span = hi - lo || Math.abs(hi) * 0.02 || 1;
    const yRange = zeroBased ? [Math.min(0, lo), hi + span * Y_PADDING] : [lo - span * Y_PADDING, hi + span * Y_PADDING];

    const section = el("section", {
      class: "series", "data-gpu": gpu.gpu_slug, "data-benchmark": s.benchmark,
      "data-points": s.points.length,
      "data-change-points": markers.filter((m) => m.kind === "change-point").length,
      "data-baseline-changes": markers.filter((m) => m.kind === "baseline").length,
      "data-code-changes": markers.filter((m) => m.kind === "code").length});
    section.appendChild(el("h3", null, link({gpu: gpu.gpu_slug, benchmark: s.benchmark}, s.benchmark)));
    section.appendChild(el("p", {class: "axis-note"},
      `y: ${s.unit}, ` + (zeroBased ? "from zero" : "not from zero: the range of the runs' process medians" +
        (baselineValue !== null ? " and the baseline" : "") + ", padded") +
      `; x: run date (UTC); ${s.points.length} runs`));
    if (s.drift) {
      section.appendChild(el("p", {class: s.drift.beyond_tolerance ? "drift beyond" : "drift"},
        `drift since the baseline of ${s.drift.since}: ${fmt(s.drift.baseline_value)} -> ` +
        `${fmt(s.drift.latest_value)} ${s.unit} (${pct(s.drift.change_pct)}, tolerance ${fmt(s.drift.tolerance_pct, 1)}%)` +
        (s.drift.beyond_tolerance ? ": beyond tolerance" : "")));
    }
    const plot = el("div", {class: "plot", role: "img",
      "aria-label": `${s.benchmark}: ${s.points.length} runs, ${markers.length} markers`});
    section.appendChild(plot);
    const list = el("ul", {class: "markers"});
    for (const m of markers) {
      list.appendChild(el("li", {"data-kind": m.kind, "data-index": m.index, class: m.kind}, m.text));
    }
    if (!markers.length) list.appendChild(el("li", {"data-kind": "none"}, "no change point, re-recording or code change"));
    section.appendChild(list);
    container.appendChild(section);

    if (!s.points.length) {
      plot.appendChild(el("p", null, "no runs stored"));
      return;
    }
    // Between two runs: where a marker whose first point after it is `index` is drawn.
    const markerX = (index) => index <= 0 ? xs[0] : index >= xs.length ? xs[xs.length - 1] : (xs[index - 1] + xs[index]) / 2;
    const opts = {
      width: Math.max(320, Math.min(1100, (container.clientWidth || 900) - 24)),
      height: height,
      scales: {x: {time: true}, y: {range: () => yRange}},
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),  // the axis says UTC
      axes: [{label: "run date (UTC)"}, {label: s.unit, size: 70}],
      legend: {show: true},
      series: [
        {label: "run", value: (u, v, si, idx) => idx === null || idx === undefined ? "--"
          : `${s.points[idx].date} ${shortCommit(s.points[idx].commit)}`},
        {label: `value (${s.unit})`, stroke: COLORS.value, width: 1.5, points: {show: true, size: 6},
         value: (u, v) => v === null || v === undefined ? "--" : fmt(v)},
      ],
      hooks: {draw: [(u) => {
        const ctx = u.ctx, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
        ctx.save();
        // Each run's spread of process medians, as an error bar.
        ctx.strokeStyle = COLORS.spread;
        ctx.lineWidth = 1;
        spreads.forEach((r, i) => {
          const x = u.valToPos(xs[i], "x", true), y0 = u.valToPos(r[0], "y", true), y1 = u.valToPos(r[1], "y", true);
          ctx.beginPath();
          ctx.moveTo(x, y0); ctx.lineTo(x, y1);
          ctx.moveTo(x - 3, y0); ctx.lineTo(x + 3, y0);
          ctx.moveTo(x - 3, y1); ctx.lineTo(x + 3, y1);
          ctx.stroke();
        });
        if (baselineValue !== null) {
          const y = u.valToPos(baselineValue, "y", true);
          ctx.strokeStyle = COLORS.baselineValue;
          ctx.setLineDash([2, 4]);
          ctx.beginPath(); ctx.moveTo(u.bbox.left, y); ctx.lineTo(u.bbox.left + u.bbox.width, y); ctx.stroke();
        }
        const dashes = {"change-point": [], baseline: [6, 4], code: [2, 3]};
        for (const m of markers) {
          const x = u.valToPos(markerX(m.index), "x", true);
          ctx.strokeStyle = COLORS[m.kind];
          ctx.lineWidth = m.kind === "change-point" ? 2 : 1.5;
          ctx.setLineDash(dashes[m.kind]);
          ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
        }
        ctx.restore();
      }]},
    };
    charts.push(new uPlot(opts, [xs, values], plot));
  }

  function crumbs(parts) {
    const nav = document.getElementById("crumbs");
    nav.replaceChildren(link({}, "all GPUs"));
    for (const [params, text] of parts) {
      nav.appendChild(document.createTextNode(" / "));
      nav.appendChild(params ? link(params, text) : el("span", null, text));
    }
  }

  function table(headers, rows) {
    const t = el("table", null, el("thead", null, el("tr", null, ...headers.map((h) => el("th", null, h)))));
    const body = el("tbody");
    for (const row of rows) body.appendChild(el("tr", null, ...row.map((c) => el("td", null, c))));
    t.appendChild(body);
    return t;
  }

  function refusedNote(r) {
    return el("p", {class: "refused", "data-refused-gpu": r.gpu_slug}, `Refused, left out of this site: ${r.message}`);
  }

  // "matmul (12), reduction (14)": each family of a GPU model with its benchmarks, a link to its charts.
  function familyLinks(gpu) {
    const span = el("span", {class: "families"});
    gpu.families.forEach((f, i) => {
      if (i) span.appendChild(document.createTextNode(", "));
      span.appendChild(link({gpu: gpu.gpu_slug, family: f.family}, `${f.family} (${f.benchmarks})`));
    });
    return span;
  }

  function overview(view) {
    crumbs([]);
    view.appendChild(el("h2", null, "GPU models"));
    if (!index.gpus.length) view.appendChild(el("p", null, "No history in this site's data."));
    view.appendChild(table(["GPU", "benchmarks", "families (benchmarks)", "runs (most of a benchmark)", "change points",
      "drifting beyond tolerance"], index.gpus.map((g) => [link({gpu: g.gpu_slug}, g.gpu_slug), g.benchmarks,
      familyLinks(g), g.runs, g.change_points, g.drifting])));
    if (index.refused.length) {
      view.appendChild(el("h3", {class: "refused"}, `Refused (${index.refused.length}): left out of this site`));
      const t = table(["GPU", "what is wrong"], []);
      for (const r of index.refused) {
        t.tBodies[0].appendChild(el("tr", {"data-refused-gpu": r.gpu_slug || ""},
          el("td", null, r.gpu_slug || "?"), el("td", {class: "refused"}, r.message)));
      }
      view.appendChild(t);
    }
  }

  // The same-code ledger of a GPU page's part; a GPU model without a tally (or with one that is not an
  // object: dashboard.sh refuses such a ledger, but a page must not break on one) says "no tally".
  function ledgerTables(view, part) {
    if (typeof part.ledger_refused === "string") {
      view.appendChild(el("h3", null, "Same-code ledger"));
      view.appendChild(el("p", {class: "refused"}, `Left out: ${part.ledger_refused}`));
      return;
    }
    const ledger = part.ledger;
    if (!isObject(ledger) || !isObject(ledger.gpus)) return;
    view.appendChild(el("h3", null, "Same-code ledger (verdicts on unchanged code: SLOW and FAST are false alarms; PLATFORM, moves of the machine, driver or harness)"));
    const rows = [];
    const cell = (c) => c === undefined || c === null ? "" : String(c);
    for (const [slug, modes] of Object.entries(ledger.gpus)) {
      const tallies = isObject(modes) ? Object.entries(modes) : [];
      if (!tallies.length) rows.push([slug, "", "no tally", "", "", "", "", "", "", "", ""]);
      for (const [mode, t] of tallies) {
        if (!isObject(t)) { rows.push([slug, mode, "no tally", "", "", "", "", "", "", "", ""]); continue; }
        const v = isObject(t.verdicts) ? t.verdicts : {};
        rows.push([slug, mode, t.since, t.last, t.reports, t.reports_with_false_alarms,
                   v.SAME, v.AMBIGUOUS, v.SLOW, v.FAST, v.PLATFORM].map(cell));
      }
    }
    const t = table(["GPU", "mode", "since", "last", "reports", "with false alarms", "SAME", "AMBIGUOUS",
      "SLOW", "FAST", "PLATFORM"], rows);
    t.setAttribute("class", "ledger");
    view.appendChild(t);
  }

  // The GPU page: its families (from the index), and from its part its change points, drift and ledger.
  function gpuView(view, gpu, part) {
    crumbs([[null, gpu.gpu_slug]]);
    view.appendChild(el("h2", null, gpu.gpu_slug));
    for (const r of index.refused.filter((x) => x.gpu_slug === gpu.gpu_slug)) view.appendChild(refusedNote(r));
    view.appendChild(table(["family", "benchmarks", "runs (most of a benchmark)", "change points",
      "drifting beyond tolerance"], gpu.families.map((f) => [
      link({gpu: gpu.gpu_slug, family: f.family}, f.family), f.benchmarks, f.runs, f.change_points, f.drifting])));
    const changes = [];
    for (const s of part.series) {
      for (const m of markersOf(s).filter((x) => x.kind === "change-point")) {
        changes.push([link({gpu: gpu.gpu_slug, benchmark: s.benchmark}, s.benchmark), m.text]);
      }
    }
    view.appendChild(el("h3", null, `Change points (${changes.length})`));
    if (changes.length) view.appendChild(table(["benchmark", "change"], changes));
    const drifting = part.series.filter((s) => s.drift && s.drift.beyond_tolerance);
    view.appendChild(el("h3", null, `Drifting beyond tolerance since the baseline (${drifting.length})`));
    if (drifting.length) {
      view.appendChild(table(["benchmark", "baseline", "latest", "change", "tolerance"], drifting.map((s) => [
        link({gpu: gpu.gpu_slug, benchmark: s.benchmark}, s.benchmark), `${fmt(s.drift.baseline_value)} ${s.unit}`,
        `${fmt(s.drift.latest_value)} ${s.unit}`, pct(s.drift.change_pct), `${fmt(s.drift.tolerance_pct, 1)}%`])));
    }
    ledgerTables(view, part);
  }

  // One family's series, from its part; [] when the GPU has no such family.
  async function familySeries(gpu, family) {
    const entry = gpu.families.find((f) => f.family === family);
    return entry ? (await loadPart(entry.file, gpu.gpu_slug, family)).series : [];
  }

  function familyView(view, gpu, family, list) {
    crumbs([[{gpu: gpu.gpu_slug}, gpu.gpu_slug], [null, family]]);
    view.appendChild(el("h2", null, `${family} on ${gpu.gpu_slug}`));
    if (!list.length) view.appendChild(el("p", null, "No benchmark of this family in the data."));
    for (const s of list) drawChart(view, s, gpu, 220);
  }

  function benchmarkView(view, gpu, benchmark, list) {
    crumbs([[{gpu: gpu.gpu_slug}, gpu.gpu_slug], [{gpu: gpu.gpu_slug, family: familyOf(benchmark)}, familyOf(benchmark)],
            [null, benchmark]]);
    const s = list.find((x) => x.benchmark === benchmark);
    if (!s) { view.appendChild(el("p", null, "No such benchmark in the data.")); return; }
    drawChart(view, s, gpu, 360);
    view.appendChild(el("h3", null, "Runs"));
    view.appendChild(table(["date", "commit", `value (${s.unit})`, "process medians", "verdict", "code", "baseline"],
      s.points.map((p) => [p.date, shortCommit(p.commit), fmt(p.value),
        (p.process_medians || []).map((x) => fmt(x)).join(" "), p.verdict || "", (p.code_hash || "").slice(0, 8),
        p.baseline_recorded || ""])));
  }

  // The data a view needs is loaded first, then the view is drawn at once; a view whose fragment
  // changed while its data loaded is not drawn (a later render draws the new one).
  let rendering = 0;
  async function render() {
    const mine = ++rendering;
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const gpu = params.has("gpu") ? gpusBySlug.get(params.get("gpu")) : null;
    const family = params.has("benchmark") ? familyOf(params.get("benchmark")) : params.get("family");
    let loaded = null, failure = null;
    try {
      if (gpu && family !== null) loaded = await familySeries(gpu, family);
      else if (gpu) loaded = await loadPart(gpu.summary, gpu.gpu_slug, null);
    } catch (e) {
      failure = e;
    }
    if (mine !== rendering) return;
    for (const c of charts) c.destroy();
    charts = [];
    const view = document.getElementById("view");
    view.replaceChildren();
    if (failure) {
      crumbs([]);
      view.appendChild(el("p", {class: "refused"}, `This view could not be drawn: ${failure.message}`));
      console.error(failure.message);
    } else if (params.has("gpu") && !gpu) {
      crumbs([[null, params.get("gpu")]]);
      const refused = index.refused.filter((r) => r.gpu_slug === params.get("gpu"));
      if (!refused.length) view.appendChild(el("p", null, "No GPU model of that name in the data."));
      for (const r of refused) view.appendChild(refusedNote(r));
    } else if (!gpu) {
      overview(view);
    } else if (params.has("benchmark")) {
      benchmarkView(view, gpu, params.get("benchmark"), loaded);
    } else if (params.has("family")) {
      familyView(view, gpu, params.get("family"), loaded);
    } else {
      gpuView(view, gpu, loaded);
    }
    root.setAttribute("data-ready", "1");
  }

  window.addEventListener("hashchange", render);
  document.getElementById("zero-based").addEventListener("change", render);
  render();
})();
