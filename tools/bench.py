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


def run(accel, mem, names, runs, extra=""):
    """Boot `runs` times; return a list of per-boot lists of BENCH records."""
    boots = []
    for i in range(runs):
        cmd, _ = qemu.build_cmd(kernel=KERNEL, accel=accel, mem=mem,
                                cmdline=("bench=%s panic=-1 %s" % (names, extra)).strip())
        b = Boot(cmd, os.path.join(OUT, "%s-%s-%s-%d.log" % (names, accel, mem, i)),
                 1800).run()
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


def case_table(title, bench, results):
    """One row per case, one column per (accelerator, memory) boot."""
    cols, rows, vals = [], [], {}
    for col, boots in results:
        for recs in boots:
            for r in recs:
                if r.get("bench") != bench:
                    continue
                if col not in cols:
                    cols.append(col)
                if r["case"] not in rows:
                    rows.append(r["case"])
                vals[(col, r["case"])] = (r["value"], r["unit"], r["ratio_x1000"])
    if not rows:
        return
    print("\n%s" % title)
    print("%-46s" % "case" + "".join("%22s" % c for c in cols))
    for case in rows:
        line = "%-46s" % case
        for c in cols:
            v = vals.get((c, case))
            if v is None:
                line += "%22s" % "-"
            else:
                ratio = " x%.2f" % (v[2] / 1000.0) if v[2] else ""
                line += "%22s" % ("%.1f %s%s" % (v[0], v[1].split("/")[0], ratio))
        print(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--bench", default="all")
    ap.add_argument("--accel", default="auto",
                    help="auto (KVM when usable, and TCG), kvm or tcg")
    ap.add_argument("--big-mem", default="16G",
                    help="second guest size for the page allocator bench")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    accels = ((["kvm"] if qemu.kvm_usable() else []) + ["tcg"]
              if a.accel == "auto" else [a.accel])
    results = []
    # Boot timing: several boots, medians. The other benchmarks get their
    # own boots below.
    boot_names = "boot" if a.bench == "all" else a.bench
    for accel in accels:
        print("bench: %d boots under %s with %s" % (a.runs, accel.upper(), a.mem))
        results.append((accel, run(accel, a.mem, boot_names, a.runs)))
    boot_table(results)
    # The page allocator in a small and a big guest (struct pages for all
    # of it, a long shuffle), shuffle on so the boot's shuffle is timed.
    if a.bench in ("all", "pagealloc"):
        pa = []
        for accel in accels:
            for mem in (a.mem, a.big_mem):
                print("bench: pagealloc under %s with %s" % (accel.upper(), mem))
                pa.append(("%s %s" % (accel, mem),
                           run(accel, mem, "pagealloc", 1, "page_alloc.shuffle=1")))
        case_table("pagealloc: alloc/free cost and shuffle cost (ns per pair unless"
                   " stated; xN = ratio to the group's baseline in the same boot)",
                   "pagealloc", pa)
        results += pa
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
