#!/usr/bin/env python3
"""`make bench`: boot the kernel with bench=all under KVM (when /dev/kvm is
usable) and under TCG, collect the BENCH JSON lines each run prints, and show
them side by side: a table for people, JSON lines (build/bench/results.jsonl)
for tools. Standard library only.

TCG timings are emulator timings, not hardware timings; so are KVM timings
under nested virtualization. The table says which is which.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import qemu  # noqa: E402
from harness import Boot  # noqa: E402

KERNEL = os.path.join(ROOT, "build", "x86_64-pc", "pagoda.elf")
OUT = os.path.join(ROOT, "build", "bench")


def run(accel, mem, names, runs):
    """Boot `runs` times; return a list of per-boot lists of BENCH records."""
    boots = []
    for i in range(runs):
        cmd, _ = qemu.build_cmd(kernel=KERNEL, accel=accel, mem=mem,
                                cmdline="bench=%s panic=-1" % names)
        b = Boot(cmd, os.path.join(OUT, "%s-%s-%d.log" % (accel, mem, i)), 300).run()
        recs = []
        for line in b.text.replace("\r", "").splitlines():
            if line.startswith("BENCH "):
                rec = json.loads(line[6:])
                rec.update(run=i, mem=mem, qemu_accel=accel)
                recs.append(rec)
        if not recs:
            print("bench: %s boot %d printed no results (log %s)" % (accel, i, b.log))
        boots.append(recs)
    return boots


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def boot_table(results):
    """Median time per boot step, per accelerator, in microseconds."""
    steps, cols = [], []
    per = {}
    for accel, boots in results:
        cols.append(accel)
        for recs in boots:
            for r in recs:
                if r.get("bench") != "boot":
                    continue
                key = r["step"] if r["step"] != "total" else "total (entry to %s)" % r["to"]
                if key not in steps:
                    steps.append(key)
                per.setdefault((accel, key), []).append(r["ns"] / 1000.0)
    print("\nboot: time from kernel entry to the shell prompt (median of runs, microseconds)")
    print("%-28s" % "step" + "".join("%14s" % c for c in cols))
    for s in steps:
        row = "%-28s" % s
        for c in cols:
            m = median(per.get((c, s), []))
            row += "%14s" % ("-" if m is None else "%.1f" % m)
        print(row)
    tot = [k for k in steps if k.startswith("total")]
    if len(cols) == 2 and tot:
        a, b = (median(per.get((c, tot[0]), [])) for c in cols)
        if a and b:
            print("ratio %s/%s: %.2f" % (cols[0], cols[1], a / b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--bench", default="all")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    accels = (["kvm"] if qemu.kvm_usable() else []) + ["tcg"]
    results = []
    for accel in accels:
        print("bench: %d boots under %s with %s" % (a.runs, accel.upper(), a.mem))
        results.append((accel, run(accel, a.mem, a.bench, a.runs)))
    boot_table(results)
    path = os.path.join(OUT, "results.jsonl")
    with open(path, "w") as f:
        for _, boots in results:
            for recs in boots:
                for r in recs:
                    line = json.dumps(r, sort_keys=True)
                    f.write(line + "\n")
                    print("BENCH " + line)
    print("bench: results in %s" % os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
