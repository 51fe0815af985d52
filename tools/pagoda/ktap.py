"""Reading KTAP version 1, as kernel/ktest.c prints it (in QEMU and on the host)."""
import re

_PLAN = re.compile(r"^1\.\.(\d+)$")
_SUBTEST = re.compile(r"^    # Subtest: (\S+)")
_CASE = re.compile(r"^    (not ok|ok) (\d+) (\S+)(.*)$")
_SUITE = re.compile(r"^(not ok|ok) (\d+) (\S+)")


def parse(text):
    """Return (cases, suites, plan).

    cases: (suite, number, name, ok, skipped) for every case line;
    suites: (name, ok) for every suite's own result line;
    plan: the top-level 1..N, or None if the output never got that far.
    """
    cases, suites, plan = [], [], None
    current = None
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        m = _PLAN.match(line)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = _SUBTEST.match(line)
        if m:
            current = m.group(1)
            continue
        m = _CASE.match(line)
        if m and current:
            cases.append((current, int(m.group(2)), m.group(3),
                          m.group(1) == "ok", "# SKIP" in m.group(4)))
            continue
        m = _SUITE.match(line)
        if m:
            suites.append((m.group(3), m.group(1) == "ok"))
            current = None
    return cases, suites, plan


def failure_lines(text, most=3):
    """What each failed case said about itself: {(suite, name): [lines]}.

    A case's own diagnostics ("        # name: file:line: message") and any
    line its programs printed with FAIL in it, from the case's start to its
    result line, the first `most` of them. A failure seen only in a CI
    run's printed summary then still says which check broke."""
    out, current, said = {}, None, []
    for raw in text.splitlines():
        line = re.sub(r"^\[[ 0-9.]+\] ", "", raw.rstrip("\r"))
        m = _SUBTEST.match(line)
        if m:
            current, said = m.group(1), []
            continue
        m = _CASE.match(line)
        if m and current:
            name = m.group(3)
            if m.group(1) == "not ok":
                mine = [s.strip() for s in said
                        if s.strip().startswith("# %s:" % name) or "FAIL" in s]
                out[(current, name)] = [s for s in mine if "took" not in s][:most]
            said = []
            continue
        if current:
            said.append(line)
    return out
