"""The make knobs and the scripted run, checked the way a person meets them:
a mistyped variable gets one line naming it, the ISO follows CMDLINE, and
a scripted run that passes exits 0 (one that fails does not)."""
import os
import re
import shutil
import subprocess
import uuid

from .common import ROOT, accel, paths, rel, unit
from .docs import make_env


def make(*args, timeout=600):
    r = subprocess.run(["make", "-s", "--no-print-directory"] + list(args), cwd=ROOT,
                       env=make_env(), stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


# (the knob as typed, the make goal, more arguments)
BAD_KNOBS = [("ARCH=aarch64", "kernel", []), ("ACCEL=kvmm", "run", []),
             ("PLATFORM=pi3", "kernel", ["ARCH=arm64"]), ("BOOT=floppy", "run", []),
             ("SMP=300", "run", []), ("SMP=0", "run", []), ("MEM=1", "run", []), ("MACHINE=i440", "run", []),
             ("HMAT=64M", "run", ["ARCH=arm64"]), ("HMAT=4G", "run", []),
             ("VDSO_LAYOUT=other", "kernel", []), ("PLATFORM=rpi4", "run", []),
             ("USERLAND=busybux", "run", [])]


@unit("make-knobs", "host", needs=["x86_64"])
def knobs(ctx):
    """a mistyped ARCH= ACCEL= PLATFORM= BOOT= MACHINE= SMP= MEM= HMAT= VDSO_LAYOUT= USERLAND=
    gets one line naming it"""
    for knob, goal, more in BAD_KNOBS:
        name, value = knob.split("=")
        accel = [] if name == "ACCEL" else ["ACCEL=tcg"]
        rc, out = make(goal, knob, *more, *accel)
        named = [l for l in out.splitlines() if name in l and value in l]
        ctx.tally.check("make:knob.%s" % knob, rc != 0 and len(named) == 1,
                        "make %s %s exited %d with %d lines naming it:\n%s" %
                        (goal, knob, rc, len(named), out[-800:]))


def grub_cfg(iso):
    out = os.path.join(os.path.dirname(iso), "grub.cfg.check")
    if os.path.exists(out):
        os.remove(out)
    subprocess.run(["xorriso", "-osirrox", "on", "-indev", iso, "-extract",
                    "/boot/grub/grub.cfg", out], capture_output=True)
    if not os.path.exists(out):
        return ""
    with open(out) as f:
        return f.read()


@unit("accel-verdict-names-the-failure", "host", needs=["x86_64"])
def accel_failure(ctx):
    """the accelerator probe reads QEMU's "KVM internal error" report and names
    the instruction and function KVM's emulator stopped at (as PVM's does at
    crc32c_sse42's crc32q), so ACCEL=kvm is refused with what was seen"""
    dis = subprocess.run(["objdump", "-d", paths.X86_KERNEL], capture_output=True,
                         text=True).stdout
    at = None
    for line in dis.split("<crc32c_sse42>:", 1)[-1].splitlines():
        f = line.split("\t")
        if len(f) >= 3 and f[2].startswith("crc32q"):
            at = int(f[0].strip().rstrip(":"), 16)
            break
    if not ctx.tally.check("accel:probe.crc32q-found", at is not None,
                           "no crc32q in crc32c_sse42 of %s" % paths.X86_KERNEL):
        return
    report = ("KVM internal error. Suberror: 1\nextra data[0]: 0x0000000000000001\n"
              "emulation failure\nRAX=ffffffff805f7a78 RBX=00000000ffffffff\n"
              "RIP=%016x RFL=00000246 [---Z-P-] CPL=0\nCode=f2 48 0f 38 f1\n" % at)
    why = accel.emulation_failure(report, paths.X86_KERNEL) or ""
    ctx.tally.check("accel:probe.names-instruction", "crc32q" in why and "crc32c_sse42+" in why,
                    "the verdict says %r" % why)
    ctx.tally.check("accel:probe.no-report", accel.emulation_failure(
        "pagoda: done\n", paths.X86_KERNEL) is None, "a clean boot was read as a failure")


@unit("make-iso-cmdline", "host", needs=["x86_64"])
def iso_cmdline(ctx):
    """`make iso CMDLINE=...` rebuilds the ISO when only the command line changed"""
    word = "iso.check=%s" % uuid.uuid4().hex[:8]
    for cmdline, want in (('%s shell.run="uptime;meminfo"' % word, True), ("", False)):
        rc, out = make("iso", "CMDLINE=" + cmdline)
        cfg = grub_cfg(paths.X86_ISO)
        line = [l.strip() for l in cfg.splitlines() if l.strip().startswith("multiboot2 ")]
        ok = rc == 0 and line and ((cmdline in line[0]) if want else word not in line[0])
        ctx.tally.check("make:iso-follows-cmdline.%s" % ("set" if want else "cleared"), ok,
                        "make iso CMDLINE='%s' (exit %d) left grub.cfg's line %r in %s" %
                        (cmdline, rc, line and line[0], rel(paths.X86_ISO)))


@unit("system-run-exit-status", "system", needs=["x86_64", "arm64-virt"])
def run_exit_status(ctx):
    """`make run` of a scripted run exits 0 when it passes, non-zero when not"""
    for arch in ("x86_64", "arm64"):
        for cmdline, passes in (("test=params", True), ("test=no_such_suite", False)):
            rc, out = make("run", "ARCH=" + arch, "ACCEL=tcg", "CMDLINE=" + cmdline,
                           timeout=300)
            done = "pagoda: done" in out
            ctx.tally.check("system:make-run-exit.%s.%s" % (arch, "pass" if passes else "fail"),
                            (rc == 0) == passes and done == passes,
                            "make run ARCH=%s CMDLINE=%s exited %d (%s seen):\n%s" %
                            (arch, cmdline, rc, "done" if done else "no done", out[-600:]))


@unit("system-run-add", "system", needs=["x86_64"])
def run_add(ctx):
    """`make run ADD=prog INITRD=archive ROOTFS=dir`: a program built on the host,
    an archive and a directory of one's own reach the initramfs beside Pagoda's (and mkcpio.py
    --help prints its usage rather than writing an archive named --help)"""
    work = os.path.join(paths.BUILD, "test", "run-add")
    os.makedirs(work, exist_ok=True)
    src, prog = os.path.join(work, "hi.c"), os.path.join(work, "hi")
    with open(src, "w") as f:
        f.write('#include <stdio.h>\nint main(int c, char **v)\n'
                '{ printf("hi from the host %s\\n", c > 1 ? v[1] : ""); return 3; }\n')
    subprocess.run(["gcc", "-static", "-O1", "-o", prog, src], check=True)
    note = os.path.join(work, "note.txt")
    with open(note, "w") as f:
        f.write("an archive of my own\n")
    archive = os.path.join(work, "mine.cpio")
    r = subprocess.run([os.path.join(ROOT, "tools", "mkcpio.py"), archive,
                        "etc/note=" + note], capture_output=True, text=True)
    ok_cpio = r.returncode == 0
    # ROOTFS=: a directory packed as /, a file and a link to ADD='s program.
    root = os.path.join(work, "root")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "etc"))
    os.makedirs(os.path.join(root, "usr", "bin"))
    with open(os.path.join(root, "etc", "rootdir-note"), "w") as f:
        f.write("packed from a host directory\n")
    os.symlink("hi2", os.path.join(root, "usr", "bin", "hi3"))
    rc, out = make("run", "ACCEL=tcg", "ADD=%s %s=/usr/bin/hi2" % (prog, prog),
                   "INITRD=" + archive, "ROOTFS=" + root,
                   'CMDLINE=shell.run="run /bin/hi one;run /usr/bin/hi2 two;ls;'
                   'run /usr/bin/hi3 three;poweroff"', timeout=120)
    ctx.tally.check("system:run-add.programs", ok_cpio and
                    "run: /bin/hi: exit status 3" in out and
                    "run: /usr/bin/hi2: exit status 3" in out and "hi from the host two" in out,
                    "the added programs did not run:\n%s" % out[-800:])
    ctx.tally.check("system:run-add.initrd", re.search(r" 21 /etc/note\b", out)
                    is not None,
                    "INITRD='s file is not in the initramfs:\n%s" % out[-800:])
    ctx.tally.check("system:run-add.rootfs", re.search(r" 29 /etc/rootdir-note\b", out)
                    is not None and "hi from the host three" in out,
                    "ROOTFS='s file or link is not in the initramfs:\n%s" % out[-800:])
    rc, out = make("run", "ACCEL=tcg", "BOOT=bios", "ADD=" + prog, timeout=60)
    ctx.tally.check("system:run-add.iso-refused", rc != 0 and "BOOT=direct" in out,
                    "ADD= with BOOT=bios was not refused with the reason:\n%s" % out[-400:])
    r = subprocess.run([os.path.join(ROOT, "tools", "mkcpio.py"), "--help"], cwd=work,
                       capture_output=True, text=True)
    ctx.tally.check("system:run-add.mkcpio-help", r.returncode == 0 and "usage:" in r.stdout
                    and not os.path.exists(os.path.join(work, "--help")),
                    "mkcpio.py --help: %r" % (r.stdout + r.stderr))


@unit("fuzz-lengths-agree", "host")
def fuzz_lengths(ctx):
    """each libFuzzer target's -max_len is one number: the Makefile's make
    fuzz-NAME rules pass what pagoda.fuzzing's table (make test, make
    fuzz-report) says, and every target has a rule"""
    from pagoda import fuzzing
    text = ""
    for mk in ("Makefile", "tests/fixtures/fdt.mk"):
        with open(os.path.join(ROOT, mk)) as f:
            text += f.read()
    made = dict((n, int(v)) for n, v in re.findall(r"\$\(call fuzz_run,([a-z-]+),(\d+)", text))
    ctx.tally.check("fuzz:max-len-agree", made == fuzzing.MAX_LEN,
                    "Makefile %r, pagoda.fuzzing %r" % (made, fuzzing.MAX_LEN))


@unit("ktap-failure-lines", "host")
def ktap_failure_lines(ctx):
    """a failed KTAP case's summary line carries what the case said (its own
    "# name:" diagnostics and its programs' FAIL lines), not a passing
    case's, not a timing note"""
    from pagoda import ktap
    log = ("    # Subtest: exec\n        # test_a: took 5 ms\ncalltest: FAIL line 9: early\n"
           "    ok 1 test_a\n[    1.5] calltest: FAIL line 176: 1.6 s left rounds to 2\n"
           "        # test_b: kernel/exec_test.c:40: exit status 1\n"
           "        # test_b: took 700 ms\n    not ok 2 test_b\nok 1 exec\n")
    got = ktap.failure_lines(log)
    ctx.tally.check("ktap:failure-lines", got == {("exec", "test_b"): [
        "calltest: FAIL line 176: 1.6 s left rounds to 2",
        "# test_b: kernel/exec_test.c:40: exit status 1"]}, "got %r" % got)


@unit("linuxpeer-pure-parts", "host")
def linuxpeer_pure(ctx):
    """the Linux peer's pure parts (tools/pagoda/linuxpeer.py): mmbench's output
    read back as runs, a failed case kept apart, the cpio it builds read back
    record for record (a device node included), modules ordered after their
    dependencies, a missing or circular one refused, ldd's lines read"""
    from pagoda import linuxpeer as lp
    t = ctx.tally
    log = ("mm: run 0\r\nmm: fork_exit_wait 820.2 us\r\nmm: pipe_bandwidth 174.8 MiB/s\r\n"
           "mm: done\r\n[ 1.0] noise\nmm: fork_exit_wait 900.0 us\n"
           "mm: page_fault failed: mmap 64 MiB: Cannot allocate memory\nmm: done\n"
           "mm: fork_exit_wait 1.0 us\n")  # a run cut short: no "mm: done"
    runs, failures = lp.parse_mm(log)
    t.check("linuxpeer:parse-mm", runs == [{"fork_exit_wait": (820.2, "us"),
                                            "pipe_bandwidth": (174.8, "MiB/s")},
                                           {"fork_exit_wait": (900.0, "us")}],
            "runs read as %r" % runs)
    t.check("linuxpeer:parse-mm-failure", len(failures) == 1 and "page_fault" in failures[0],
            "failures read as %r" % failures)
    rows = {r[0]: r for r in lp.mm_rows(runs, [{"fork_exit_wait": (410.1, "us")}] * 3)}
    t.check("linuxpeer:median-spread-ratio",
            rows["fork_exit_wait"][2] == (860.1, 900.0 / 820.2) and
            abs(rows["fork_exit_wait"][4] - 860.1 / 410.1) < 1e-9 and
            rows["getpid"][2] is None and rows["pipe_bandwidth"][3] is None,
            "rows %r" % rows)
    files = {"init": b"\x7fELF-init", "peer/script": b"echo hi\n", "lib/x/a.so.1": b"abc"}
    blob = lp.cpio(files, nodes=[("dev/console", 5, 1)])
    back = lp.read_cpio(blob)
    names = [r[0] for r in back]
    t.check("linuxpeer:cpio-round-trip",
            names == ["dev", "dev/console", "init", "lib", "lib/x", "lib/x/a.so.1", "peer",
                      "peer/script"] and
            all(files[n] == d for n, _m, d, _r in back if n in files) and
            [r for r in back if r[0] == "dev/console"][0][1:] == (0o020600, b"", (5, 1)) and
            len(blob) % 4 == 0 and blob == lp.cpio(dict(reversed(list(files.items()))),
                                                     nodes=[("dev/console", 5, 1)]),
            "read back %r" % [(n, oct(m), len(d), r) for n, m, d, r in back])
    # And read by GNU cpio, which shares nothing with read_cpio().
    path = os.path.join(paths.out_dir("test"), "linuxpeer-check.cpio")
    with open(path, "wb") as f:
        f.write(blob)
    with open(path, "rb") as f:
        listing = subprocess.run(["cpio", "-itv"], stdin=f, capture_output=True,
                                 text=True).stdout
    t.check("linuxpeer:cpio-gnu-reads-it",
            re.search(r"^crw-------.* 5,\s+1 .* dev/console$", listing, re.M) is not None and
            re.search(r"^-rwxr-xr-x.* 3 .* lib/x/a\.so\.1$", listing, re.M) is not None,
            "GNU cpio listed:\n%s" % listing)
    deps = {"dm_snapshot": ["dm-mod", "dm-bufio"], "dm_bufio": ["dm-mod"], "dm_mod": [],
            "virtio_blk": ["virtio"], "virtio": []}
    t.check("linuxpeer:module-order",
            lp.load_order(["dm-snapshot", "virtio_blk"], deps) ==
            ["dm_mod", "dm_bufio", "dm_snapshot", "virtio", "virtio_blk"],
            "order %r" % lp.load_order(["dm-snapshot", "virtio_blk"], deps))
    for wanted, bad, why in ((["dm_crypt"], deps, "no module dm_crypt"),
                             (["a"], {"a": ["b"], "b": ["a"]}, "cycle: a -> b -> a")):
        try:
            lp.load_order(wanted, bad)
            got = "no error"
        except lp.PeerError as e:
            got = str(e)
        t.check("linuxpeer:module-refused.%s" % wanted[0], why in got, "said %r" % got)
    info = lp.modinfo(b"\x00junk\x00name=dm_snapshot\x00depends=dm-mod,dm-bufio\x00x=1\x00")
    t.check("linuxpeer:modinfo", info == {"name": "dm_snapshot", "depends": "dm-mod,dm-bufio"},
            "modinfo %r" % info)
    ldd = ("\tlinux-vdso.so.1 (0x00007ffd)\n\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 "
           "(0x00007fb1)\n\t/lib64/ld-linux-x86-64.so.2 (0x00007fb2)\n")
    t.check("linuxpeer:ldd", lp.parse_ldd(ldd) == ["/lib/x86_64-linux-gnu/libz.so.1",
                                                  "/lib64/ld-linux-x86-64.so.2"],
            "ldd read as %r" % lp.parse_ldd(ldd))
    t.check("linuxpeer:fio-iops", lp.parse_fio_iops(
        "  write: IOPS=911, BW=3644KiB/s\n  write: IOPS=1.6k, BW=6.3MiB/s\n") == [911.0, 1600.0],
        "fio read as %r" % lp.parse_fio_iops("  write: IOPS=1.6k"))


@unit("lab-class-instructor-tests", "host")
def lab_class(ctx):
    """`lab.py class` grades a submission with the instructor's labs.py and
    tests: only the lab's files come from the submission, and an edited
    labs.py is reported, never run (issue 34: the stub plus an edited
    labs.py had scored full marks)"""
    import importlib.util
    import shutil
    import sys
    spec = importlib.util.spec_from_file_location("lab_tool", os.path.join(ROOT, "tools",
                                                                             "lab.py"))
    tool = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    spec.loader.exec_module(tool)
    lab = tool.load_labs(ROOT)["buddy"]
    base = os.path.join(paths.BUILD, "test", "lab-class")
    shutil.rmtree(base, ignore_errors=True)
    sub, work = os.path.join(base, "alice"), os.path.join(base, "work")
    tool.L.make_tree(ROOT, lab, sub)
    # The student's work, and a labs.py that would hand out the points.
    with open(os.path.join(sub, "mm", "page_alloc.c"), "a") as f:
        f.write("/* alice was here */\n")
    with open(os.path.join(sub, "labs", "labs.py"), "a") as f:
        f.write("\nLABS = []  # every test gone\n")
    subprocess.run(["git", "-c", "user.name=a", "-c", "user.email=a@localhost", "commit",
                    "-qam", "work"], cwd=sub, check=True)
    others = tool.grading_tree(lab, sub, work, seed=False)

    def same(rel, a, b):
        with open(os.path.join(a, rel), "rb") as f, open(os.path.join(b, rel), "rb") as g:
            return f.read() == g.read()
    ctx.tally.check("lab-class:takes-the-lab-file", same("mm/page_alloc.c", sub, work),
                    "the graded tree's mm/page_alloc.c is not the submission's")
    ctx.tally.check("lab-class:keeps-instructor-labs-py", same("labs/labs.py", ROOT, work),
                    "the graded tree's labs/labs.py is not the instructor's")
    ctx.tally.check("lab-class:reports-other-changes", others == ["labs/labs.py"],
                    "reported %s" % others)
    shutil.rmtree(base, ignore_errors=True)
