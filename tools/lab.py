#!/usr/bin/env python3
"""The course's labs (docs/course.md): make student trees and grade them.

  tools/lab.py list                       the labs, their points and handouts
  tools/lab.py make LAB [--out DIR]       the student tree (default build/labs/LAB),
                                          a fresh git repository to push to students
  tools/lab.py grade [LAB] [--tree DIR]   grade a tree (default: this one; LAB
                                          defaults to the tree's own lab, else all)
  tools/lab.py class LAB DIR...           grade each student's clone with this tree's
                                          tests: only the lab's own files are taken
                                          from it; one line each
  tools/lab.py check [LAB]                what CI asserts for every lab (make test)
  tools/lab.py save-stub LAB --tree DIR   write labs/stubs/LAB.patch: the lab's files
                                          as DIR (a student tree, its stubs edited) has
                                          them, against this tree's solution

`make lab LAB=...` and `make grade [LAB=...]` call it.
"""
import argparse
import difflib
import filecmp
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pagoda import lab as L  # noqa: E402

ROOT = os.path.dirname(HERE)
LAB_FILE = ".lab"   # in a student tree: the lab it was made for
CHECK_FUZZ = 3      # seconds per fuzz test in `check`: host-fuzz fuzzes longer
# The student trees `check` makes compile into one ccache that outlives
# them (each tree would otherwise start an empty one in its own build/):
# the same stubs and wrong versions every run, so a run after the first
# compiles little (the locks lab's stubbed spinlock.h rebuilds a whole
# kernel). ccache takes two builds at once.
CHECK_MAKE_VARS = ["CCACHE_DIR=" + os.path.join(ROOT, "build", "labs", ".ccache")]


def load_labs(tree):
    path = os.path.join(tree, "labs", "labs.py")
    spec = importlib.util.spec_from_file_location("pagoda_labs", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {lab.name: lab for lab in mod.LABS}


def pick(labs, name):
    if name not in labs:
        sys.exit("lab: no lab %r: %s (tools/lab.py list)" % (name, ", ".join(labs)))
    return labs[name]


def cmd_list(a):
    for lab in load_labs(ROOT).values():
        print("%-10s %3d points  %-50s %s" % (lab.name, lab.points, lab.title, lab.handout))


def cmd_make(a):
    lab = pick(load_labs(ROOT), a.lab)
    out = os.path.abspath(a.out or os.path.join(ROOT, "build", "labs", lab.name))
    try:
        n = L.make_tree(ROOT, lab, out)
    except L.LabError as e:
        sys.exit("lab: %s" % e)
    with open(os.path.join(out, LAB_FILE), "w") as f:
        f.write(lab.name + "\n")
    subprocess.run(["git", "add", LAB_FILE], cwd=out, check=True)
    subprocess.run(["git", "-c", "user.name=Pagoda course", "-c", "user.email=course@localhost",
                    "commit", "-q", "--amend", "--no-edit"], cwd=out, check=True)
    print("lab %s: student tree in %s (%d files stubbed, %d files left out)"
          % (lab.name, os.path.relpath(out, ROOT), n, len(lab.solution_only)))
    print("  the handout: %s; its tests fail there until the student's work is done:" % lab.handout)
    print("    cd %s && make grade" % os.path.relpath(out))
    print("  to hand it out: cd %s && git remote add origin URL && git push -u origin main"
          % os.path.relpath(out))


def tree_lab(tree):
    p = os.path.join(tree, LAB_FILE)
    if os.path.exists(p):
        with open(p) as f:
            return f.read().strip()
    return None


def cmd_grade(a):
    tree = os.path.abspath(a.tree or ROOT)
    labs = load_labs(tree)
    names = [a.lab] if a.lab else [tree_lab(tree)] if tree_lab(tree) else list(labs)
    total = out_of = 0
    for name in names:
        g = L.Grader(tree, os.path.join(tree, "build", "grade", name))
        got, of, _ = g.grade(pick(labs, name))
        total, out_of = total + got, out_of + of
    if len(names) > 1:
        print("score: %d/%d" % (total, out_of))
    return 0


def grading_tree(lab, submission, work, seed=True):
    """The tree a submission is graded in: this (the instructor's) tree's
    student version, with only the lab's own files taken from the
    submission. Its labs.py, tests, graders and Makefile are never run:
    a student who edits them changes nothing but the report. Returns the
    submission's other changed files, to be reported."""
    L.make_tree(ROOT, lab, work)
    if seed:
        L.seed_build(ROOT, work, lab.solution_only)
    mine = set(lab.files) | set(lab.replace)
    for rel in sorted(mine):
        src = os.path.join(submission, rel)
        if os.path.isfile(src):
            shutil.copyfile(src, os.path.join(work, rel))
    others = []
    try:
        theirs = L.tracked_files(submission)
    except L.LabError:
        theirs = []
    for rel in theirs:
        if rel in mine or rel == LAB_FILE:
            continue
        a, b = os.path.join(submission, rel), os.path.join(work, rel)
        if not os.path.isfile(b) or not os.path.isfile(a) or not filecmp.cmp(a, b, shallow=False):
            others.append(rel)
    return others


def cmd_class(a):
    lab = pick(load_labs(ROOT), a.lab)
    for d in a.dirs:
        work = os.path.join(ROOT, "build", "class", lab.name,
                            os.path.basename(os.path.abspath(d).rstrip("/")) or "tree")
        try:
            others = grading_tree(lab, os.path.abspath(d), work)
        except (L.LabError, OSError) as e:
            print("%-30s error: %s" % (d, e))
            continue
        g = L.Grader(work, os.path.join(work, "build", "grade", lab.name), say=lambda s: None)
        got, of, res = g.grade(lab)
        failed = [t.name for t, ok, _ in res if not ok]
        print("%-30s %3d/%-3d %s%s" % (
            d, got, of, ("failed: " + "; ".join(failed)) if failed else "",
            ("  (ignored, not the lab's files: %s)" % ", ".join(others[:8]) +
             (" and %d more" % (len(others) - 8) if len(others) > 8 else "")) if others else ""))
    return 0


def first_steps_ok(lab, tree, say):
    """Follow the handout's first steps in tree; the host tests must still pass."""
    if not lab.first_steps:
        return True
    lab.first_steps(tree)
    r = subprocess.run(["make", "-j2", "--no-print-directory", "host-test"], cwd=tree,
                       capture_output=True, text=True)
    if r.returncode:
        say("  first steps of the handout break make host-test:\n" + r.stdout[-1500:] +
            r.stderr[-500:])
    return r.returncode == 0


def wrong_patches(lab):
    """labs/wrong/LAB/*.patch: known-wrong solutions, each a patch against
    the reference solution, that the lab's grade must not give full marks."""
    d = os.path.join(ROOT, L.WRONG_DIR, lab.name)
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if f.endswith(".patch")) if os.path.isdir(d) else []


def wrong_grades(lab, tree, say=print):
    """Grade each known-wrong solution in tree (a student tree just made,
    nothing compiled in it yet, its build/ seeded from this tree's): put
    the reference solution back, apply the patch, grade up to the first
    lost point. Yields (name, points, out_of); a patch that no longer
    applies counts as full marks, so it is fixed rather than silently
    skipped. Leaves the tree as it was made.

    Only what a patch changes may recompile. The seeded objects were built
    from the reference files, so those go back first with the reference's
    own times (make sees nothing newer than its objects; a stubbed header
    such as the locks lab's spinlock.h would otherwise rebuild the whole
    kernel for every version); a patch's files get new times, and go back
    with new times again, since objects built from the wrong text must
    not survive it."""
    ours = list(lab.files) + list(lab.replace) + list(lab.solution_only)
    for rel in ours:
        shutil.copy2(os.path.join(ROOT, rel), os.path.join(tree, rel))
    touched = []
    for path in wrong_patches(lab):
        name = os.path.basename(path)[:-len(".patch")]
        for rel in touched:
            shutil.copyfile(os.path.join(ROOT, rel), os.path.join(tree, rel))
        touched = L.patch_files(path)
        r = subprocess.run(["patch", "-p1", "--quiet", "--no-backup-if-mismatch", "-i", path],
                           cwd=tree, capture_output=True, text=True)
        if r.returncode:
            say("  %s does not apply: %s" % (path, (r.stdout + r.stderr).strip()[-300:]))
            yield name, 1, 1
            continue
        # A race (a lock left out) is caught only when the threads meet:
        # such a patch says "racy: N" above its diff and gets N tries.
        with open(path) as f:
            m = re.search(r"^racy: (\d+)$", f.read().split("\n--- ", 1)[0], re.M)
        for attempt in range(int(m.group(1)) if m else 1):
            g = L.Grader(tree, os.path.join(tree, "build", "grade", "wrong-" + name),
                         say=say, fuzz_seconds=CHECK_FUZZ, make_vars=CHECK_MAKE_VARS)
            got, of, _ = g.grade(lab, until_lost=True)
            say_spent("wrong " + name, g, say)
            if got < of:
                break
            if m:
                say("  %s: full marks on try %d (a race not met)" % (name, attempt + 1))
        yield name, got, of
    # The student's starting point back (new times: it recompiles), and
    # the solution-only files gone again. build/ is ignored by git.
    for cmd in (["git", "checkout", "-q", "--", "."], ["git", "clean", "-fdq"]):
        subprocess.run(cmd, cwd=tree, check=True)
    if lab.solution_only:
        L.drop_links(tree)


def say_spent(what, grader, say=print):
    """TIME lines: each step of a grade that took a second or more."""
    for step, secs in grader.spent:
        if secs >= 1:
            say("TIME   %s: %s %.1f s" % (what, step, secs))
    grader.spent = []


def check_lab(lab, full, keep, say):
    """One lab's checks (cmd_check), its lines given to say. Returns how
    many failed."""
    name, bad = lab.name, 0
    student = os.path.join(ROOT, "build", "labs", "check-" + name)

    def check(what, ok, detail=""):
        nonlocal bad
        bad += not ok
        say("CHECK %s %s:%s %s" % ("ok" if ok else "FAIL", name, what, detail))

    t0 = time.time()
    got, of, res = full.grade(lab, say=say)
    check("full-marks", got == of, "full tree %d/%d" % (got, of))
    t1 = time.time()
    try:
        L.make_tree(ROOT, lab, student)
    except L.LabError as e:
        check("tree", False, str(e))
        return bad
    L.seed_build(ROOT, student, lab.solution_only)
    say("TIME   student tree made %.1f s" % (time.time() - t1))
    # The wrong versions first, while the seeded objects match the
    # reference: each recompiles only what its patch changes.
    for patch, got, of in wrong_grades(lab, student, say):
        check("wrong-loses:" + patch, got < of, "%s: %d/%d" % (patch, got, of))
    g = L.Grader(student, os.path.join(student, "build", "grade", name), say=say,
                 fuzz_seconds=CHECK_FUZZ, make_vars=CHECK_MAKE_VARS)
    builds = all(g.make(goal, *args)[0] for goal, args in
                 (("build/host/ktest-host", ()), ("kernel", ("ARCH=x86_64",))))
    check("student-builds", builds, "see %s" % os.path.join(student, "build", "grade"))
    got, of, res = g.grade(lab, until_lost=True)
    check("student-below-full", got < of, "student tree %d/%d" % (got, of))
    say_spent("full", full, say)
    say_spent("student", g, say)
    t2 = time.time()
    check("first-steps", first_steps_ok(lab, student, say))
    say("TIME   first steps %.1f s" % (time.time() - t2))
    # Where make test's time goes (the labs unit is among its largest).
    say("TIME %s: full tree %.0f s, student tree %.0f s" % (name, t1 - t0, time.time() - t1))
    if not keep:
        shutil.rmtree(student, ignore_errors=True)
    return bad


def cmd_check(a):
    """For each lab: the student tree builds, scores below full marks, the
    full tree scores full marks, and the handout's first steps break nothing.
    Prints CHECK lines for the harness, each lab's lines together and the
    labs in their declared order, although two are graded at a time."""
    labs = load_labs(ROOT)
    names = [a.lab] if a.lab else list(labs)
    # One grader for the full tree: labs that share a boot share its run.
    full = L.Grader(ROOT, os.path.join(ROOT, "build", "grade", "full"), fuzz_seconds=CHECK_FUZZ)
    bad = sum(two_at_a_time([labs[n] for n in names],
                            lambda lab, say: check_lab(lab, full.sharing(say), a.keep, say)))
    if not a.lab:
        left = old_regions(ROOT)
        bad += bool(left)
        print("CHECK %s course:no-lab-regions %s" % ("FAIL" if left else "ok", ", ".join(left[:8])))
    return 1 if bad else 0


def alone(lab):
    """Whether check grades lab with no other beside it: declared so, or
    it boots a guest of four CPUs. Beside another lab's work, two host
    CPUs run those four, and a vCPU preempted while it holds a spinlock
    leaves the other three spinning: the swiotlb lab's four-CPU boot
    took 84 s so instead of 7."""
    return lab.alone or any(isinstance(t, L.Kernel) and t.smp > 2 for t in lab.tests)


def two_at_a_time(labs, job):
    """job(lab, say) for every lab, two labs at once (each has its own
    student tree; the machine make test runs on has two CPUs), a lab
    declared alone with nothing beside it. Each lab's lines are held
    until it ends, then printed in the labs' order. Returns the jobs'
    answers in that order; an exception in one is raised again here once
    the lines of the labs before it are out."""
    # The lone labs first, while the other worker has nothing to wait
    # for; then the rest in their order.
    todo = [l for l in labs if alone(l)] + [l for l in labs if not alone(l)]
    lines = {l.name: [] for l in labs}
    done, answers = {}, {}
    state = {"running": 0, "alone": False, "printed": 0}
    cond = threading.Condition()

    def flush():
        # Under cond: every lab whose predecessors are all printed.
        while state["printed"] < len(labs) and labs[state["printed"]].name in done:
            name = labs[state["printed"]].name
            for l in lines[name]:
                print(l)
            sys.stdout.flush()
            state["printed"] += 1

    def worker():
        while True:
            with cond:
                while todo and (state["alone"] or (alone(todo[0]) and state["running"])):
                    cond.wait()
                if not todo:
                    return
                lab = todo.pop(0)
                state["running"] += 1
                state["alone"] = alone(lab)
            try:
                answers[lab.name] = job(lab, lines[lab.name].append)
            except BaseException as e:  # noqa: B902 - raised again below
                answers[lab.name] = e
            with cond:
                state["running"] -= 1
                state["alone"] = False
                done[lab.name] = True
                flush()
                cond.notify_all()

    workers = [threading.Thread(target=worker, daemon=True) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    out = []
    for l in labs:
        if isinstance(answers.get(l.name), BaseException):
            raise answers[l.name]
        out.append(answers[l.name])
    return out


def old_regions(root):
    """Sources that still hold a /* LAB */ region marker: the reference
    code reads clean, and a lab's stub is its labs/stubs/ patch."""
    found = []
    for rel in L.tracked_files(root):
        if rel.endswith((".c", ".h", ".S")):
            with open(os.path.join(root, rel), encoding="utf-8", errors="surrogateescape") as f:
                if L.OLD_REGION.search(f.read()):
                    found.append(rel)
    return found


def cmd_save_stub(a):
    """The student's starting point as a patch against the reference: the
    reference sources then hold the solution alone, with no dead stub."""
    lab = pick(load_labs(ROOT), a.lab)
    tree = os.path.abspath(a.tree)
    out = []
    for rel in lab.files:
        with open(os.path.join(ROOT, rel)) as f:
            ref = f.read().splitlines(True)
        with open(os.path.join(tree, rel)) as f:
            mine = f.read().splitlines(True)
        out += difflib.unified_diff(ref, mine, "a/" + rel, "b/" + rel)
    if not out:
        sys.exit("lab: %s changes none of %s's files" % (a.tree, lab.name))
    path = os.path.join(ROOT, L.STUB_DIR, lab.name + ".patch")
    with open(path, "w") as f:
        f.writelines(out)
    print("lab %s: %s written (%d lines)" % (lab.name, os.path.relpath(path, ROOT), len(out)))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    p = sub.add_parser("make")
    p.add_argument("lab")
    p.add_argument("--out")
    p = sub.add_parser("grade")
    p.add_argument("lab", nargs="?")
    p.add_argument("--tree")
    p = sub.add_parser("class")
    p.add_argument("lab")
    p.add_argument("dirs", nargs="+")
    p = sub.add_parser("check")
    p.add_argument("lab", nargs="?")
    p.add_argument("--keep", action="store_true", help="keep the student trees")
    p = sub.add_parser("save-stub")
    p.add_argument("lab")
    p.add_argument("--tree", required=True)
    a = ap.parse_args()
    return {"list": cmd_list, "make": cmd_make, "grade": cmd_grade, "class": cmd_class,
            "check": cmd_check, "save-stub": cmd_save_stub}[a.cmd](a) or 0


if __name__ == "__main__":
    sys.exit(main())
