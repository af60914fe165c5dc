// The history dashboard: reads window.GPUPERF_HISTORY (data.js, written by scripts/dashboard.sh from
// series exports, one per GPU model) and draws, per GPU, per family and per benchmark, each run's value
// with the spread of its process medians, and where the series changed: change points, baseline
// re-recordings, code changes. Every name from the data is untrusted: it reaches the page only as text
// (textContent, text nodes) or as an attribute value (setAttribute), never as HTML.
//
// Routes (the URL's fragment, so that the page works from file://):
//   #                                   every GPU model
//   #gpu=SLUG                           one GPU: its families, change points, drift, same-code ledger
//   #gpu=SLUG&family=F                  the charts of one family
//   #gpu=SLUG&benchmark=NAME            one benchmark: its chart and its points
// A benchmark's family is its name up to the first "/".
//
// For tests and readers of the DOM: <html data-errors> counts the script errors seen, <html data-ready>
// is "1" once a view is drawn, and each chart is a <section class="series"> with data-gpu,
// data-benchmark and the counts data-points, data-change-points, data-baseline-changes,
// data-code-changes, followed by its markers as a list (li[data-kind]).
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

  const data = window.GPUPERF_HISTORY || {exports: []};
  const exportsBySlug = new Map(data.exports.map((e) => [e.gpu_slug, e]));
  let charts = [];

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
  function families(exp) {
    const byFamily = new Map();
    for (const s of exp.series) {
      const f = familyOf(s.benchmark);
      if (!byFamily.has(f)) byFamily.set(f, []);
      byFamily.get(f).push(s);
    }
    return [...byFamily.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  }

  // Where a series changed, each as {kind, index (the first point after it), text}.
  function markersOf(s) {
    const markers = [];
    for (const cp of s.change_points || []) {
      const p = s.points;
      const good = cp.good_commit || (p[cp.index - 1] || {}).commit;
      const bad = cp.bad_commit || (p[cp.index] || {}).commit;
      markers.push({kind: "change-point", index: cp.index,
        text: `change point ${shortCommit(good)}..${shortCommit(bad)}: ${pct(cp.change_pct)} ` +
              `(${fmt(cp.before)} -> ${fmt(cp.after)} ${s.unit}` +
              (typeof cp.p_value === "number" ? `, p = ${cp.p_value.toPrecision(2)})` : ")")});
    }
    for (let i = 1; i < s.points.length; i++) {
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

  function drawChart(container, s, exp, height) {
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
      class: "series", "data-gpu": exp.gpu_slug, "data-benchmark": s.benchmark,
      "data-points": s.points.length,
      "data-change-points": markers.filter((m) => m.kind === "change-point").length,
      "data-baseline-changes": markers.filter((m) => m.kind === "baseline").length,
      "data-code-changes": markers.filter((m) => m.kind === "code").length});
    section.appendChild(el("h3", null, link({gpu: exp.gpu_slug, benchmark: s.benchmark}, s.benchmark)));
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

  function overview(view) {
    crumbs([]);
    view.appendChild(el("h2", null, "GPU models"));
    if (!data.exports.length) view.appendChild(el("p", null, "No history in this site's data."));
    const rows = data.exports.map((e) => {
      const cps = e.series.reduce((n, s) => n + (s.change_points || []).length, 0);
      const drifting = e.series.filter((s) => s.drift && s.drift.beyond_tolerance).length;
      const runs = Math.max(0, ...e.series.map((s) => s.points.length));
      return [link({gpu: e.gpu_slug}, e.gpu_slug), e.series.length, families(e).length, runs, cps, drifting];
    });
    view.appendChild(table(["GPU", "benchmarks", "families", "runs (most of a benchmark)", "change points",
      "drifting beyond tolerance"], rows));
  }

  function ledgerTables(view, exp) {
    const ledger = exp.ledger;
    if (!ledger || typeof ledger !== "object" || !ledger.gpus) return;
    view.appendChild(el("h3", null, "Same-code ledger (verdicts on unchanged code: SLOW and FAST are false alarms)"));
    const rows = [];
    for (const [slug, modes] of Object.entries(ledger.gpus)) {
      for (const [mode, t] of Object.entries(modes || {})) {
        const v = t.verdicts || {};
        rows.push([slug, mode, t.since || "", t.last || "", t.reports, t.reports_with_false_alarms,
                   v.SAME, v.AMBIGUOUS, v.SLOW, v.FAST].map((c) => c === undefined ? "" : String(c)));
      }
    }
    const t = table(["GPU", "mode", "since", "last", "reports", "with false alarms", "SAME", "AMBIGUOUS",
      "SLOW", "FAST"], rows);
    t.setAttribute("class", "ledger");
    view.appendChild(t);
  }

  function gpuView(view, exp) {
    crumbs([[null, exp.gpu_slug]]);
    view.appendChild(el("h2", null, exp.gpu_slug));
    view.appendChild(table(["family", "benchmarks", "change points"], families(exp).map(([f, list]) => [
      link({gpu: exp.gpu_slug, family: f}, f), list.length,
      list.reduce((n, s) => n + (s.change_points || []).length, 0)])));
    const changes = [];
    for (const s of exp.series) {
      for (const m of markersOf(s).filter((x) => x.kind === "change-point")) {
        changes.push([link({gpu: exp.gpu_slug, benchmark: s.benchmark}, s.benchmark), m.text]);
      }
    }
    view.appendChild(el("h3", null, `Change points (${changes.length})`));
    if (changes.length) view.appendChild(table(["benchmark", "change"], changes));
    const drifting = exp.series.filter((s) => s.drift && s.drift.beyond_tolerance);
    view.appendChild(el("h3", null, `Drifting beyond tolerance since the baseline (${drifting.length})`));
    if (drifting.length) {
      view.appendChild(table(["benchmark", "baseline", "latest", "change", "tolerance"], drifting.map((s) => [
        link({gpu: exp.gpu_slug, benchmark: s.benchmark}, s.benchmark), `${fmt(s.drift.baseline_value)} ${s.unit}`,
        `${fmt(s.drift.latest_value)} ${s.unit}`, pct(s.drift.change_pct), `${fmt(s.drift.tolerance_pct, 1)}%`])));
    }
    ledgerTables(view, exp);
  }

  function familyView(view, exp, family) {
    crumbs([[{gpu: exp.gpu_slug}, exp.gpu_slug], [null, family]]);
    view.appendChild(el("h2", null, `${family} on ${exp.gpu_slug}`));
    const list = exp.series.filter((s) => familyOf(s.benchmark) === family);
    if (!list.length) view.appendChild(el("p", null, "No benchmark of this family in the data."));
    for (const s of list) drawChart(view, s, exp, 220);
  }

  function benchmarkView(view, exp, benchmark) {
    const s = exp.series.find((x) => x.benchmark === benchmark);
    crumbs([[{gpu: exp.gpu_slug}, exp.gpu_slug], [{gpu: exp.gpu_slug, family: familyOf(benchmark)}, familyOf(benchmark)],
            [null, benchmark]]);
    if (!s) { view.appendChild(el("p", null, "No such benchmark in the data.")); return; }
    drawChart(view, s, exp, 360);
    view.appendChild(el("h3", null, "Runs"));
    view.appendChild(table(["date", "commit", `value (${s.unit})`, "process medians", "verdict", "code", "baseline"],
      s.points.map((p) => [p.date, shortCommit(p.commit), fmt(p.value),
        (p.process_medians || []).map((x) => fmt(x)).join(" "), p.verdict || "", (p.code_hash || "").slice(0, 8),
        p.baseline_recorded || ""])));
  }

  function render() {
    for (const c of charts) c.destroy();
    charts = [];
    root.removeAttribute("data-ready");
    const view = document.getElementById("view");
    view.replaceChildren();
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const exp = params.has("gpu") ? exportsBySlug.get(params.get("gpu")) : null;
    if (params.has("gpu") && !exp) {
      crumbs([]);
      view.appendChild(el("p", null, "No GPU model of that name in the data."));
    } else if (!exp) {
      overview(view);
    } else if (params.has("benchmark")) {
      benchmarkView(view, exp, params.get("benchmark"));
    } else if (params.has("family")) {
      familyView(view, exp, params.get("family"));
    } else {
      gpuView(view, exp);
    }
    root.setAttribute("data-ready", "1");
  }

  window.addEventListener("hashchange", render);
  document.getElementById("zero-based").addEventListener("change", render);
  render();
})();
