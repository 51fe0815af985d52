#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Linux's own selftests, built from Debian's linux-source-6.1 and run as
Linux's kselftest runner would, on Pagoda and on the host (docs/userland.md).

    tools/selftests.py build ARCH       extract, compile, pack build/selftests/ARCH.cpio
    tools/selftests.py host ARCH        run every binary on the host, print the results
    tools/selftests.py list ARCH        the binaries, one path a line

Nothing of the kernel's sources is kept in this repository: the suites are
taken from /usr/src/linux-source-6.1.tar.xz (tools/install-deps.sh installs
it) into build/selftests/src, once. Each program is built static, per C
library: musl-gcc and glibc's gcc on x86-64, aarch64-linux-gnu-gcc (glibc)
on arm64. The result is cached: a build is redone only when the tarball
or this file changes. The archive holds each program as
/ksft/LIBC/SUITE/NAME, the name the results use too.

A result follows the kselftest runner's conventions: exit 0 passes, 4
(KSFT_SKIP) skips, anything else fails; a program that prints TAP
("ok N ...", "not ok N ...") has each of those lines counted as well.
The arm64 programs run on the host under QEMU's user mode (qemu-aarch64).
Standard library only.
"""
import hashlib
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARBALL = "/usr/src/linux-source-6.1.tar.xz"
TOP = "linux-source-6.1"
SELFTESTS = "tools/testing/selftests"
OUT = os.path.join(ROOT, "build", "selftests")
SRC = os.path.join(OUT, "src")
KSFT_SKIP = 4

# What is taken out of the tarball: the suites and the headers they include.
EXTRACT = [SELFTESTS + "/" + d for d in
           ("kselftest.h", "kselftest_harness.h", "lib.mk", "vDSO", "timers",
            "sigaltstack", "size", "x86", "futex", "vm")]

# The C libraries per arch, and how each compiles a static program.
LIBCS = {
    "x86_64": {"musl": ["musl-gcc", "-static"], "glibc": ["gcc", "-static"]},
    "arm64": {"glibc": ["aarch64-linux-gnu-gcc", "-static"]},
}

# (suite, name, sources, extra flags, arches, libcs): each as the suite's
# own Makefile builds it (6.1), plus -static. None: every arch or libc.
VDSO_FLAGS = ["-std=gnu99"]
X86 = ["-m64", "-O2", "-g", "-std=gnu99", "-pthread", "-Wall", "-no-pie"]
FUTEX = ["-g", "-O2", "-Wall", "-D_GNU_SOURCE=", "-pthread", "-I../include", "-I../../"]
TIMERS = ["-O3", "-Wl,-no-as-needed", "-Wall"]
# Arguments a program is run with, on both sides (the runner gives none):
# only to shorten one that would take tens of seconds.
ARGS = {("timers", "threadtest"): ["-t", "2"]}
# The kernel's user headers (linux/, asm/, asm-generic/) for musl, which ships none.
KHDR = os.path.join(OUT, "khdr")
PROGRAMS = [
    ("vDSO", "vdso_test_gettimeofday", ["parse_vdso.c", "vdso_test_gettimeofday.c"],
     VDSO_FLAGS, None, None),
    ("vDSO", "vdso_test_getcpu", ["parse_vdso.c", "vdso_test_getcpu.c"], VDSO_FLAGS, None, None),
    ("vDSO", "vdso_test_abi", ["parse_vdso.c", "vdso_test_abi.c"], VDSO_FLAGS, None, None),
    ("vDSO", "vdso_test_clock_getres", ["vdso_test_clock_getres.c"], VDSO_FLAGS, None, None),
    ("vDSO", "vdso_test_correctness", ["vdso_test_correctness.c", "-ldl"], VDSO_FLAGS,
     None, None),
    # No C library at all: built once, with glibc's headers.
    ("vDSO", "vdso_standalone_test_x86", ["vdso_standalone_test_x86.c", "parse_vdso.c"],
     VDSO_FLAGS + ["-nostdlib", "-fno-asynchronous-unwind-tables", "-fno-stack-protector"],
     ["x86_64"], ["glibc"]),
    # Its own _start; glibc's sysinfo() only (its Makefile: no start files).
    ("size", "get_size", ["get_size.c"], ["-ffreestanding", "-nostartfiles", "-s"], None,
     ["glibc"]),
    # ucontext (swapcontext), which musl lacks
    ("sigaltstack", "sas", ["sas.c"], ["-Wall"], None, ["glibc"]),
    # x86/Makefile's 64-bit programs that apply: flags, helpers.h and libraries as it has them.
    ("x86", "syscall_nt_64", X86 + ["syscall_nt.c", "helpers.h", "-lrt", "-ldl"], [],
     ["x86_64"], ["glibc"]),
    ("x86", "test_mremap_vdso_64", X86 + ["test_mremap_vdso.c", "helpers.h", "-lrt", "-ldl"], [],
     ["x86_64"], ["glibc"]),
    ("x86", "check_initial_reg_state_64",
     X86 + ["-Wl,-ereal_start", "check_initial_reg_state.c", "helpers.h", "-lrt", "-ldl"], [],
     ["x86_64"], ["glibc"]),
    # timers/Makefile's flags. rtcpie skips without /dev/rtc0 (both sides);
    # threadtest is run for 2 s (ARGS), not its default 30.
    ("timers", "rtcpie", ["rtcpie.c", "-lrt", "-lpthread", "-lm"], TIMERS, None, ["glibc"]),
    ("timers", "threadtest", ["threadtest.c", "-lrt", "-lpthread", "-lm"], TIMERS, None,
     ["glibc"]),
] + [
    # vm/Makefile's (6.1; mm/ from 6.3) programs that build static and
    # need no huge pages, userfaultfd, pagemap or privileges; its flags.
    ("vm", name, [name + ".c", "-lrt", "-lpthread"], ["-Wall", "-I../../../.."], None,
     ["glibc"])
    for name in ("map_fixed_noreplace", "mremap_test", "mremap_dontunmap", "map_populate",
                 "mrelease_test")
] + [
    # futex/functional/Makefile's programs, with its flags. musl has no
    # <linux/futex.h> of its own (KHDR: the system's kernel headers, after
    # musl's); three of them do not build with it: futex2test.h wants
    # __NR_futex_waitv, futex_waitv.c glibc's <error.h>.
    ("futex/functional", name, [name + ".c", "-lpthread", "-lrt"], FUTEX, None,
     None if name not in ("futex_wait_timeout", "futex_wait_wouldblock", "futex_waitv")
     else ["glibc"])
    for name in ("futex_wait_timeout", "futex_wait_wouldblock", "futex_requeue_pi",
                 "futex_requeue_pi_signal_restart", "futex_requeue_pi_mismatched_ops",
                 "futex_wait_uninitialized_heap", "futex_wait_private_mapped_file",
                 "futex_wait", "futex_requeue", "futex_waitv")
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def source_stamp():
    """What a build depends on: the tarball (size, mtime) and this file."""
    st = os.stat(TARBALL)
    with open(os.path.abspath(__file__), "rb") as f:
        me = hashlib.sha256(f.read()).hexdigest()
    return "%d %d %s" % (st.st_size, int(st.st_mtime), me)


def extract():
    stamp = os.path.join(SRC, ".stamp")
    st = os.stat(TARBALL)
    want = "%d %d %s" % (st.st_size, int(st.st_mtime), " ".join(EXTRACT))
    if os.path.exists(stamp) and open(stamp).read() == want:
        return
    run(["rm", "-rf", SRC])
    os.makedirs(SRC)
    print("selftests: extracting %s from %s" % (", ".join(os.path.basename(e) for e in EXTRACT),
                                                TARBALL), flush=True)
    run(["tar", "-xJf", TARBALL, "-C", SRC, "--strip-components=1"] +
        ["%s/%s" % (TOP, e) for e in EXTRACT])
    with open(stamp, "w") as f:
        f.write(want)


def programs(arch):
    """(libc, suite, name, sources, flags) for arch, in a fixed order."""
    for libc in LIBCS[arch]:
        for suite, name, srcs, flags, arches, libcs in PROGRAMS:
            if (arches is None or arch in arches) and (libcs is None or libc in libcs):
                yield libc, suite, name, srcs, flags


def path_of(libc, suite, name):
    return "ksft/%s/%s/%s" % (libc, suite, name)


def args_of(path):
    """The arguments the program at path (path_of()) is run with."""
    parts = path.split("/")
    return ARGS.get(("/".join(parts[2:-1]), parts[-1]), [])


def kernel_headers():
    """A directory with the system's kernel headers and nothing else (for -idirafter)."""
    for name, target in (("linux", "/usr/include/linux"),
                         ("asm", "/usr/include/x86_64-linux-gnu/asm"),
                         ("asm-generic", "/usr/include/asm-generic")):
        link = os.path.join(KHDR, name)
        if not os.path.islink(link):
            os.makedirs(KHDR, exist_ok=True)
            os.symlink(target, link)
    return KHDR


def build(arch):
    """Compile every program for arch (cached) and pack the archive; its path."""
    if not os.path.exists(TARBALL):
        sys.exit("selftests: %s missing: run tools/install-deps.sh "
                 "(Debian's linux-source-6.1)" % TARBALL)
    extract()
    bindir = os.path.join(OUT, arch)
    cpio = os.path.join(OUT, arch + ".cpio")
    stamp = os.path.join(bindir, ".stamp")
    want = source_stamp()
    if os.path.exists(stamp) and os.path.exists(cpio) and open(stamp).read() == want:
        return cpio
    run(["rm", "-rf", bindir])
    jobs = []
    for libc, suite, name, srcs, flags in programs(arch):
        out = os.path.join(bindir, path_of(libc, suite, name))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cc = LIBCS[arch][libc]
        if libc == "musl":
            cc = cc + ["-idirafter", kernel_headers()]
        jobs.append((cc + flags + ["-o", out] + srcs, suite))

    def compile_one(job):
        cmd, suite = job
        return cmd, subprocess.run(cmd, cwd=os.path.join(SRC, SELFTESTS, suite),
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    # One compiler per CPU: the programs are independent, and a fresh
    # clone's make test builds them all.
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for cmd, r in pool.map(compile_one, jobs):
            if r.returncode:
                sys.exit("selftests: %s failed:\n%s" % (" ".join(cmd), r.stdout.decode()))
    pairs = ["%s=%s" % (path_of(libc, suite, name), os.path.join(bindir, path_of(libc, suite, name)))
             for libc, suite, name, _, _ in programs(arch)]
    run([sys.executable, os.path.join(ROOT, "tools", "mkcpio.py"), cpio] + pairs)
    with open(stamp, "w") as f:
        f.write(want)
    return cpio


def tap_lines(text):
    """Every TAP result line a program printed: {number: (ok, skip, text)}."""
    out = {}
    for m in re.finditer(r"^(not ok|ok) (\d+)\b([^\n]*)$", text, re.M):
        skip = bool(re.search(r"#\s*SKIP", m.group(3), re.I))
        out[int(m.group(2))] = (m.group(1) == "ok", skip, m.group(3).strip())
    return out


def verdict(code):
    """The kselftest runner's reading of an exit code (None: no exit, a signal)."""
    if code == 0:
        return "pass"
    if code == KSFT_SKIP:
        return "skip"
    return "fail"


def run_host(arch, timeout=60):
    """Run each program on the host: {path: {"verdict", "code", "tap"}}."""
    build(arch)
    bindir = os.path.join(OUT, arch)
    prefix = [] if arch == "x86_64" else ["qemu-aarch64"]
    results = {}
    for libc, suite, name, _, _ in programs(arch):
        path = path_of(libc, suite, name)
        try:
            r = subprocess.run(prefix + [os.path.join(bindir, path)] + args_of(path), cwd=bindir,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout)
            text, code = r.stdout.decode("utf-8", "replace"), r.returncode
        except subprocess.TimeoutExpired as e:
            text, code = (e.stdout or b"").decode("utf-8", "replace"), None
        results[path] = {"verdict": verdict(code), "code": code, "tap": tap_lines(text),
                         "text": text}
    return results


def main(argv):
    if len(argv) != 3 or argv[1] not in ("build", "host", "list") or argv[2] not in LIBCS:
        sys.exit("usage: selftests.py build|host|list x86_64|arm64")
    cmd, arch = argv[1], argv[2]
    if cmd == "build":
        print(build(arch))
    elif cmd == "list":
        for libc, suite, name, _, _ in programs(arch):
            print("/" + path_of(libc, suite, name))
    else:
        for path, r in run_host(arch).items():
            tap = r["tap"].values()
            print("%-50s %-4s exit %s, TAP %d ok %d not ok %d skip" % (
                path, r["verdict"], r["code"], sum(o and not s for o, s, _ in tap),
                sum(not o for o, _, _ in tap), sum(s for _, s, _ in tap)))


if __name__ == "__main__":
    main(sys.argv)
