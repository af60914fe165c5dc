#!/usr/bin/env python3
"""Draws the fleet report as a chart: per kernel family, each variant's % of its GPU's own ceiling at the
family's chart shape (its largest measured case), one bar per GPU. Reads the JSON of `perf_gate report
--json` (schema_version 1, perf_tests/gate/fleet/README.md); writes PNG or SVG, as the file name says.

  plot_fleet.py REPORT.json OUT.png|OUT.svg
  plot_fleet.py --time-ratio REPORT.json OUT.png|OUT.svg
      each benchmark's time on the first GPU over the second's, by family, beside the memory ceiling's ratio

Needs matplotlib (Debian: apt-get install python3-matplotlib). Exit: 0 written, 2 bad input or no
matplotlib (the harness's exit codes).
"""
import json
import os
import sys

EXIT_INVALID = 2
SCHEMA_VERSION = 1  # the fleet report's schema this script reads (kFleetReportSchemaVersion)
BAR_HEIGHT = 0.8  # of one variant's band, shared by its GPUs' bars
INCHES_PER_BAR = 0.28  # keeps labels of adjacent bars apart at the font size below
FAMILY_PADDING_INCHES = 1.1  # title, axis and tick labels of one family's panel
LEGEND_INCHES = 0.4  # the figure's title and its one legend, in one line above every panel
WIDTH_INCHES = 10.0


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(EXIT_INVALID)


def load_report(path):
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"cannot read {path}: {e} - write it with: perf_gate report ... --json {path}")
    if report.get("schema_version") != SCHEMA_VERSION:
        fail(f"{path}: schema_version {report.get('schema_version')!r}; this script reads {SCHEMA_VERSION} - "
             "use the plot_fleet.py of the perf_gate that wrote it")
    return report


def panels(report):
    """[(family, yardsticks, [(variant, [pct or None per GPU])])] for every family with a % at its chart
    shape. A yardstick is named as the rows name it (its variant, with its family when it is another)."""
    slugs = [gpu["slug"] for gpu in report["gpus"]]
    out = []
    for family in report["families"]:
        chart = family.get("chart")
        if not chart:
            continue
        variants, yardsticks = [], []
        for row in family["rows"]:
            if row["shape"] != chart["shape"]:
                continue
            pcts = [row["gpus"][slug]["pct_of_ceiling"] for slug in slugs]
            if all(p is None for p in pcts):
                continue
            variants.append((row["variant"], pcts))
            parts = (row["compared_with"] or "").split("/")
            name = parts[1] if parts[0] == family["name"] else "/".join(parts[:2])
            if name not in yardsticks:
                yardsticks.append(name)
        if variants:
            out.append((family, yardsticks, variants))
    return out


def pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is not installed - Debian: apt-get install python3-matplotlib; else pip install matplotlib")
    return plt


def draw(report, out_path):
    plt = pyplot()
    gpus = report["gpus"]
    chosen = panels(report)
    if not chosen:
        fail("no family has a % of ceiling to draw (no yardstick measured on these GPUs?)")
    heights = [len(variants) * len(gpus) * INCHES_PER_BAR + FAMILY_PADDING_INCHES for _, _, variants in chosen]
    total = sum(heights) + LEGEND_INCHES
    fig, axes = plt.subplots(len(chosen), 1, figsize=(WIDTH_INCHES, total),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    colors = plt.get_cmap("tab10").colors
    bar = BAR_HEIGHT / len(gpus)
    for ax, (family, yardsticks, variants) in zip(axes[:, 0], chosen):
        top = max(max((p or 0.0) for p in pcts) for _, pcts in variants)
        for g, gpu in enumerate(gpus):
            # Variants top to bottom in registry order; a GPU's bars at the same offset in every band.
            ys = [len(variants) - 1 - v + (len(gpus) - 1 - g - (len(gpus) - 1) / 2) * bar for v in range(len(variants))]
            values = [pcts[g] if pcts[g] is not None else 0.0 for _, pcts in variants]
            bars = ax.barh(ys, values, height=bar * 0.92, color=colors[g % len(colors)], label=gpu["label"])
            for rect, (_, pcts) in zip(bars, variants):
                text = "not measured" if pcts[g] is None else f"{pcts[g]:.0f}%"
                ax.text(rect.get_width() + top * 0.01, rect.get_y() + rect.get_height() / 2, text,
                        va="center", fontsize=7)
        ax.axvline(100.0, color="0.4", linewidth=0.8, linestyle="--")
        ax.set_yticks(range(len(variants)))
        ax.set_yticklabels([name for name, _ in reversed(variants)], fontsize=8)
        ax.set_xlim(0, max(top, 100.0) * 1.12)  # room for the value labels past the longest bar
        ax.set_xlabel(f"% of this GPU's ceiling ({', '.join(yardsticks)})", fontsize=8)
        ax.set_title(f"{family['name']} at {family['chart']['shape']}", fontsize=10, loc="left")
        ax.tick_params(axis="x", labelsize=8)
    # One legend above the panels: inside a panel it covered the bars that reach the ceiling.
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", ncol=len(gpus), fontsize=9, frameon=False)
    fig.suptitle("% of each GPU's own ceiling, per variant (dashed: the ceiling)", x=0.01, ha="left", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 1 - LEGEND_INCHES / total))  # the title line stays clear of the panels
    fig.savefig(out_path, dpi=150)
    print(f"wrote {out_path}: {len(chosen)} families, {len(gpus)} GPUs")


def draw_time_ratio(report, out_path):
    """Every benchmark's time on the first GPU over its time on the second, by family, with the memory
    ceiling's own ratio marked: memory-bound kernels should sit on it, compute-bound ones at 1."""
    plt = pyplot()
    gpus = report["gpus"]
    if len(gpus) < 2:
        fail("--time-ratio needs a report of 2 GPUs or more")
    rows = [(family["name"], row) for family in report["families"] for row in family["rows"]
            if row.get("time_ratios") and row["time_ratios"][0].get("ratio") is not None]
    if not rows:
        fail("no benchmark was measured on both of the first two GPUs")
    ratios = [row["time_ratios"][0]["ratio"] for _, row in rows]
    ceiling = [row["time_ratios"][0]["ratio"] for name, row in rows if name == "ceiling"]
    fig, ax = plt.subplots(figsize=(WIDTH_INCHES, 0.16 * len(rows) + FAMILY_PADDING_INCHES))
    colors = plt.get_cmap("tab10").colors
    families = list(dict.fromkeys(name for name, _ in rows))
    ys = list(range(len(rows) - 1, -1, -1))  # registry order, top to bottom
    ax.barh(ys, ratios, height=0.8, color=[colors[families.index(name) % len(colors)] for name, _ in rows])
    ax.set_yticks(ys)
    ax.set_yticklabels([row["name"] for _, row in rows], fontsize=5)
    ax.axvline(1.0, color="0.3", linewidth=0.8, label="1.0: the same time (compute, latency)")
    if ceiling:
        mark = sorted(ceiling)[len(ceiling) // 2]
        ax.axvline(mark, color="0.3", linewidth=0.8, linestyle="--",
                   label=f"{mark:.2f}: the memory ceiling's own ratio")
    ax.set_xlim(min(0.9, min(ratios) - 0.05), max(ratios) + 0.05)
    ax.set_xlabel(f"time on {gpus[0]['label']} / time on {gpus[1]['label']} (above 1: faster on {gpus[1]['label']})",
                  fontsize=8)
    ax.legend(loc="lower right", fontsize=8)
    ax.margins(y=0.005)
    fig.tight_layout()
    fig.savefig(out_path, dpi=150)
    print(f"wrote {out_path}: {len(rows)} benchmarks")


def main(argv):
    time_ratio = len(argv) > 1 and argv[1] == "--time-ratio"
    args = argv[2:] if time_ratio else argv[1:]
    if len(args) != 2 or os.path.splitext(args[1])[1].lower() not in (".png", ".svg"):
        print(__doc__, file=sys.stderr)
        return EXIT_INVALID
    (draw_time_ratio if time_ratio else draw)(load_report(args[0]), args[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
