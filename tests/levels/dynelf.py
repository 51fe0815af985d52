"""Debian's dynamically linked programs on Pagoda (level 3).

One boot per arch with Debian's own coreutils (echo, md5sum, ls, sort) and bash (running tests/dynelf/script.sh) and
their libraries in the initramfs, put there as a user would
(tools/add-binary.sh into a directory, packed as ROOTFS= packs it): each
program starts in glibc's ld.so, which maps libc and the rest itself, and
must print what the same binary prints on the host for the same input (on
arm64 the host runs it under qemu-aarch64 with the same directory as /).
user/dynaux, built here with the host's compiler as a dynamic ET_EXEC,
prints its auxiliary vector's checks, compared the same way.

The errors: a program whose loader is not there fails with ENOENT, one
whose loader is not an ELF program with ENOEXEC (Linux's answers; the
first also on the host). The boot runs the whole round twice with a
leak-check point after each, as tests/levels/procmem.py does: free memory
plus slab pages, and every cache's objects, must match to the page. The
two runs of `dynaux base` find the loader and the stack elsewhere on
x86-64 (randomised, the default) and at the same place on arm64, which
boots with norandmaps.
"""
import errno
import hashlib
import os
import re
import shutil
import subprocess

from .common import OUT, ROOT, rel, unit
from .procmem import KLOG, check_no_leak

LOADER = {"x86_64": "/lib64/ld-linux-x86-64.so.2", "arm64": "/lib/ld-linux-aarch64.so.1"}
LIBDIR = {"x86_64": "/lib/x86_64-linux-gnu", "arm64": "/lib/aarch64-linux-gnu"}
SOCKET = {"x86_64": "41", "arm64": "198"}
CC = {"x86_64": "gcc", "arm64": "aarch64-linux-gnu-gcc"}
PROGRAMS = ["/bin/echo", "/usr/bin/md5sum", "/bin/ls", "/usr/bin/sort", "/usr/bin/bash",
            "/usr/bin/stat"]
SCRIPT = "/etc/dyn/script.sh"
# The file systems by their magic numbers (statfs), as Linux names them.
STATFS = "/usr/bin/stat -f -c %n:%T / /proc /tmp /dev"
STATFS_WANT = ["/:ramfs", "/proc:proc", "/tmp:tmpfs", "/dev:tmpfs"]
WORDS = "/etc/dyn/words"


def commands(arch):
    """The round, as `run` lines: each prints the same on the host."""
    return ["/bin/echo Debian's echo, through ld.so",
            "/usr/bin/md5sum %s %s" % (WORDS, LOADER[arch]),
            "/bin/ls -1 %s /etc/dyn" % LIBDIR[arch],
            "/usr/bin/sort %s" % WORDS,
            "/usr/bin/stat -c %%n:%%s:%%F:%%a %s /bin/ls" % WORDS,
            "/bin/dynaux",
            "/bin/dynaux exec /bin/noloader",
            "/usr/bin/bash %s" % SCRIPT]


def words():
    """Lines in no order (hex of a SHA-256 chain), for sort and md5sum."""
    h, out = b"pagoda dynelf", []
    for _ in range(200):
        h = hashlib.sha256(h).digest()
        out.append(h.hex()[:12])
    return "\n".join(out) + "\n"


def with_loader(src, dest, old, new):
    """A copy of src whose PT_INTERP names another loader (same length)."""
    with open(src, "rb") as f:
        data = f.read()
    assert len(old) == len(new) and old.encode() in data
    with open(dest, "wb") as f:
        f.write(data.replace(old.encode(), new.encode(), 1))
    os.chmod(dest, 0o755)


def rootfs(arch):
    """build/test/dynelf-ARCH: the programs, libraries and inputs, as ROOTFS=DIR takes them."""
    top = os.path.join(OUT, "dynelf-%s" % arch)
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(os.path.join(top, "etc", "dyn"))
    for prog in PROGRAMS:
        subprocess.run([os.path.join(ROOT, "tools", "add-binary.sh"), "--arch", arch, prog, top],
                       check=True)
    with open(os.path.join(top, WORDS.lstrip("/")), "w") as f:
        f.write(words())
    shutil.copy(os.path.join(ROOT, "tests", "dynelf", "script.sh"),
                os.path.join(top, SCRIPT.lstrip("/")))
    os.makedirs(os.path.join(top, "bin"), exist_ok=True)
    subprocess.run([CC[arch], "-O2", "-no-pie", "-o", os.path.join(top, "bin", "dynaux"),
                    os.path.join(ROOT, "user", "dynaux.c")], check=True)
    loader = LOADER[arch]
    echo = os.path.join(top, "bin", "echo")
    # Missing: no such loader. Broken: a loader path whose file is no ELF program.
    with_loader(echo, os.path.join(top, "bin", "noloader"), "ld-linux", "ld-nothr")
    with_loader(echo, os.path.join(top, "bin", "badloader"), "ld-linux", "ld-broke")
    broken = os.path.join(top, loader.replace("ld-linux", "ld-broke").lstrip("/"))
    with open(os.path.join(top, loader.lstrip("/")), "rb") as f:
        head = f.read(4096)  # the real loader's headers, its segments cut off
    with open(broken, "wb") as f:
        f.write(head)
    os.chmod(broken, 0o755)
    cpio = os.path.join(OUT, "dynelf-%s.cpio" % arch)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), cpio,
                    "--tree", top], check=True)
    return top, cpio


def host_output(arch, top, line):
    """What the host prints for one command line: the same binary on the
    directory's paths (arm64's under qemu-aarch64, its libraries found with
    the directory as / by -L), the directory's name taken out again."""
    cmd = [top + a if a.startswith("/") else a for a in line.split(" ")]
    if arch == "arm64" and line.startswith("/usr/bin/bash "):
        # bash under qemu-aarch64 could not exec its arm64 children on the
        # host: the script is the host's bash's, over the same files.
        top = os.path.join(OUT, "dynelf-arm64-host")
        shutil.rmtree(top, ignore_errors=True)
        os.makedirs(os.path.join(top, "etc"))
        shutil.copytree(os.path.join(OUT, "dynelf-arm64", "etc", "dyn"),
                        os.path.join(top, "etc", "dyn"))
        os.symlink("/usr/bin", os.path.join(top, "bin"))
        cmd = ["/usr/bin/bash", top + SCRIPT]
    elif arch == "arm64":
        cmd = ["qemu-aarch64", "-L", top] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                       env={"PATH": "/bin", "LC_ALL": "C"})
    return (r.stdout + r.stderr).replace(top, "").rstrip("\n").split("\n")


def runs(text, line):
    """Each run's lines of `run LINE` in the boot, kernel log lines left out."""
    name = line.split(" ")[0]
    found = re.findall(r"pagoda> run %s\n(.*?)\n?run: %s: exit status (\d+)\n" %
                       (re.escape(line), re.escape(name)), text, re.S)
    return [([l for l in out.split("\n") if not KLOG.match(l)], int(status))
            for out, status in found]


def session(ctx, arch, cmdline, cmd_of, timeout):
    tally, name = ctx.tally, "dynelf-%s" % arch
    top, cpio = rootfs(arch)
    round_ = ["run %s" % c for c in commands(arch)] + ["run /bin/dynaux base", "run " + STATFS]
    errors = ["run /bin/dynaux exec /bin/badloader", "run /bin/noloader", "run /bin/badloader"]
    point = ["pagealloc drain", "meminfo", "slabinfo"]
    lines = round_ + errors + point + round_ + errors + point + ["poweroff"]
    script = [(r"pagoda> ", l + "\r") for l in lines]
    b = ctx.boot(cmd_of(cpio, cmdline), name, timeout, script)
    t = b.clean_text()
    log = rel(b.log)
    tally.check("%s.boot" % name, "Power down." in t and not b.timed_out,
                "did not reach poweroff (log %s)" % log)
    for line in commands(arch):
        want = host_output(arch, top, line)
        if arch == "arm64" and " exec " in line:
            # Under qemu-aarch64 the host kernel would run the program, an
            # arm64 one it cannot: Linux's answer for a missing loader is ENOENT.
            want = ["exec noloader: %s" % os.strerror(errno.ENOENT)]
        if arch == "arm64":
            # qemu-aarch64 gives no AT_MINSIGSTKSZ; Linux on arm64 does, and so must Pagoda.
            want = [w.replace(": NO", ": yes") if w.startswith("AT_MINSIGSTKSZ") else w
                    for w in want]
        got = runs(t, line)
        bad = [(w, g) for out, _ in got for w, g in zip(want, out) if w != g][:3]
        ok = (len(got) == 2 and not bad and all(len(out) == len(want) and status == 0
                                                 for out, status in got))
        tally.check("%s.%s" % (name, line.split(" ")[0].rsplit("/", 1)[1] +
                               ("-exec" if " exec " in line else "")), ok,
                    "%d runs of %r; first differences (host, pagoda): %s (log %s)" %
                    (len(got), line, bad or [(len(want), [len(o) for o, _ in got])], log))
    bad = runs(t, "/bin/dynaux exec /bin/badloader")
    tally.check("%s.bad-loader-enoexec" % name,
                len(bad) == 2 and all(o == ["exec badloader: Exec format error"] for o, _ in bad),
                "execve of a program whose loader is no ELF program: %s (log %s)" % (bad, log))
    tally.check("%s.shell-says-why" % name,
                t.count("run: /bin/noloader: its interpreter (PT_INTERP) does not "
                        "exist") == 2 and
                t.count("run: /bin/badloader: its interpreter is not an ELF program") == 2,
                "the shell's run does not name the loader as the reason (log %s)" % log)
    got = runs(t, STATFS)
    tally.check("%s.statfs" % name, len(got) == 2 and all(o == STATFS_WANT for o, _ in got),
                "stat -f: %s (log %s)" % (got, log))
    # socket is the one left: Pagoda has no sockets, and glibc's user-name
    # lookups try the name-service daemon's first (docs/userland.md).
    unknown = [c for c in re.findall(r"\S+ called unknown number (\d+)", t)
               if c != SOCKET[arch]]
    tally.check("%s.no-unknown-syscalls" % name, not unknown,
                "numbers %s (log %s)" % (unknown, log))
    # ASLR: the loader (below mmap_base) and the stack move between runs;
    # with norandmaps on the command line they stay put.
    bases = [o[0] for o, _ in runs(t, "/bin/dynaux base") if o]
    fixed = "norandmaps" in cmdline
    tally.check("%s.%s" % (name, "norandmaps-fixed" if fixed else "aslr-moves"),
                len(bases) == 2 and (bases[0] == bases[1]) == fixed and
                all(re.match(r"loader at 0x[0-9a-f]+000, stack near 0x[0-9a-f]+000$", b)
                    for b in bases),
                "two runs of dynaux base: %s (log %s)" % (bases, log))
    check_no_leak(tally, name, t, log)


@unit("dynelf-x86_64", "system", needs=["x86_64"])
def dynelf_x86(ctx):
    """x86-64: Debian's dynamic coreutils through ld.so, output like the host's, no leak"""
    session(ctx, "x86_64", "panic=-1",
            lambda cpio, cmdline: ctx.initrd_cmd("x86_64", cpio, cmdline), 120)


@unit("dynelf-arm64-virt", "system", needs=["arm64-virt"])
def dynelf_arm64(ctx):
    """arm64 virt: the same with Debian's arm64 coreutils (apt-get download), norandmaps"""
    session(ctx, "arm64", "panic=-1 norandmaps",
            lambda cpio, cmdline: ctx.initrd_cmd("arm64-virt", cpio, cmdline), 240)
