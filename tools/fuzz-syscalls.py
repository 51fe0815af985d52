#!/usr/bin/env python3
"""Boot Pagoda and run user/syzfuzz, then check that nothing was lost.

    tools/fuzz-syscalls.py SECONDS [--arch x86_64|arm64] [--seed N]

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


def session(seconds, seed):
    return (["run /bin/syzfuzz %d 1" % WARMUP_SECONDS] + FIGURES +
            ["run /bin/syzfuzz %d %s" % (seconds, seed), "ps"] + FIGURES +
            ["pagealloc check", "lockstat", "poweroff"])


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
    ok = len(pts) == 2 and pts[0] == pts[1] and deferred == 0
    detail = "free+slab kB %s" % [p[0] for p in pts]
    if len(pts) == 2 and pts[0][1] != pts[1][1]:
        detail += ", objects held %s" % {k: (pts[0][1].get(k), v) for k, v in pts[1][1].items()
                                         if pts[0][1].get(k) != v}
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
    a = ap.parse_args()
    cmdline = 'shell.run="%s" panic=-1 lockdep=1 lockstat=1' % ";".join(session(a.seconds, a.seed))
    if a.arch == "x86_64":
        cmd = qemu.build_cmd(accel="tcg", cmdline=cmdline, kernel=paths.X86_KERNEL)[0]
    else:
        cmd = qemu.build_cmd(arch="arm64", platform="virt", cmdline=cmdline,
                             kernel=paths.ARM64_IMAGE["virt"])[0]
    log = os.path.join(paths.BUILD, "fuzz", "syscalls-%s.log" % a.arch)
    b = Boot(cmd, log, a.seconds * 3 + 240).run()
    text = b.clean_text()
    results = verdict(text, a.seconds)
    results.append(("no hang", not b.timed_out, "QEMU stopped after %d s" % b.timeout))
    for what, ok, detail in results:
        print("  %-4s %s%s" % ("ok" if ok else "FAIL", what, (": " + detail) if detail else ""))
    print("fuzz-syscalls: %s, log %s" % (a.arch, paths.rel(log)))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
