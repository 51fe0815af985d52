"""Level 3: busybox as the userland. One boot per arch runs a scripted
busybox session from the kernel shell: tests/busybox/portable.sh, whose
output must equal what the same busybox binary prints for it on the host
(the host runs Linux), and tests/busybox/machine.sh, Pagoda's own /, ps,
free, mount, /proc and /dev, checked by shape, and its disk's bytes read
through the disk (/dev/vda; /dev/mmcblk0 on the Pi 4), /dev/mapper/NAME and
/dev/dm-0 against the image's."""
import hashlib
import os
import re
import subprocess
import tempfile

from .common import OUT, ROOT, paths, rel, unit

BB_DIR = os.path.join(ROOT, "tests", "busybox")
DISK_BYTES = 1 << 20
READ_BYTES = 64 << 10  # what the session's dd reads from each device


WRITE_AT = 512 * 1024  # where the session writes "pagoda" through the disk


def disk_image(fresh=False):
    """A 1 MiB image of bytes no two blocks share (a chain of SHA-256s),
    made anew for each boot (the session writes to it)."""
    path = os.path.join(OUT, "busybox-disk.img")
    if fresh or not os.path.exists(path):
        os.makedirs(OUT, exist_ok=True)
        out, h = bytearray(), b"pagoda busybox disk"
        while len(out) < DISK_BYTES:
            h = hashlib.sha256(h).digest()
            out += h
        with open(path, "wb") as f:
            f.write(bytes(out[:DISK_BYTES]))
    return path


def initrd(arch):
    """busybox with its applet links (tools/mkbusybox.sh), then the session's two scripts."""
    bb = os.path.join(OUT, "busybox-%s.cpio" % arch)
    scripts = os.path.join(OUT, "busybox-session.cpio")
    subprocess.run([os.path.join(ROOT, "tools", "mkbusybox.sh"), arch, bb], check=True)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "mkcpio.py"), scripts,
                    "etc/bb/portable.sh=" + os.path.join(BB_DIR, "portable.sh"),
                    "etc/bb/machine.sh=" + os.path.join(BB_DIR, "machine.sh")], check=True)
    both = os.path.join(OUT, "busybox-%s-session.cpio" % arch)
    with open(both, "wb") as out:
        for part in (bb, scripts):
            with open(part, "rb") as f:
                data = f.read()
            out.write(data + b"\0" * (-len(data) % 4))
    return both


def host_portable(arch):
    """What the same busybox prints for portable.sh on the host (arm64's under qemu-aarch64)."""
    if arch == "x86_64":
        cmd = ["/bin/busybox"]
    else:
        cmd = ["qemu-aarch64", os.path.join(OUT, "busybox-arm64", "busybox")]
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(cmd + ["sh", os.path.join(BB_DIR, "portable.sh"), d],
                           capture_output=True, text=True, cwd=d, timeout=60)
    return r.stdout


def host_vfstest(arch):
    """user/libc/vfstest.c on the host: its expectations are Linux's answers."""
    prog = os.path.join(paths.BUILD, "x86_64-pc" if arch == "x86_64" else "arm64-virt",
                        "user", "vfstest")
    cmd = [prog] if arch == "x86_64" else ["qemu-aarch64", prog]
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(cmd + [d], capture_output=True, text=True, timeout=60)
    return r.stdout + r.stderr


def host_jobtest(arch):
    """user/libc/jobtest.c on the host, as Pagoda's shell runs it: leading a
    new session whose controlling terminal (a pseudo-terminal) is fd 0."""
    import fcntl
    import pty
    import termios
    prog = os.path.join(paths.BUILD, "x86_64-pc" if arch == "x86_64" else "arm64-virt",
                        "user", "jobtest")
    cmd = [prog] if arch == "x86_64" else ["qemu-aarch64", prog]
    master, slave = pty.openpty()

    def session_leader():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    with tempfile.TemporaryFile("w+") as out:
        try:
            subprocess.run(cmd, stdin=slave, stdout=out, stderr=subprocess.STDOUT,
                           preexec_fn=session_leader, timeout=60)
        finally:
            os.close(slave)
            os.close(master)
        out.seek(0)
        return out.read()


def between(text, start, end):
    """The lines after the one that ends with start, up to the one that starts with end."""
    m = re.search(re.escape(start) + r"\n(.*?)\n" + re.escape(end), text, re.S)
    return m.group(1) if m else None


def section(text, name):
    m = re.search(r"== %s\n(.*?)\n== " % re.escape(name), text, re.S)
    return m.group(1) if m else ""


def image_md5(nbytes):
    with open(disk_image(), "rb") as f:
        return hashlib.md5(f.read(nbytes)).hexdigest()


def session(ctx, arch, cmd_of, timeout, name=None, disk="vda"):
    """arch: whose busybox (x86_64, arm64); name: the unit's; disk: its name in /dev."""
    tally, name = ctx.tally, name or "busybox-%s" % arch
    cpio = initrd(arch)
    want = host_portable(arch)
    # /init is busybox's shell with job control on ("m" in $-): a job in
    # the background, listed, killed as %1 and waited for (143: SIGTERM),
    # and a pipeline in the foreground in a group of its own: the second
    # command's pgid (field 5 of its stat) is neither its pid nor the
    # shell's (it is the first command's); a job stopped by kill -STOP %1
    # (jobs: "Stopped (signal)"), then killed; its exit leads to the kernel shell,
    # which runs the rest.
    script = [(r"/ # ", "echo flags=$-\r"),
              (r"flags=\w+\r?\n", "sleep 30 &\r"),
              (r"/ # ", "jobs\r"),
              (r"/ # ", "kill %1; wait %1; echo killed=$?\r"),
              (r"killed=\d+", "echo shell=$$; sleep 1 | cut -d' ' -f1,5 /proc/self/stat\r"),
              (r"/ # ", "sleep 31 &\r"),
              (r"/ # ", "kill -STOP %1; sleep 1; jobs\r"),
              (r"/ # ", "kill -9 %1; sleep 1; jobs\r"),
              (r"/ # ", "exit\r"),
              (r"pagoda> ", "dmsetup create bbdm --table '0 %d linear /dev/%s 0'\r"
               % (DISK_BYTES // 512, disk)),
              (r"pagoda> ", "run /bin/sh /etc/bb/portable.sh /tmp\r"),
              (r"pagoda> ", "run /bin/sh /etc/bb/machine.sh %s\r" % disk),
              (r"pagoda> ", "run /bin/vfstest /tmp\r"),
              (r"pagoda> ", "run /bin/jobtest\r"),
              (r"pagoda> ", "poweroff\r")]
    b = ctx.boot(cmd_of(cpio, disk_image(fresh=True)), name, timeout, script)
    with open(disk_image(), "rb") as f:
        f.seek(WRITE_AT)
        written = f.read(512)
    t = b.clean_text()
    tally.check("%s.boot" % name, "Power down." in t and not b.timed_out,
                "did not reach poweroff (log %s)" % rel(b.log))
    tally.check("%s.init-shell" % name,
                re.search(r"init: running /init\n(.*\n)*.*\nflags=\w*m\w*\n", t) is not None,
                "no busybox shell as /init with job control on (log %s)" % rel(b.log))
    m = re.search(r"\n\[1\]\+ +Running +sleep 30\n(.*\n)*killed=143\n(.*\n)*shell=(\d+)\n"
                  r"(\d+) (\d+)\n", t)
    tally.check("%s.jobs" % name, m is not None and m.group(5) not in (m.group(3), m.group(4)),
                "no sleep 30 job listed, killed as %%1 with 143, and a foreground "
                "pipeline in a group of its own (log %s)" % rel(b.log))
    tally.check("%s.job-stopped" % name,
                re.search(r"\n\[1\]\+ +Stopped \(signal\) +sleep 31\n", t) is not None,
                "no sleep 31 job shown stopped after kill -STOP %%1 (log %s)" % rel(b.log))
    got = between(t, "run /bin/sh /etc/bb/portable.sh /tmp", "run: /bin/sh: exit status")
    same = got is not None and got.strip("\n") == want.strip("\n")
    why = "differs from the host's (log %s)" % rel(b.log)
    if got is not None and not same:
        mine, theirs = got.strip("\n").split("\n"), want.strip("\n").split("\n")
        for i in range(max(len(mine), len(theirs))):
            a = mine[i] if i < len(mine) else "<none>"
            h = theirs[i] if i < len(theirs) else "<none>"
            if a != h:
                why = "line %d: Pagoda %r, host %r (log %s)" % (i + 1, a, h, rel(b.log))
                break
    tally.check("%s.portable-like-host" % name, same and "run: /bin/sh: exit status 0" in t, why)
    m = between(t, "run /bin/sh /etc/bb/machine.sh %s" % disk, "run: /bin/sh: exit status") or ""
    md5 = image_md5(READ_BYTES)
    checks = [
        ("ls", r"drwx\S+ +\d+ root +root .* bin\n(.*\n)*dr-x\S+ +\d+ root +root .* proc\n"
               r"(.*\n)*drwxrwxrwt +\d+ root +root .* tmp", section(m, "ls")),
        ("ps", r"PID +USER +COMMAND\n(.*\n)* +\d+ root +/bin/sh", section(m, "ps")),
        ("free", r"Mem: +\d+ +\d+ +\d+", section(m, "free")),
        ("mount", r"devtmpfs on /dev type devtmpfs \(rw.*\)\nproc on /proc type proc \(rw.*\)\n"
                  r"tmpfs on /tmp type tmpfs \(rw.*\)", section(m, "mount")),
        ("uptime", r"up .*load average: 0\.00, 0\.00, 0\.00", section(m, "uptime")),
        ("top", r"Mem: \d+K used.*\nCPU: .*idle.*\nLoad average: .*\n +PID +PPID", section(m, "top")),
        ("proc", r"Name:\t\S+\nUmask:\t0022\nState:\tR \(running\)\n(.*\n)*nodev\ttmpfs\n"
                 r"nodev\tproc\n(.*\n)*MemTotal: +\d+ kB", section(m, "proc")),
        ("dev", r"(?s)^(?=.*\bconsole\b)(?=.*\btty\b)(?=.*\bnull\b)(?=.*\bzero\b)"
                r"(?=.*\b%s\b)(?=.*\bdm-0\b).*/dev/mapper:\s+bbdm" % disk, section(m, "dev")),
        ("blockdev", r"^%d\n512$" % DISK_BYTES, section(m, "size")),
        (disk, r"^%s  -$" % md5, section(m, "disk")),
        ("mapper", r"^%s  -$" % md5, section(m, "dm")),
        ("dm-0", r"^%s  -$" % md5, section(m, "dm-0")),
        ("write-read-back", r"^pagoda$", section(m, "write")),
        ("tmpfs-freed", r"^Shmem: +0 kB$", section(m, "shmem")),
    ]
    for what, pattern, text in checks:
        tally.check("%s.%s" % (name, what), re.search(pattern, text) is not None,
                    "%r not matched in %r (log %s)" % (pattern, text[:300], rel(b.log)))
    tally.check("%s.write-reached-the-image" % name, written == b"pagoda\n" + b"\0" * 505,
                "the image holds %r at %d after the boot" % (written[:16], WRITE_AT))
    host = host_vfstest(arch)
    tally.check("%s.vfstest-host" % name, "vfstest: 0 failed" in host,
                "on the host: %s" % host.strip()[-300:])
    tally.check("%s.vfstest" % name, "vfstest: 0 failed" in t,
                "%s (log %s)" % ("; ".join(re.findall(r"vfstest: FAIL [^\n]*", t)), rel(b.log)))
    host = host_jobtest(arch)
    tally.check("%s.jobtest-host" % name, "jobtest: 0 failed" in host,
                "on the host: %s" % host.strip()[-300:])
    tally.check("%s.jobtest" % name, "jobtest: 0 failed" in t,
                "%s (log %s)" % ("; ".join(re.findall(r"jobtest: FAIL [^\n]*", t)), rel(b.log)))
    tally.check("%s.no-unknown-syscalls" % name, "called unknown number" not in t,
                "a system call busybox made is missing (log %s)" % rel(b.log))


@unit("busybox-x86_64", "system", needs=["x86_64"])
def busybox_x86(ctx):
    """x86-64: a busybox session (tests/busybox/) beside the same busybox on the host"""
    session(ctx, "x86_64", lambda cpio, disk: ctx.initrd_cmd("x86_64", cpio, disks=[disk]), 120)


@unit("busybox-arm64-virt", "system", needs=["arm64-virt"])
def busybox_arm64(ctx):
    """arm64 virt: the same busybox session with Debian's arm64 busybox"""
    session(ctx, "arm64", lambda cpio, disk: ctx.initrd_cmd("arm64-virt", cpio, disks=[disk]),
            240)


@unit("busybox-arm64-pi4", "system", needs=["arm64-pi4"])
def busybox_pi4(ctx):
    """arm64 raspi4b: the same busybox session, its disk the card in the SD slot"""
    session(ctx, "arm64", lambda cpio, disk: ctx.initrd_cmd("arm64-pi4", cpio, disks=[disk]), 300,
        name="busybox-arm64-pi4", disk="mmcblk0")
