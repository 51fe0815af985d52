#!/usr/bin/env python3
"""What a change needs to rerun: an ONLY= selector from the files a diff touches.

    python3 tests/changed.py [REF]      (make test CHANGED=1, or CHANGED=REF)

The files: those that differ from REF (HEAD by default: what is not yet
committed), committed or not, and new files git does not ignore. Each file
maps to units:

  docs/, README.md, labs/    the docs and labs units
  tests/levels/NAME.py       every unit that module registers
  tests/host/, tools/        the host level
  bench/                     one boot (the numbers are `make bench`'s)
  a C file beside *_test.c   the ktest suites of its folder on every kernel
                             target (kernel:SUITE+SUITE), and the system
                             units whose module names the folder
  anything else              everything (include/, arch/, the Makefile, a
                             folder with no suites: too many readers)

Prints the selector on stdout ("all" or a comma list) and, on stderr, one
line per file saying why. Standard library only.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from levels import UNITS  # noqa: E402

SUITE_RE = re.compile(r"KTEST_SUITE(?:_FULL)?\(\s*([A-Za-z0-9_]+)")


def changed_files(ref):
    def git(*args):
        return subprocess.run(["git"] + list(args), cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.split("\n")
    files = git("diff", "--name-only", ref) + git("ls-files", "--others", "--exclude-standard")
    return sorted({f for f in files if f})


def suites_in(folder):
    names = []
    path = os.path.join(ROOT, folder)
    for f in sorted(os.listdir(path)) if os.path.isdir(path) else []:
        if f.endswith("_test.c"):
            with open(os.path.join(path, f)) as fh:
                names += SUITE_RE.findall(fh.read())
    return names


def units_of_module(module):
    return [u.name for u in UNITS if u.fn.__module__ == "levels." + module]


def system_units_naming(folder):
    """System units whose module mentions folder/ (dmsnap.py names block/dm/)."""
    hits = []
    levels = os.path.join(HERE, "levels")
    for f in sorted(os.listdir(levels)):
        if f.endswith(".py"):
            with open(os.path.join(levels, f)) as fh:
                if folder + "/" in fh.read():
                    hits += [u for u in units_of_module(f[:-3])
                             if next(x for x in UNITS if x.name == u).level == "system"]
    return hits


def selectors_for(path):
    """(selectors, why) for one file; selectors None means everything."""
    folder = os.path.dirname(path)
    if path.endswith(".md") or path.startswith("docs/"):
        return units_of_module("docs"), "documentation"
    if path.startswith("labs/"):
        return units_of_module("labs") + units_of_module("docs"), "the course"
    m = re.match(r"tests/levels/(\w+)\.py$", path)
    if m and m.group(1) not in ("common", "__init__"):
        return units_of_module(m.group(1)), "its units"
    if path.startswith(("tests/host/", "tools/")) or path == "tests/changed.py":
        return ["host"], "host programs and tools"
    if path.startswith("bench/"):
        return (["x86-direct:params"], "a kernel that builds and boots (its numbers: "
                "`make bench`)")
    if path.endswith((".c", ".h", ".S")) and not path.startswith(("include/", "arch/")):
        suites = suites_in(folder)
        if suites:
            return (["kernel:" + "+".join(dict.fromkeys(suites))] +
                    system_units_naming(folder),
                    "the suites beside it (%s)" % ", ".join(dict.fromkeys(suites)))
    return None, "read by too much of the kernel to narrow"


def main(argv):
    ref = argv[1] if len(argv) > 1 and argv[1] not in ("", "1") else "HEAD"
    files = changed_files(ref)
    if not files:
        print("changed: nothing differs from %s" % ref, file=sys.stderr)
        print("")
        return
    picked = []
    for f in files:
        sels, why = selectors_for(f)
        print("changed: %-40s %s" % (f, why if sels is None else
                                      "%s: %s" % (why, ",".join(sels) or "-")),
              file=sys.stderr)
        if sels is None:
            print("all")
            return
        picked += sels
    print(",".join(dict.fromkeys(picked)) or "docs")


if __name__ == "__main__":
    main(sys.argv)
