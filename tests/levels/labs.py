"""The course's labs kept honest (docs/course.md): for every lab declared
in labs/labs.py, tools/lab.py check makes the student tree and asserts
that it builds, that it scores below full marks, that the full tree scores
full marks, and that following the handout's first steps (a student's new
file registered) leaves `make host-test` passing."""
import os
import subprocess
import sys

from .common import OUT, ROOT, rel, unit


@unit("labs", "host", needs=["host", "x86_64", "arm64-virt"])
def labs(ctx):
    """every lab: student tree builds and fails, full tree full marks, first steps safe"""
    log = os.path.join(OUT, "labs.log")
    with open(log, "w") as f:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "lab.py"), "check"],
                           cwd=ROOT, stdout=f, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=1500)
    with open(log) as f:
        text = f.read()
    checks = [l.split(None, 3) for l in text.splitlines() if l.startswith("CHECK ")]
    ctx.tally.check("labs:ran", bool(checks) and r.returncode in (0, 1),
                    "tools/lab.py check printed no verdicts (exit %d, log %s)"
                    % (r.returncode, rel(log)))
    for c in checks:
        ok, what = c[1] == "ok", c[2]
        ctx.tally.check("lab:" + what, ok, "%s (log %s)" % (" ".join(c[3:]), rel(log)))
    print("  %-14s %d checks, log %s" % ("labs", len(checks), rel(log)))
