"""Level 3: Linux's own selftests (Debian's linux-source-6.1, built by
tools/selftests.py) run under Pagoda and on the host, side by side.

Per program, Pagoda's verdict (the kselftest runner's: exit 0 pass, 4
skip, else fail) and its TAP lines are set beside the host's for the same
binary. A program or TAP line that passes on the host and does not on
Pagoda fails the unit, unless tests/selftests-known.txt names it with the
reason (a feature Pagoda leaves out on purpose). `make selftests` runs
this level alone; docs/userland.md tells how to read and extend it."""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from .common import ROOT, rel, unit

sys.path.insert(0, os.path.join(ROOT, "tools"))
import selftests as ksft  # noqa: E402  (tools/selftests.py)

KNOWN = os.path.join(ROOT, "tests", "selftests-known.txt")


def known_list():
    """{(arch or "*", "libc/suite/name" or ".../name#N"): reason}."""
    known = {}
    with open(KNOWN) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            what, _, reason = line.partition(" ")
            arch, _, path = what.rpartition(":")
            m = re.match(r"(.*)#(\d+)-#(\d+)$", path)  # a range of TAP lines: each one
            for key in (["%s#%d" % (m.group(1), n) for n in range(int(m.group(2)),
                                                                int(m.group(3)) + 1)]
                        if m else [path]):
                known[(arch or "*", key)] = reason.strip()
    return known


def is_known(known, arch, key):
    return known.get((arch, key)) or known.get(("*", key))


def pagoda_results(text, paths):
    """Each program's part of the typed session: {path: result} as ksft's run_host gives."""
    out = {}
    for path in paths:
        start = text.find("pagoda> run /%s\n" % " ".join([path] + ksft.args_of(path)))
        end_re = re.compile(r"^run: /%s: (exit status (\d+)|killed by signal (\d+)|.*)$"
                            % re.escape(path), re.M)
        m = end_re.search(text, start) if start >= 0 else None
        if not m:
            out[path] = {"verdict": "fail", "code": None, "tap": {}, "why": "no end seen"}
            continue
        part = text[start:m.start()]
        code = int(m.group(2)) if m.group(2) is not None else None
        why = "" if code is not None else m.group(0)
        out[path] = {"verdict": ksft.verdict(code), "code": code, "tap": ksft.tap_lines(part),
                     "why": why}
    return out


def counts(r):
    tap = r["tap"].values()
    return (sum(o and not s for o, s, _ in tap), sum(not o for o, _, _ in tap),
            sum(s for _, s, _ in tap))


def compare(ctx, arch, boot, host, mine, known):
    """One check per program; the table of both sides printed per suite."""
    suites = {}
    for path in host:
        parts = path.split("/")  # ksft/LIBC/SUITE.../NAME: futex/functional is one suite
        libc, suite, name = parts[1], "/".join(parts[2:-1]), parts[-1]
        key = "%s/%s/%s" % (libc, suite, name)
        h, p = host[path], mine[path]
        bad = []
        if h["verdict"] == "pass" and p["verdict"] != "pass":
            bad.append(key)
        for n, (ok, skip, desc) in h["tap"].items():
            if ok and not skip:
                po = p["tap"].get(n)
                if not po or not po[0] or po[1]:
                    bad.append("%s#%d" % (key, n))
        # A program the list names stands for its TAP lines too; a program
        # whose failing TAP lines the list names one by one is explained by them.
        lines = [b for b in bad if "#" in b]
        by_lines = bool(lines) and all(is_known(known, arch, b) for b in lines)
        unexplained = [b for b in bad if not is_known(known, arch, b)
                       and not is_known(known, arch, b.split("#")[0])
                       and not (b == key and by_lines)]
        ctx.tally.check("selftests:%s:%s" % (arch, key), not unexplained,
                        "passes on the host, not on Pagoda: %s (%s; log %s)"
                        % (", ".join(unexplained), p.get("why") or "exit %s" % p["code"],
                           rel(boot.log)))
        s = suites.setdefault((libc, suite), {"pagoda": [0, 0, 0], "host": [0, 0, 0]})
        for side, r in (("pagoda", p), ("host", h)):
            s[side][("pass", "fail", "skip").index(r["verdict"])] += 1
        print("    %-46s Pagoda %-4s (TAP %d/%d/%d)  host %-4s (TAP %d/%d/%d)%s" % (
            key, p["verdict"], *counts(p), h["verdict"], *counts(h),
            "  known: " + "; ".join(sorted({is_known(known, arch, b) or
                                            is_known(known, arch, b.split("#")[0])
                                            for b in bad} - {None}))
            if bad and not unexplained else ""))
    for (libc, suite), s in suites.items():
        print("  selftests %s %s/%s: Pagoda pass %d fail %d skip %d | host pass %d fail %d skip %d"
              % (arch, libc, suite, *s["pagoda"], *s["host"]))


def run_level(ctx, machine, timeout):
    arch = machine.split("-")[0]
    cpio = ksft.build(arch)
    # The host's run is mostly sleeping (the timer tests): it goes on in
    # the background while Pagoda boots, on the other CPU.
    with ThreadPoolExecutor(1) as pool:
        host_run = pool.submit(ksft.run_host, arch)
        paths = [ksft.path_of(libc, suite, name) for libc, suite, name, _, _ in ksft.programs(arch)]
        # In a writable directory, as the kselftest runner runs each program
        # in its own: some (futex_wait) make their files where they stand.
        script = [(r"pagoda> ", "cd /tmp\r")] + \
            [(r"pagoda> ", "run /%s\r" % " ".join([p] + ksft.args_of(p))) for p in paths] + \
            [(r"pagoda> ", "poweroff\r")]
        boot = ctx.boot(ctx.initrd_cmd(machine, cpio), "selftests-" + arch, timeout, script)
        host = host_run.result()
    text = boot.clean_text()
    mine = pagoda_results(text, paths)
    ctx.tally.check("selftests:%s.boot" % arch, "Power down." in text and not boot.timed_out,
                    "did not reach poweroff (log %s)" % rel(boot.log))
    compare(ctx, arch, boot, host, mine, known_list())


@unit("selftests-x86_64", "system", needs=["x86_64"])
def selftests_x86(ctx):
    """Linux's selftests (linux-source-6.1, musl and glibc) on x86-64 beside the host's results"""
    run_level(ctx, "x86_64", 240)


@unit("selftests-arm64-virt", "system", needs=["arm64-virt"])
def selftests_arm64(ctx):
    """Linux's selftests (linux-source-6.1, glibc) on arm64 virt beside the host's (qemu-aarch64)"""
    run_level(ctx, "arm64-virt", 360)
