#!/usr/bin/env python3
"""Boot Pagoda and run user/syzfuzz, then check that nothing was lost.

    tools/fuzz-syscalls.py SECONDS [--arch x86_64|arm64] [--seed N] [--calls a,b,...]
                           [--owners CACHE,...]

One boot (TCG, lockdep=1): a short syzfuzz run first (it warms the slab
caches and lets the deferred struct pages finish), the per-CPU page lists
drained, meminfo and slabinfo; then syzfuzz SECONDS with the seed (a new
one from the clock when none is given: syzfuzz prints it); `ps` (what is
left, and the moment the reaper needs for the orphans of killed workers);
then the same figures, `pagealloc check` and `lockstat`. The run passes when syzfuzz
ends by itself, the kernel neither panics nor hangs, free pages plus slab
pages and each cache's objects are what they were
(tests/levels/procmem.py's memory_figures), the free lists are consistent
and lockdep reported nothing. `make fuzz-syscalls` runs it.

--owners (`make fuzz-syscalls OWNERS=kmalloc-192`) boots with slab.debug=1
and prints, for each cache named, its objects in use by the caller that
allocated them at both points (`slabinfo CACHE`), and what changed: the
owner of a leak check's extra objects.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, ROOT)
from pagoda import paths, qemu  # noqa: E402
from pagoda.boot import Boot  # noqa: E402
from tests.levels.procmem import memory_figures  # noqa: E402

WARMUP_SECONDS = 3
FIGURES = ["pagealloc drain", "meminfo", "slabinfo"]


def session(seconds, seed, calls="", owners=()):
    only = " 4 " + calls if calls else ""
    figures = FIGURES + ["slabinfo " + c for c in owners]
    return (["run /bin/syzfuzz %d 1%s" % (WARMUP_SECONDS, only), "ps"] + figures +
            ["run /bin/syzfuzz %d %s%s" % (seconds, seed, only), "ps"] + figures +
            ["pagealloc check", "lockstat", "poweroff"])


def owner_tables(text, cache):
    """Each `slabinfo CACHE` answer as {caller: objects}."""
    tables = []
    for blk in text.split("pagoda> slabinfo %s\n" % cache)[1:]:
        body = blk.split("pagoda> ")[0]
        tables.append({m.group(2): int(m.group(1))
                       for m in re.finditer(r"^ +(\d+) (\S+)$", body, re.M)})
    return tables


def owner_changes(text, cache):
    """Lines saying whose objects of cache grew or shrank between the two points."""
    t = owner_tables(text, cache)
    if len(t) != 2:
        return ["%s: %d owner tables, not 2 (was slab.debug=1 on?)" % (cache, len(t))]
    out = []
    for who in sorted(set(t[0]) | set(t[1]), key=lambda w: t[0].get(w, 0) - t[1].get(w, 0)):
        d = t[1].get(who, 0) - t[0].get(who, 0)
        if d:
            out.append("%s: %+d objects from %s (%d, then %d)" % (
                cache, d, who, t[0].get(who, 0), t[1].get(who, 0)))
    return out or ["%s: the same objects by the same callers" % cache]


def workqueue_workers(text):
    """The unbound workqueue's workers (events/uN) in each `ps`."""
    return [len(re.findall(r"^ *\d+ events/u\d+ ", blk.split("pagoda> ")[0], re.M))
            for blk in text.split("pagoda> ps\n")[1:]]


def pool_growth(pts, workers):
    """(ok, why) for figures that differ. The one thing allowed to hold
    memory after the run is the workqueue's pool: the reaper's items sleep
    in kthread_join, so a burst of orphans ending starts workers
    (kernel/workqueue.c keeps an idle one in reserve), and a retired
    worker's stack and task are given back only when its slot is used
    again. So: each cache holds exactly one more object per new worker or
    none, and the pages lost are a 16 KiB stack (and at most a page-table
    page and the objects' slab pages) each."""
    grown = workers[1] - workers[0]
    diffs = {k: v - pts[0][1].get(k, 0) for k, v in pts[1][1].items()}
    lost = pts[0][0] - pts[1][0]
    if grown <= 0:
        return False, "the workqueue's pool did not grow (%d workers, then %d)" % tuple(workers)
    ok = all(d in (0, grown) for d in diffs.values()) and 16 * grown <= lost <= 24 * grown
    return ok, "%d more workqueue workers hold %d kB%s" % (
        grown, lost, "" if ok else ": more than their stacks and tasks")


def verdict(text, seconds):
    """[(check, ok, detail)] for one boot's log."""
    out = []
    seeds = re.findall(r"syzfuzz: seed (0x[0-9a-f]+)", text)
    ends = re.findall(r"syzfuzz: (\d+) workers: .*", text)
    out.append(("syzfuzz ran to its end", len(ends) == 2,
                "%d of 2 runs ended; seed %s" % (len(ends), seeds[-1:] or "?")))
    bad = [m for m in ("Kernel panic", "CPU exception", "BUG:", "Oops") if m in text]
    out.append(("no panic", not bad, ", ".join(bad)))
    stuck = re.findall(r"syzfuzz: worker .* still there .*", text)
    out.append(("every worker died when killed", not stuck, "; ".join(stuck[:3])))
    pts = memory_figures(text)
    deferred = text.count("Deferred:")
    workers = workqueue_workers(text)
    ok = len(pts) == 2 and len(workers) == 2 and deferred == 0
    detail = "free+slab kB %s" % [p[0] for p in pts]
    if ok and pts[0] != pts[1]:
        ok, why = pool_growth(pts, workers)
        detail += ", objects held %s; %s" % (
            {k: (pts[0][1].get(k), v) for k, v in pts[1][1].items() if pts[0][1].get(k) != v},
            why)
    if deferred:
        detail += " (struct pages still deferred at a measurement: not comparable)"
    out.append(("free memory and slab objects came back", ok, detail))
    anon = re.findall(r"AnonPages: +(\d+) kB", text)
    out.append(("no process pages left", anon[-1:] == ["0"], "AnonPages %s" % anon))
    out.append(("pagealloc check", "pagealloc: free lists consistent" in text,
                (re.findall(r"pagealloc: .*", text) or ["no answer"])[-1]))
    lk = re.search(r"lockdep: [^\n]*reports: (\d+) inversion\(s\), (\d+) sleep\(s\) in atomic"
                   r"[^\n]*", text)
    quiet = lk is not None and all(v == "0" for v in re.findall(r"(\d+) [a-z]", lk.group(0)
                                                              .split("reports:")[1]))
    out.append(("lockdep silent", quiet and "WARNING:" not in text,
                lk.group(0) if lk else "no lockstat line"))
    out.append(("powered off", "Power down." in text, ""))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seconds", type=int)
    ap.add_argument("--arch", default="x86_64", choices=("x86_64", "arm64"))
    ap.add_argument("--seed", default="0")
    ap.add_argument("--calls", default="", help="only these (name,name,...)")
    ap.add_argument("--owners", default="",
                    help="slab caches whose objects to count by allocating caller (slab.debug=1)")
    a = ap.parse_args()
    owners = [c for c in a.owners.split(",") if c]
    cmdline = 'shell.run="%s" panic=-1 lockdep=1 lockstat=1' % ";".join(
        session(a.seconds, a.seed, a.calls, owners))
    if owners:
        cmdline += " slab.debug=1"
    if a.arch == "x86_64":
        cmd = qemu.build_cmd(accel="tcg", cmdline=cmdline, kernel=paths.X86_KERNEL)[0]
    else:
        cmd = qemu.build_cmd(arch="arm64", platform="virt", cmdline=cmdline,
                             kernel=paths.ARM64_IMAGE["virt"])[0]
    log = os.path.join(paths.BUILD, "fuzz", "syscalls-%s.log" % a.arch)
    b = Boot(cmd, log, a.seconds * 3 + 240).run()
    text = b.clean_text()
    results = verdict(text, a.seconds)
    results.append(("no hang", not b.timed_out,
                    "QEMU stopped after %d s" % b.timeout if b.timed_out else ""))
    for what, ok, detail in results:
        print("  %-4s %s%s" % ("ok" if ok else "FAIL", what, (": " + detail) if detail else ""))
    for c in owners:
        for line in owner_changes(text, c):
            print("  owners %s" % line)
    print("fuzz-syscalls: %s, log %s" % (a.arch, paths.rel(log)))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
