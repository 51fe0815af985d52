#!/usr/bin/env python3
"""Pagoda's test harness: every level of test, one summary line.

    python3 tests/harness.py [--only SELECTORS] [--list] [--builds]

The units live in tests/levels/ (host, kernel suites, system tests; see
tests/README.md). Every boot has a timeout, its serial log is kept under
build/test/, and a panic, a hang or a target that did not boot counts as a
failure. Every verdict also goes to build/test/results.jsonl. The last line
is "N passed, N failed"; the exit status is non-zero on any failure.
Standard library only.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from levels import BUILDS, LEVELS, UNITS  # noqa: E402
from levels.common import OUT, Context, Tally, paths  # noqa: E402
from pagoda.results import JsonLines  # noqa: E402

SELECTOR_HELP = """\
make test ONLY=SELECTOR[,SELECTOR...]   (python3 tests/harness.py --only ...)
  all                 everything (the same as no ONLY)
  host|kernel|system  one level: host unit tests, in-kernel suites, system tests
  NAME                one unit below, or every unit whose name starts NAME-
                      (x86 stands for x86_64: x86-direct = x86_64-direct-smp2,-smp4)
  SEL:SUITE[+SUITE]   of what SEL selects, the units that boot ktest suites,
                      each running only those suites (test=SUITE,SUITE)
  help                this list
e.g. ONLY=host   ONLY=x86-direct   ONLY=arm64-virt:page_alloc   ONLY=kernel:sched+locking
"""


def _alias(name):
    return "x86_64" + name[3:] if name == "x86" or name.startswith("x86-") else name


def select(only):
    """Parse ONLY: return [(unit, suites or None)] in run order, or exit
    with one line saying what is wrong."""
    chosen = {}
    for sel in [s.strip() for s in (only or "all").split(",") if s.strip()]:
        name, _, suites = sel.partition(":")
        name = _alias(name)
        if suites and not all(suites.split("+")):
            sys.exit("ONLY=%s: an empty suite name" % sel)
        if name == "all":
            hits = UNITS
        elif name in LEVELS:
            hits = [u for u in UNITS if u.level == name]
        else:
            hits = [u for u in UNITS if u.name == name or u.name.startswith(name + "-")]
        if suites:
            hits = [u for u in hits if u.suites]
        if not hits:
            sys.exit("ONLY=%s: no test %s; `make test ONLY=help` lists them" %
                     (sel, "that runs ktest suites is called that" if suites
                      else "unit or level is called that"))
        for u in hits:
            if u.name in chosen and chosen[u.name] is None:
                continue
            if not suites:
                chosen[u.name] = None
            else:
                old = chosen.get(u.name)
                chosen[u.name] = ",".join(dict.fromkeys(
                    (old.split(",") if old else []) + suites.split("+")))
    # Level by level (host, kernel, system), each in registration order.
    order = sorted(UNITS, key=lambda u: LEVELS.index(u.level))
    return [(u, chosen[u.name]) for u in order if u.name in chosen]


def print_units():
    print(SELECTOR_HELP)
    for level in LEVELS:
        print("%s:" % level)
        for u in (u for u in UNITS if u.level == level):
            print("  %-30s %s" % (u.name + ("[:SUITE]" if u.suites else ""), u.doc))


def print_slowest(took, n=8):
    """make test has a time budget (tests/README.md): show where it goes."""
    if len(took) < 2:
        return
    total = sum(t for t, _ in took)
    top = sorted(took, reverse=True)[:n]
    print("slowest units (of %.0f s): %s" % (
        total, ", ".join("%s %.0f s" % (name, t) for t, name in top)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="which units to run (--only help)")
    ap.add_argument("--builds", action="store_true",
                    help="print what the selection needs built (for the Makefile)")
    ap.add_argument("--pi4-dtb", default=paths.PI4_DTB, help="device tree for raspi4b")
    ap.add_argument("--accel", default="auto", help="auto, kvm or tcg for x86-64 guests")
    a = ap.parse_args()
    if a.only.strip() == "help":
        if not a.builds:
            print_units()
        return 0
    todo = select(a.only)
    if a.builds:
        needed = {n for u, _ in todo for n in u.needs}
        print(" ".join(b for b in BUILDS if b in needed))
        return 0
    os.makedirs(OUT, exist_ok=True)
    with JsonLines(os.path.join(OUT, "results.jsonl"), "harness") as results:
        tally = Tally(results)
        ctx = Context(tally, os.path.abspath(a.pi4_dtb), a.accel)
        level = None
        took = []
        for u, suites in todo:
            if u.level != level:
                level = u.level
                print({"host": "host tests", "kernel": "kernel suites",
                       "system": "system tests"}[level])
            ctx.suites = suites
            t0 = time.monotonic()
            u.fn(ctx)
            took.append((time.monotonic() - t0, u.name))
            results.write("unit", {"name": u.name, "seconds": round(took[-1][0], 1)})
    print_slowest(took)
    print("%d passed, %d failed" % (len(tally.passed), len(tally.failed)))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
