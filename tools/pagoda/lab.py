"""The course's machinery: student trees and grading (docs/course.md).

A lab is declared in labs/labs.py: its name, its handout, the files the
student writes in, the files only the full tree has, and its tests with
their points. This module turns a declaration into

  * a student tree (make_tree): a copy of the repository with the lab's
    stub patch applied (labs/stubs/LAB.patch: the lab's functions
    replaced by TODO stubs) and the solution-only files left out,
    committed as a fresh git repository a teacher can push;
  * a grade (grade): each test run with a time limit, one line per test
    with its points, and a total. A hang, a panic or a build that fails
    costs the points of the tests that needed it, never the whole run.

The reference sources hold the solution alone, with no trace of the lab:
a reader of mm/ or kernel/ reads clean code. The stub lives beside the
known-wrong solutions, as a patch against that reference; `tools/lab.py
save-stub LAB --tree DIR` writes it from a student tree whose stubs were
edited by hand. A patch that no longer applies (the reference moved too
far under it) fails `make lab` and `tools/lab.py check`, so it is fixed,
never silently skipped. The old way, `/* LAB name: solution */` regions
with a dead `#if 0` stub in the source, is refused (OLD_REGION).
"""
import os
import re
import shutil
import subprocess
import threading
import time

from . import ktap, qemu

# A marker of the old in-source regions: refused, so none creeps back.
OLD_REGION = re.compile(r"/\* LAB (\S+): (?:solution|stub|end|solution line) \*/")

# Answer keys for teachers live here and never go to students.
ANSWERS_DIR = "docs/labs/answers"
# Known-wrong solutions: patches against the solution, so they quote it.
WRONG_DIR = "labs/wrong"
# Student starting points, as patches against the reference (they quote
# the solution, so they never go to students either).
STUB_DIR = "labs/stubs"


def stub_patch(root, lab):
    """labs/stubs/LAB.patch under root, or None when the lab has none."""
    p = os.path.join(root, STUB_DIR, lab + ".patch")
    return p if os.path.isfile(p) else None


def patch_files(path):
    """The files a unified diff changes (its +++ lines, a/ b/ stripped)."""
    with open(path) as f:
        return [l[4:].split("\t")[0].strip().split("/", 1)[1]
                for l in f if l.startswith("+++ ")]


def apply_patch(tree, path):
    """Apply path (a -p1 unified diff) in tree; LabError when it does not apply."""
    r = subprocess.run(["patch", "-p1", "--quiet", "--no-backup-if-mismatch", "-i", path],
                       cwd=tree, capture_output=True, text=True)
    if r.returncode:
        raise LabError("%s does not apply: %s" % (path, (r.stdout + r.stderr).strip()[-300:]))


class LabError(Exception):
    pass


# `tools/lab.py check` grades two labs at once. Both may make in the same
# tree (the full tree: a fuzzer built there for the first time), and a
# student tree is seeded by copying that tree's build/: one make at a
# time per tree, and no copy while one runs (a half-written file copied
# with a new time would never be rebuilt).
_LOCKS = threading.Lock()
_TREE_LOCKS = {}


def tree_lock(tree):
    """The lock of tree's build/: held by every make there and by seed_build."""
    with _LOCKS:
        return _TREE_LOCKS.setdefault(os.path.realpath(tree), threading.Lock())


# --- declarations ---------------------------------------------------------

class Host:
    """A ktest case run on the host (build/host/ktest-host SUITE)."""

    def __init__(self, suite, case, points):
        self.suite, self.case, self.points = suite, case, points
        self.name = "host %s.%s" % (suite, case)


class Kernel:
    """A ktest case run in QEMU: x86-64 (direct boot) or arm64 virt.
    timeout: seconds the boot may take; a suite that ends in seconds gets
    less than the default, so a wrong version that hangs it costs little."""

    def __init__(self, suite, case, points, arch="x86_64", smp=2, cmdline="", timeout=300):
        self.suite, self.case, self.points = suite, case, points
        self.arch, self.smp, self.cmdline = arch, smp, cmdline
        self.timeout = timeout
        self.name = "%s smp%d %s.%s" % ("x86-64" if arch == "x86_64" else "arm64 virt",
                                        smp, suite, case)


class Check:
    """Any other check: fn(grader, log) returns (ok, detail). fn runs what
    it needs in grader.tree, under time limits of its own."""

    def __init__(self, name, points, fn):
        self.name, self.points, self.fn = name, points, fn


class Lab:
    def __init__(self, name, title, handout, tests, files=(), solution_only=(),
                 replace=None, first_steps=None, alone=False):
        self.name, self.title, self.handout = name, title, handout
        # A grade that measures time or fairness in QEMU (a scheduler's
        # shares, a lock's order): `tools/lab.py check` runs it with no
        # other lab beside it, so another lab's boots cannot skew it.
        self.alone = alone
        self.tests = list(tests)
        # Files holding this lab's regions (checked: each must have one).
        self.files = list(files)
        self.solution_only = list(solution_only)
        # {file: stub}: the student tree's file is the stub's content.
        self.replace = dict(replace or {})
        # fn(tree): do what the handout's first steps say (CI checks that
        # the other tests still pass afterwards).
        self.first_steps = first_steps

    @property
    def points(self):
        return sum(t.points for t in self.tests)


# --- student trees ----------------------------------------------------------

def tracked_files(root):
    r = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True)
    if r.returncode != 0:
        raise LabError("%s is not a git checkout: a student tree is made from one" % root)
    return [f for f in r.stdout.decode().split("\0") if f]


def make_tree(root, lab, dest):
    """Write lab's student tree to dest (replacing it) and commit it there."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    for rel in tracked_files(root):
        if rel in lab.solution_only or rel.startswith((ANSWERS_DIR + "/", WRONG_DIR + "/")) \
                or (rel.startswith(STUB_DIR + "/") and rel.endswith(".patch")):
            continue
        src, dst = os.path.join(root, rel), os.path.join(dest, rel)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if rel in lab.replace:
            shutil.copyfile(os.path.join(root, lab.replace[rel]), dst)
            continue
        if rel in lab.files:
            with open(src, encoding="utf-8", errors="surrogateescape") as f:
                m = OLD_REGION.search(f.read())
            if m:
                raise LabError("%s: a /* LAB %s: */ region in the source: the stub goes in %s/"
                               "%s.patch instead (docs/course.md)" % (rel, m.group(1), STUB_DIR,
                                                                     lab.name))
        # Files keep their times, so a copied build/ stays valid for
        # them and only what the stub patch changes recompiles.
        shutil.copy2(src, dst)
    stub = stub_patch(root, lab.name)
    patched = patch_files(stub) if stub else []
    if stub:
        apply_patch(dest, stub)
    # No stub patch yet (a lab being written): the tree is the reference,
    # which `check` then finds at full marks.
    for rel in lab.files if stub else ():
        if rel not in patched:
            raise LabError("lab %s: %s is one of its files, but %s does not change it"
                           % (lab.name, rel, stub))
    for rel in set(patched) - set(lab.files):
        raise LabError("lab %s: its stub patch changes %s, which is not one of its files"
                       % (lab.name, rel))
    env = dict(os.environ, GIT_AUTHOR_NAME="Pagoda course", GIT_AUTHOR_EMAIL="course@localhost",
               GIT_COMMITTER_NAME="Pagoda course", GIT_COMMITTER_EMAIL="course@localhost")
    for cmd in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"],
                ["git", "commit", "-q", "-m", "Pagoda lab %s: starting point" % lab.name]):
        subprocess.run(cmd, cwd=dest, env=env, check=True, capture_output=True)
    return len(patched)


def seed_build(root, dest, gone=()):
    """Copy root's build outputs into dest, times kept: make then rebuilds
    only what the student tree changed (a few files, not the kernel).
    gone: sources the tree left out (a lab's solution-only files). Make
    relinks only when a prerequisite is newer, not when one is missing,
    so the copied links still hold their objects: remove them too."""
    src = os.path.join(root, "build")
    with tree_lock(root):
        _copy_build(src, dest)
    if gone:
        drop_links(dest)


def _copy_build(src, dest):
    # fixtures: the device trees ktest-host embeds. Without them each tree
    # made them again (a QEMU run per tree) and relinked ktest-host.
    for sub in ("host", "x86_64-pc", "arm64-virt", "fixtures", ".deps-ok", "accel.verdict"):
        s, d = os.path.join(src, sub), os.path.join(dest, "build", sub)
        if os.path.isdir(s):
            shutil.copytree(s, d, symlinks=True, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*.iso", "test", "fuzz"))
        elif os.path.isfile(s):
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copy2(s, d)


def drop_links(dest):
    """Remove dest's linked kernels and ktest-host, so the next make links
    them again from the sources there now (a source that went away takes
    its object out of the link only so)."""
    for sub in ("x86_64-pc", "arm64-virt"):
        for f in ("pagoda0.elf", "pagoda.elf", "kernel8.img"):
            p = os.path.join(dest, "build", sub, f)
            if os.path.exists(p):
                os.remove(p)
    p = os.path.join(dest, "build", "host", "ktest-host")
    if os.path.exists(p):
        os.remove(p)


# --- grading ------------------------------------------------------------------

def crash_site(text):
    """Where a run that died did so, for the cases it never reached: the
    last case that reported and the sanitizer's or panic's own line, so a
    crash in an ungraded case is not only an ASan trace deep in a log."""
    last = re.findall(r"^\s*(?:not )?ok \d+ (\w+)", text, re.M)
    err = re.search(r"^.*(?:ERROR: \w+Sanitizer|runtime error|Kernel panic).*$", text, re.M)
    return "".join([", after case %s" % last[-1] if last else ", before any case reported",
                    ": " + err.group(0).strip()[:160] if err else ""])

class Grader:
    # A class's grade fuzzes 20 s per fuzz test; `tools/lab.py check`, which
    # only asks whether the reference tree still earns full marks (make test
    # fuzzes the same code longer in host-fuzz), passes fewer.
    FUZZ_SECONDS = 20

    def __init__(self, tree, out, say=print, fuzz_seconds=FUZZ_SECONDS, share=None,
                 make_vars=()):
        self.tree, self.out, self.say = tree, out, say
        self.fuzz_seconds = fuzz_seconds
        # VAR=value for every make (not part of what a build is known by).
        self.make_vars = list(make_vars)
        if share:
            # The same tree graded for another lab at the same time: its
            # builds and boots are this one's too, each done once.
            self.built, self.runs, self._run_locks = share.built, share.runs, share._run_locks
        else:
            self.built = {}     # make goal -> (ok, log)
            self.runs = {}      # (what...) -> (cases, log, why)
            self._run_locks = {}
        self.spent = []     # (step, seconds): where a grade's time goes
        os.makedirs(out, exist_ok=True)

    def sharing(self, say):
        """A grader of the same tree whose lines go to say and whose TIME
        steps are its own, sharing this one's builds and boots."""
        return Grader(self.tree, self.out, say, self.fuzz_seconds, share=self)

    def make(self, goal, *args):
        key = (goal,) + args
        with tree_lock(self.tree):
            return self._make(key)

    def _make(self, key):
        goal, args = key[0], key[1:]
        if key not in self.built:
            log = os.path.join(self.out, "make-%s.log" % re.sub(r"[^\w.-]", "_", " ".join(key)))
            t0 = time.time()
            with open(log, "w") as f:
                r = subprocess.run(["make", "-j2", "--no-print-directory", goal] + list(args) +
                                   self.make_vars,
                                   cwd=self.tree, stdout=f, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
            self.built[key] = (r.returncode == 0, log)
            self.spent.append(("make " + " ".join(key), time.time() - t0))
        return self.built[key]

    def _run(self, key, cmd, log, timeout):
        with _LOCKS:
            lock = self._run_locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self.runs:
                self.runs[key] = self._run_once(key, cmd, log, timeout)
        return self.runs[key]

    def _run_once(self, key, cmd, log, timeout):
        why = None
        t0 = time.time()
        try:
            with open(log, "w") as f:
                r = subprocess.run(cmd, cwd=self.tree, stdout=f, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, timeout=timeout)
            if r.returncode not in (0, 1):
                why = "exited %d" % r.returncode
        except subprocess.TimeoutExpired:
            why = "no answer in %d s (a hang?)" % timeout
        self.spent.append(("run " + " ".join(map(str, key)), time.time() - t0))
        with open(log, errors="replace") as f:
            text = f.read()
        if "Kernel panic" in text:
            why = "the kernel panicked"
        cases, _, _ = ktap.parse(text)
        if why:
            why += crash_site(text)
        return {(c[0], c[2]): c[3] and not c[4] for c in cases}, log, why

    def run_host(self, t):
        ok, log = self.make("build/host/ktest-host")
        if not ok:
            return False, "the host tests do not build (%s)" % log
        cases, log, why = self._run(("host", t.suite), ["build/host/ktest-host", t.suite],
                                    os.path.join(self.out, "host-%s.log" % t.suite), 300)
        return self._case(cases, t, log, why)

    def run_kernel(self, t):
        if t.arch == "x86_64":
            ok, log = self.make("kernel", "ARCH=x86_64")
            kernel = os.path.join(self.tree, "build", "x86_64-pc", "pagoda.elf")
        else:
            ok, log = self.make("kernel", "ARCH=arm64", "PLATFORM=virt")
            kernel = os.path.join(self.tree, "build", "arm64-virt", "kernel8.img")
        if not ok:
            return False, "the kernel does not build (%s)" % log
        line = ("test=%s panic=-1 %s" % (t.suite, t.cmdline)).strip()
        # Always TCG: the same answer on every machine a class uses.
        if t.arch == "x86_64":
            cmd = qemu.build_cmd(kernel=kernel, smp=t.smp, cmdline=line, accel="tcg")[0]
        else:
            cmd = qemu.build_cmd(arch="arm64", platform="virt", kernel=kernel, smp=t.smp,
                                 cmdline=line)[0]
        key = ("kernel", t.arch, t.smp, t.suite, t.cmdline)
        # Two boots of a suite that differ in their command line, two logs.
        tag = ("-" + re.sub(r"[^\w.-]+", "_", t.cmdline)) if t.cmdline else ""
        log = os.path.join(self.out, "kernel-%s-smp%d-%s%s.log" % (t.arch, t.smp, t.suite, tag))
        cases, log, why = self._run(key, cmd, log, t.timeout)
        return self._case(cases, t, log, why)

    @staticmethod
    def _case(cases, t, log, why):
        got = cases.get((t.suite, t.case))
        if got:
            return True, ""
        if got is None:
            return False, "%s: did not run (%s; see %s)" % (t.case, why or "no result", log)
        return False, "failed (%s)" % log

    def grade(self, lab, until_lost=False, say=None):
        """Run every test; print a line each and the total. Returns
        (points, out_of, [(test, ok, detail)]). until_lost stops at the
        first test that loses points: enough to know a tree is below full
        marks, without paying for the rest. say: where the lines go
        (the grader's own say unless given)."""
        say = say or self.say
        say("== lab %s: %s" % (lab.name, lab.title))
        got, rows = 0, []
        for t in lab.tests:
            t0 = time.time()
            try:
                if isinstance(t, Host):
                    ok, detail = self.run_host(t)
                elif isinstance(t, Kernel):
                    ok, detail = self.run_kernel(t)
                else:
                    log = os.path.join(self.out, "check-%s.log" % re.sub(r"\W+", "_", t.name))
                    ok, detail = t.fn(self, log)
            except Exception as e:  # a broken test costs its points, nothing more
                ok, detail = False, "grader error: %s" % e
            self.spent.append(("test " + t.name, time.time() - t0))
            pts = t.points if ok else 0
            got += pts
            rows.append((t, ok, detail))
            say("  %-58s %3d/%-3d %s%s" % (t.name, pts, t.points, "OK" if ok else "FAIL",
                                            "" if ok or not detail else "  " + detail))
            if until_lost and not ok:
                say("  (stopped at the first lost points)")
                break
        say("  %-58s %3d/%-3d" % ("total", got, lab.points))
        return got, lab.points, rows
