#!/usr/bin/env python3
"""`make experiment`: the allocator-policy lab's matrix (mm/lab/mmlab.c).

On the host (build/host/mmlab-run): placement policies x workloads x
working-set ratios x aging lengths x seeds, one progress line per cell.
In QEMU: a smaller slice, booted with a 64 MiB direct-mapped memory-side
cache described in ACPI HMAT, each cell run by the kernel shell's
`mmlab run` and checked number for number against the host.

Writes build/experiment/results.jsonl (one JSON line per cell, kind
"lab": the host's cells, then the QEMU slice's), and renders
docs/experiments/allocator-policy.md (tables, the seed's numbers beside
ours) and docs/experiments/conflict-rate.svg (gnuplot). Standard library
plus gnuplot (tools/install-deps.sh installs it).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pagoda import accel as accel_mod, paths, qemu  # noqa: E402
from pagoda.boot import Boot  # noqa: E402
from pagoda.results import JsonLines  # noqa: E402

ROOT = paths.ROOT
RUNNER = paths.host_bin("mmlab-run")
KERNEL = paths.X86_KERNEL
OUT = os.path.join(paths.BUILD, "experiment")
DOCS = os.path.join(ROOT, "docs", "experiments")

POLICIES = ["inorder", "shuffle", "shuffle-entropy", "colour"]
SEEDS = [1, 2, 3, 4]
# The seed ("mm: Shuffle initial free memory to improve memory-side-cache
# utilization", v10, LKML, 1 Feb 2019): heap 3x the cache; conflict rates.
SEED_CLAIM = {"fresh": "8%", "aged": "21%", "shuffled": "11%", "contrived": "3x"}

LINE = re.compile(r"mmlab: (.*?): (.*)")


def parse(line):
    """The runner's / the shell's line as a dict of its key=value fields."""
    m = LINE.search(line)
    if not m:
        return None
    rec = dict(kv.split("=", 1) for kv in m.group(1).split())
    for kv in m.group(2).split():
        k, v = kv.split("=", 1)
        rec[k] = v
    for k in ("conflict", "cover", "hot"):
        rec[k] = float(rec[k].rstrip("%"))
    for k in ("max", "pages", "hot_pages", "survivors", "churn", "fails", "ratio",
              "aging", "live", "order", "seed"):
        rec[k] = int(rec[k])
    rec.pop("time", None)
    return rec


def cells(quick):
    """The host matrix: (label, args) per cell."""
    seeds = SEEDS[:2] if quick else SEEDS
    out = []
    for p in POLICIES:
        for s in seeds:
            for r in (150, 300, 500):
                out.append(["workload=fresh", "policy=" + p, "ratio=%d" % r, "seed=%d" % s])
                out.append(["workload=interleaved", "policy=" + p, "ratio=%d" % r,
                            "seed=%d" % s])
            for a in ((1, 4) if quick else (1, 4, 16)):
                out.append(["workload=aged", "policy=" + p, "aging=%d" % a, "seed=%d" % s])
            out.append(["workload=contrived", "policy=" + p, "seed=%d" % s])
            out.append(["workload=interleaved", "policy=" + p, "order=9", "seed=%d" % s])
    return out


def run_host(args):
    p = subprocess.run([RUNNER] + args, capture_output=True, text=True)
    if p.returncode:
        sys.exit("experiment: mmlab-run %s failed: %s" % (" ".join(args),
                                                         (p.stdout + p.stderr).strip()))
    return parse(p.stdout)


# The QEMU slice: a 64 MiB cache (from HMAT) on 512 MiB simulated nodes,
# so a 1 GiB guest holds the node, its struct pages and the working set.
QEMU_CELLS = [
    ["workload=fresh", "node=512M"],
    ["workload=aged", "node=512M", "aging=2"],
    ["workload=interleaved", "node=512M"],
    ["workload=contrived"],
]


def run_qemu(policies, accel):
    """Each policy's slice in one boot; returns [(args, kernel rec, host rec)]."""
    out = []
    for p in policies:
        cmds = ["mmlab run %s policy=%s" % (" ".join(c), p) for c in QEMU_CELLS]
        cmdline = 'shell.run="%s;poweroff" panic=-1' % ";".join(cmds)
        cmd = qemu.build_cmd(kernel=KERNEL, accel=accel, mem="1G", hmat_cache="64M",
                             cmdline=cmdline)[0]
        b = Boot(cmd, os.path.join(OUT, "qemu-%s.log" % p), 900).run()
        got = [parse(l) for l in b.text.replace("\r", "").splitlines() if "mmlab: workload=" in l]
        got = [g for g in got if g]
        if len(got) != len(QEMU_CELLS):
            sys.exit("experiment: the %s boot printed %d of %d cells (log %s)" %
                     (p, len(got), len(QEMU_CELLS), b.log))
        for c, k in zip(QEMU_CELLS, got):
            h = run_host(c + ["policy=" + p, "cache=64M"])
            out.append((c + ["policy=" + p], k, h))
            print("  qemu  %-48s conflict %6.2f%%  host %6.2f%%  %s" %
                  (" ".join(c + ["policy=" + p]), k["conflict"], h["conflict"],
                   "same" if k == h else "DIFFERENT"), flush=True)
    return out


def summary(recs, **match):
    xs = [r["conflict"] for r in recs if all(r.get(k) == v for k, v in match.items())]
    if not xs:
        return None
    return statistics.mean(xs), min(xs), max(xs), len(xs)


def fmt(s):
    if not s:
        return "-"
    mean, lo, hi, n = s
    return "%.1f%% (%.1f-%.1f)" % (mean, lo, hi) if n > 1 else "%.1f%%" % mean


def write_markdown(recs, qemu_rows, path):
    seeds = sorted({r["seed"] for r in recs})
    L = []

    def by_policy(**match):
        """One cell per policy: the conflict rate of the records that match."""
        return " | ".join(fmt(summary(recs, policy=p, **match)) for p in POLICIES)

    def heading(title):
        L.extend(["", "## " + title, ""])

    L.append("# Allocator-policy experiment: results")
    L.append("")
    L.append("Generated by `make experiment` (tools/experiment.py); do not edit by hand.")
    L.append("Model and workloads: [../allocator-policy.md](../allocator-policy.md). "
             "Conflict rate: the share of hot pages (4%% of the working set) that share "
             "a cache colour with another hot page; mean over seeds %s (min-max)." %
             ", ".join(map(str, seeds)))
    heading("The seed's table (heap 3x a 256 MiB cache, 4 GiB node)")
    L.append("| | the seed | inorder | shuffle | shuffle-entropy | colour |")
    L.append("|---|---|---|---|---|---|")
    rows = [
        ("fresh", SEED_CLAIM["fresh"], dict(workload="fresh", ratio=300)),
        ("aged: random churn, aging=16", SEED_CLAIM["aged"] + " (aged), " +
         SEED_CLAIM["shuffled"] + " (shuffled)", dict(workload="aged", aging=16)),
        ("aged: interleaved lifetimes, 4 MiB pairs", SEED_CLAIM["aged"] + " (aged), " +
         SEED_CLAIM["shuffled"] + " (shuffled)",
         dict(workload="interleaved", ratio=300, order=10)),
        ("interleaved, 2 MiB pairs (below the shuffle's order)", "-",
         dict(workload="interleaved", order=9)),
        ("contrived: two instances, half a cache each", "3x speed-up with shuffle",
         dict(workload="contrived")),
    ]
    for label, claim, m in rows:
        L.append("| %s | %s | %s |" % (label, claim, by_policy(**m)))
    heading("Working-set ratio (percent of the cache)")
    L.append("| workload | ratio | " + " | ".join(POLICIES) + " |")
    L.append("|---|---|" + "---|" * len(POLICIES))
    for w in ("fresh", "interleaved"):
        for r in (150, 300, 500):
            m = dict(workload=w, ratio=r) if w == "fresh" else dict(workload=w, ratio=r, order=10)
            L.append("| %s | %d%% | %s |" % (w, r, by_policy(**m)))
    heading("Aging length (random churn; node sizes allocated)")
    L.append("| aging | " + " | ".join(POLICIES) + " | churn allocations that failed (colour) |")
    L.append("|---|" + "---|" * len(POLICIES) + "---|")
    for a in sorted({r["aging"] for r in recs if r["workload"] == "aged"}):
        fails = [r["fails"] for r in recs if r["workload"] == "aged" and r["aging"] == a
                 and r["policy"] == "colour"]
        L.append("| %d | %s | %s |" % (a, by_policy(workload="aged", aging=a),
                                       "%d" % statistics.mean(fails) if fails else "-"))
    if qemu_rows:
        heading("In the kernel (QEMU, 64 MiB cache from ACPI HMAT)")
        L.append("| cell | kernel | host | same line |")
        L.append("|---|---|---|---|")
        for args, k, h in qemu_rows:
            L.append("| %s | %.2f%% | %.2f%% | %s |" % (" ".join(args), k["conflict"],
                                                       h["conflict"], "yes" if k == h else "NO"))
    L.append("")
    L.append("![conflict rate by workload and policy](conflict-rate.svg)")
    L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))


# The plot's groups, left to right: (label, cell filter, the seed's figures
# as (conflict %, what it was measured on)). The seed gives the contrived
# case as a speed-up, not a conflict rate: it has no mark there.
PLOT_GROUPS = [
    ("fresh", dict(workload="fresh", ratio=300), [(8, "first run after boot")]),
    ("aged (churn)", dict(workload="aged", aging=16),
     [(21, "after aging"), (11, "shuffled")]),
    ("interleaved 4M", dict(workload="interleaved", ratio=300, order=10),
     [(21, "after aging"), (11, "shuffled")]),
    ("interleaved 2M", dict(workload="interleaved", order=9), []),
    ("contrived", dict(workload="contrived"), []),
]


def write_plot(recs, svg):
    """Bars: each policy's mean over seeds, whiskers its min-max; the seed's
    own figures as dashed marks across their group."""
    if not shutil.which("gnuplot"):
        print("experiment: gnuplot not found (tools/install-deps.sh installs it); no plot")
        return
    dat = os.path.join(OUT, "plot.dat")
    with open(dat, "w") as f:
        f.write("group " + " ".join("%s lo hi" % p for p in POLICIES) + "\n")
        for label, m, _ in PLOT_GROUPS:
            cols = []
            for p in POLICIES:
                v = summary(recs, policy=p, **m) or (0, 0, 0, 0)
                cols.append("%.3f %.3f %.3f" % v[:3])
            f.write('"%s" %s\n' % (label, " ".join(cols)))
    ref = os.path.join(OUT, "plot-seed.dat")
    with open(ref, "w") as f:
        for x, (_, _, marks) in enumerate(PLOT_GROUPS):
            for y, what in marks:
                f.write("%d %g %d\n" % (x, y, 1 if what == "shuffled" else 0))
    # The contrived group's bars reach 100% and 0%: say each value, so a
    # zero bar is seen as a result rather than a gap.
    n = len(POLICIES)
    x0 = len(PLOT_GROUPS) - 1
    labels = "\n".join(
        "set label '%.0f%%' at %.3f,%.1f center" % (v[0], x0 + (i - (n - 1) / 2) / (n + 1),
                                                v[2] + 3)
        for i, v in enumerate(summary(recs, policy=p, **PLOT_GROUPS[-1][1]) or (0, 0, 0, 0)
                              for p in POLICIES))
    script = """
set terminal svg size 900,460 font 'sans,12' background rgb 'white'
set output '%(svg)s'
set title "Hot-page conflict rate, working set 3x a 256 MiB direct-mapped cache\\n(bars: mean of seeds; whiskers: min-max; dashes: the seed's own figures)"
set ylabel 'conflict rate (%%)'
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.8 border -1
set key top left
set yrange [0:112]
set bmargin 4
set grid ytics
set xtics ("fresh" 0, "aged (churn)" 1, "interleaved 4M" 2, "interleaved 2M" 3, "contrived\\n(the seed: 3x faster shuffled)" 4)
%(labels)s
plot for [i=0:%(n)d] '%(dat)s' using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)) title columnheader(2+3*i), \
     '%(ref)s' using 1:($3==0?$2:1/0):($1-0.45):($1+0.45) with xerrorbars pt 0 lw 3 dt 2 lc rgb 'black' title "the seed: before the shuffle", \
     '%(ref)s' using 1:($3==1?$2:1/0):($1-0.45):($1+0.45) with xerrorbars pt 0 lw 3 dt 3 lc rgb '#b00000' title "the seed: shuffled"
""" % dict(svg=svg, n=n - 1, dat=dat, ref=ref, labels=labels)
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="two seeds, shorter aging")
    ap.add_argument("--no-qemu", action="store_true", help="host matrix only")
    ap.add_argument("--accel", default="auto", help="auto, kvm or tcg for the QEMU slice")
    a = ap.parse_args()
    # A quick run is a smoke test, not the record: it must not overwrite the
    # tracked tables and plot in docs/experiments/.
    docs = os.path.join(OUT, "quick") if a.quick else DOCS
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(docs, exist_ok=True)

    todo = cells(a.quick)
    recs = []
    for i, args in enumerate(todo, 1):
        rec = run_host(args)
        recs.append(rec)
        print("[%3d/%d] %-52s conflict %6.2f%%  cover %6.2f%%" %
              (i, len(todo), " ".join(args), rec["conflict"], rec["cover"]), flush=True)
    if not a.no_qemu:
        accel, why = accel_mod.choose(a.accel)
        print("experiment: the QEMU slice under %s (%s)" % (accel.upper(), why))
    qemu_rows = [] if a.no_qemu else run_qemu(POLICIES, accel)

    with JsonLines(os.path.join(OUT, "results.jsonl"), "experiment") as out:
        for r in recs:
            out.write("lab", dict(r, where="host"))
        for x, k, h in qemu_rows:
            out.write("lab", dict(k, where="qemu", args=x, host_equal=(k == h)))
    md, svg = os.path.join(docs, "allocator-policy.md"), os.path.join(docs, "conflict-rate.svg")
    write_markdown(recs, qemu_rows, md)
    write_plot(recs, svg)
    print("experiment: %s, %s, %s" % (os.path.relpath(os.path.join(OUT, "results.jsonl"), ROOT),
                                      os.path.relpath(md, ROOT), os.path.relpath(svg, ROOT)))
    bad = [x for x, k, h in qemu_rows if k != h]
    if bad:
        sys.exit("experiment: the kernel and the host disagree on %d cells" % len(bad))


if __name__ == "__main__":
    main()
