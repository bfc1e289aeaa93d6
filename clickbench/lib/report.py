#!/usr/bin/env python3
"""report.py: side-by-side report of ClickBench result files (ClickBench's
JSON format: load_time, data_size, result = 43 x [cold, hot, hot]).

  report.py [--svg FILE] [--cold] RESULT.json...

Prints per-query hot times (min of tries 2 and 3; with --cold also the first
try, "hot (cold c)"), each system's load time and
data size, and ClickBench's relative hot, cold and combined scores, computed
with the formula of ClickBench's index.html (HITS_FACTS.md section 1.3):
baseline = the best time of any listed system for the query and try,
relative = exp(mean(ln((0.01 + t) / (0.01 + baseline)))), a failed query
counts as 2 x max(300 s, the system's worst time). Lower is better; 1.0 is
"best on every query". Optionally draws the per-query hot times as an SVG
bar chart (log scale).
"""
import argparse
import json
import math
import os
import sys

ADD = 0.01


def hot(t):
    """min(try 2, try 3); null unless all of them succeeded."""
    rest = t[1:3]
    return min(rest) if rest and all(v is not None for v in rest) else None


def cold(t):
    return t[0] if t else None


def relative(systems, metric):
    """ClickBench's relative time of each system for metric 'hot' or 'cold'."""
    nq = max(len(s["result"]) for s in systems)
    base = []
    for q in range(nq):
        runs = []
        for r in range(3):
            vals = [s["result"][q][r] for s in systems
                    if q < len(s["result"]) and len(s["result"][q]) > r and s["result"][q][r] is not None]
            runs.append(min(vals) if vals else None)
        if metric == "cold":
            base.append(runs[0])
        else:
            hb = [v for v in runs[1:] if v is not None]
            base.append(min(hb) if hb else None)
    out = {}
    for s in systems:
        pick = hot if metric == "hot" else cold
        own = [pick(t) for t in s["result"]]
        worst = max([v for v in own if v is not None], default=0)
        fallback = 2 * max(300, worst)
        acc, n = 0.0, 0
        for q, b in enumerate(base):
            if b is None:
                continue
            t = own[q] if q < len(own) and own[q] is not None else fallback
            acc += math.log((ADD + t) / (ADD + b))
            n += 1
        out[s["system"]] = math.exp(acc / n) if n else None
    return out


def combined(systems, rel_hot, rel_cold):
    loads = [s["load_time"] for s in systems if isinstance(s["load_time"], (int, float)) and s["load_time"] > 5]
    sizes = [s["data_size"] for s in systems if isinstance(s["data_size"], (int, float)) and s["data_size"] > 1e9]
    out = {}
    for s in systems:
        lt, ds = s["load_time"], s["data_size"]
        lt_ok = isinstance(lt, (int, float))
        L = lt / min(loads) if lt_ok and lt >= 5 and loads else (1 if lt_ok else None)
        S = ds / min(sizes) if isinstance(ds, (int, float)) and ds >= 1e9 and sizes else 2
        h, c = rel_hot[s["system"]], rel_cold[s["system"]]
        if None in (L, h, c):
            out[s["system"]] = None
            continue
        out[s["system"]] = math.exp(0.1 * math.log(L) + 0.1 * math.log(S) + 0.2 * math.log(c) + 0.6 * math.log(h))
    return out


def fmt(v, digits=3):
    return "null" if v is None else ("%.*f" % (digits, v))


def svg_chart(systems, path):
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
    nq = max(len(s["result"]) for s in systems)
    vals = [[hot(t) for t in s["result"]] for s in systems]
    allv = [v for row in vals for v in row if v]
    lo = math.log10(max(min(allv, default=0.001), 0.0005))
    hi = math.log10(max(allv, default=1) * 1.2)
    W, H, left, top, bottom = 60 + nq * 26, 380, 50, 40, 40
    ph = H - top - bottom
    y = lambda v: top + ph - (math.log10(v) - lo) / (hi - lo) * ph
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="10">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="16" font-size="13">ClickBench hot times per query (seconds, log scale; lower is better)</text>' % left]
    for e in range(math.floor(lo), math.ceil(hi) + 1):
        v = 10 ** e
        if lo <= e <= hi:
            out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (left, W - 10, y(v), y(v)))
            out.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (left - 4, y(v) + 3, v))
    bw = 22.0 / len(systems)
    for q in range(nq):
        x0 = left + 4 + q * 26
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (x0 + 11, H - bottom + 12, q))
        for i, row in enumerate(vals):
            v = row[q] if q < len(row) else None
            if v is None:
                out.append('<text x="%.1f" y="%d" fill="%s" text-anchor="middle">x</text>' % (x0 + i * bw + bw / 2, top + ph, colors[i % 6]))
                continue
            yy = y(max(v, 10 ** lo))
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>Q%d %s: %.3f s</title></rect>'
                       % (x0 + i * bw, yy, bw, top + ph - yy, colors[i % 6], q, systems[i]["system"], v))
    for i, s in enumerate(systems):
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>'
                   % (left + i * 150, H - 16, colors[i % 6], left + 14 + i * 150, H - 7, s["system"]))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--svg")
    ap.add_argument("--cold", action="store_true", help="also print each query's first try")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    systems = []
    for p in args.files:
        if not os.path.exists(p):
            continue
        with open(p) as f:
            systems.append(json.load(f))
    if not systems:
        print("no result files")
        return 1
    names = [s["system"] for s in systems]
    print("| query | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    nq = max(len(s["result"]) for s in systems)
    for q in range(nq):
        cells = [fmt(hot(s["result"][q])) if q < len(s["result"]) else "-" for s in systems]
        if args.cold:
            cells = [c if c == "-" else "%s (cold %s)" % (c, fmt(cold(s["result"][q]))) for c, s in zip(cells, systems)]
        print("| Q%d | %s |" % (q, " | ".join(cells)))
    print("| load time (s) | " + " | ".join(fmt(s["load_time"], 1) if s["load_time"] is not None else "null" for s in systems) + " |")
    print("| data size (MB) | " + " | ".join("%.0f" % (s["data_size"] / 1e6) for s in systems) + " |")
    rh, rc = relative(systems, "hot"), relative(systems, "cold")
    cb = combined(systems, rh, rc)
    print("| relative hot | " + " | ".join("x" + fmt(rh[n], 2) for n in names) + " |")
    print("| relative cold | " + " | ".join("x" + fmt(rc[n], 2) for n in names) + " |")
    print("| combined | " + " | ".join("x" + fmt(cb[n], 2) for n in names) + " |")
    if args.svg:
        svg_chart(systems, args.svg)
        print("chart: " + args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
