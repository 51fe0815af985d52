"""Level 3: system tests, whole stories told through a boot: a deliberate
crash reported properly, bad parameters survived, a typed shell session,
the ways into and out of each arm64 board."""
import json
import time
import os
import re
import shutil
import subprocess

from .common import OUT, expect, rel, unit


@unit("system-panic", "system", needs=["x86_64"])
def panic_report(ctx):
    """x86-64: a deliberate NULL write gets the full report, then panics"""
    # The report must name the fault, show the registers and a symbolized
    # trace through the command, then panic.
    b = ctx.boot(ctx.x86_cmd(cmdline="shell.run=panic panic=-1"), "system-panic", 120)
    expect_report(ctx, "system:panic-report", b,
                  [("exception name", r"#PF page fault"),
                   ("null pointer", r"NULL pointer dereference"),
                   ("registers", r"RIP: 0008:ffffffff8[0-9a-f]+ cmd_panic\+0x"),
                   ("cr2", r"CR2: 0000000000000000"),
                   ("trace", r"Call trace:\n(.*\n)*?.*shell_exec\+0x"),
                   ("panic", r"Kernel panic - not syncing: fatal exception")])


def expect_report(ctx, name, b, parts):
    """Each (what, regex) of a panic report in the boot's text, then QEMU's
    exit: panic=-1 resets, and -no-reboot turns the reset into that exit."""
    for what, pattern in parts:
        expect(ctx.tally, name, b, what, pattern)
    ctx.tally.check(name + ".exits", not b.timed_out,
                    "QEMU did not exit after the panic (log %s)" % b.log)


@unit("system-bad-params", "system", needs=["x86_64"])
def bad_params(ctx):
    """x86-64: bad parameters are warned about, defaults kept, the boot goes on"""
    b = ctx.boot(ctx.x86_cmd(cmdline="loglevel=99 nosuchparam=1 panic=banana test=params"),
                 "system-badparams", 120)
    t, tally = b.text, ctx.tally
    tally.check("system:bad-params.range", "bad value '99' for loglevel" in t, "no loglevel warning")
    tally.check("system:bad-params.unknown", "unknown parameter 'nosuchparam'" in t, "no unknown-key warning")
    tally.check("system:bad-params.int", "bad value 'banana' for panic" in t, "no panic= warning")
    tally.check("system:bad-params.survives", "pagoda: done" in t and not b.timed_out, "boot did not finish")


@unit("system-shell", "system", needs=["x86_64"])
def shell_session(ctx):
    """x86-64: a typed shell session: editing, history, commands, poweroff"""
    # Each step waits for the next prompt, then types.
    keys = ["help\r", "uptimX\x7fe\r", "\x1b[A\r", "params loglevel\r",
            "meminfo\r", "frobnicate\r", "poweroff\r"]
    script = [(r"pagoda> ", k) for k in keys]
    b = ctx.boot(ctx.x86_cmd(cmdline="panic=-1"), "system-shell", 120, script)
    t = b.clean_text()
    checks = [("prompt", "pagoda> " in t),
              ("help", re.search(r"uptime\s+time since", t) is not None),
              ("backspace", re.search(r"pagoda> uptimX\x08 \x08e\nup \d", t) is not None),
              ("history", len(re.findall(r"\nup \d+\.\d+ s", t)) >= 2),
              ("params", re.search(r"loglevel\s+7\s", t) is not None),
              ("meminfo", re.search(r"MemTotal: +\d+ kB", t) is not None),
              ("unknown", "frobnicate: unknown command" in t),
              ("poweroff", "Power down." in t and not b.timed_out)]
    for what, ok in checks:
        ctx.tally.check("system:shell.%s" % what, ok, "(log %s)" % b.log)


@unit("system-processes", "system", needs=["x86_64"])
def processes_session(ctx):
    """x86-64: /init from the initramfs at boot (rdinit=), then a program
    in the background: ps lists it, maps shows its areas as
    /proc/PID/maps does, kill ends it and the reaper says so"""
    seen = {}

    def remember(m):
        seen["pid"] = m.group(1)
        return ""

    script = [(r"pagoda> ", "run /bin/libctest-musl clock 2000000000 &\r"),
              (r"\[(\d+)\] /bin/libctest-musl", remember),
              (r"pagoda> ", lambda m: "maps %s\r" % seen["pid"]),
              (r"pagoda> ", "ps\r"),
              (r"pagoda> ", lambda m: "kill %s\r" % seen["pid"]),
              (r"killed by signal 15", "poweroff\r")]
    b = ctx.boot(ctx.x86_cmd(cmdline="rdinit=/bin/hello panic=-1"), "system-processes", 120,
                 script)
    t = b.clean_text()
    pid = seen.get("pid", "?")
    checks = [("init", "init: running /bin/hello" in t and
               re.search(r"init: /bin/hello ended \(wait status 0\)", t) is not None),
              ("maps", re.search(r"\n[0-9a-f]+-[0-9a-f]+ r-xp 00000000 00:00 0 +\[vdso\]", t)
               is not None and re.search(r" +\[stack\]", t) is not None),
              ("ps", re.search(r"\n +%s +0 R +\d+ libctest-musl" % pid, t) is not None),
              ("kill", re.search(r"\[%s\] libctest-musl: killed by signal 15" % pid, t)
               is not None),
              ("poweroff", "Power down." in t and not b.timed_out)]
    for what, ok in checks:
        ctx.tally.check("system:processes.%s" % what, ok, "(log %s)" % b.log)


@unit("system-shell-errors", "system", needs=["x86_64"])
def shell_errors_session(ctx):
    """x86-64: the shell's error paths and line editor, after three bad boot words"""
    # Typed as a person would, on a machine booted with three bad words on
    # its command line.
    left, right, home, end = "\x1b[D", "\x1b[C", "\x1b[H", "\x1b[F"
    keys = [
        # Each command that fails says so, by name, with its usage line.
        "memory online -5\r", "memory online abc\r", "memory online\r", "memory foo\r",
        "pagealloc bogus\r", "meminfo extra args\r", "pagealloc drain\r",
        "test nosuchsuite\r", "params page_alloc.policy\r",
        # Editing: Home/End/Delete in several spellings, Ctrl-A/E/K/U/W.
        "xuptime" + "\x1b[1~" + "\x1b[3~" + "\r",       # Home, Delete
        "cpu" + home + end + "s\r",                      # ESC [ H / ESC [ F
        "ps" + "\x1bOH" + "\x1bOF" + "\r",               # ESC O H / ESC O F
        "params loglevel junk\x17\r",                   # Ctrl-W
        "help me" + left * 3 + "\x0b\r",                # Left, Ctrl-K
        "reboot\x15date\r",                             # Ctrl-U
        "dat" + left + right + "\x01\x05e\r",            # Ctrl-A, Ctrl-E
        "w" * 300 + "\r",                               # over the limit
        "params shell.columns\r",
    ]
    # The shell asks the terminal's width (ESC [ 6 n); answer as a terminal
    # 100 columns wide would.
    script = [(r"\x1b\[6n", "\x1b[24;100R")] + [(r"pagoda> ", k) for k in keys]
    # A long command stopped by Ctrl-C as soon as it has started.
    script += [(r"pagoda> ", "mmlab run workload=aged\r"), (r"workload=aged\r?\n", "\x03"),
               (r"pagoda> ", "poweroff\r")]
    b = ctx.boot(ctx.x86_cmd(cmdline="bogus=1 loglevel=99 page_alloc.policy=nonsense panic=-1"),
                 "system-shell-errors", 180, script)
    t = b.clean_text()

    def usage(cmd, u):
        # Not anchored at the prompt: a late kernel log line may come between.
        return re.search(r"%s\n(.*\n)?%s: Invalid argument \(EINVAL\)\n"
                         r"usage: %s\n" % (re.escape(cmd), cmd.split()[0], re.escape(u)),
                         t) is not None
    checks = [
        ("params.three-problems", "params: 3 problem(s) on the command line" in t),
        ("params.choices", "bad value 'nonsense' for page_alloc.policy "
                           "(auto|inorder|shuffle|shuffle-entropy|colour)" in t),
        ("params.in-effect", re.search(r"page_alloc.policy +auto ", t) is not None),
        ("memory.negative", usage("memory online -5", "memory [online SIZE|all]")),
        ("memory.not-a-size", usage("memory online abc", "memory [online SIZE|all]")
         and "'abc' is not a size" in t),
        ("memory.no-size", usage("memory online", "memory [online SIZE|all]")),
        ("memory.unknown-verb", usage("memory foo", "memory [online SIZE|all]")),
        ("pagealloc.usage", usage("pagealloc bogus", "pagealloc [check|drain]")),
        ("meminfo.no-args", "meminfo: takes no arguments (EINVAL)" in t),
        ("pagealloc.drain", re.search(r"pagealloc: per-CPU lists drained, \d+ pages", t)
         is not None),
        ("test.no-suite", "test: No such file or directory (ENOENT)" in t),
        ("edit.home-delete", re.search(r"\nup \d+\.\d+ s", t) is not None),
        ("edit.no-tilde", "~: unknown command" not in t and "unknown command" not in t),
        ("edit.home-end", re.search(r"pagoda> cpu[^\n]*\n\d+ of \d+ CPUs online", t)
         is not None),
        ("edit.ss3-home-end", re.search(r"pagoda> ps[^\n]*\n +PID NAME", t) is not None),
        ("edit.ctrl-w", "no parameter 'junk'" not in t and
         len(re.findall(r"\n  loglevel +7 ", t)) >= 1),
        ("edit.ctrl-k", re.search(r"help +this list", t) is not None),
        ("edit.ctrl-u-ctrl-a-e", len(re.findall(r"\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", t)) == 2
         and b.text.count("Welcome to Pagoda") == 1),
        ("edit.too-long", "line longer than 255 characters refused, nothing run" in t),
        ("ctrl-c", "mmlab: interrupted (Ctrl-C)" in t),
        ("columns-asked", re.search(r"shell\.columns +100 ", t) is not None),
        ("poweroff", "Power down." in t and not b.timed_out),
    ]
    for what, ok in checks:
        ctx.tally.check("system:shell-errors.%s" % what, ok, "(log %s)" % b.log)


@unit("system-arm64-panic", "system", needs=["arm64-virt"])
def arm64_panic_report(ctx):
    """arm64 virt: the same deliberate NULL write, reported the arm64 way"""
    b = ctx.boot(ctx.arm64_cmd("virt", "shell.run=panic panic=-1"), "system-arm64-panic", 60)
    expect_report(ctx, "system:arm64-panic-report", b,
                  [("exception class", r"Data Abort \(ESR 0x9600004[4-7]: EC 0x25"),
                   ("null pointer", r"write: translation fault .*NULL pointer dereference"),
                   ("registers", r"PC: ffffffff8[0-9a-f]+ cmd_panic\+0x"),
                   ("far", r"FAR: 0000000000000000"),
                   ("trace", r"Call trace:\n(.*\n)*?.*shell_exec\+0x"),
                   ("panic", r"Kernel panic - not syncing: fatal exception Data Abort")])


@unit("system-arm64-no-dtb", "system", needs=["arm64-pi4"])
def arm64_no_dtb(ctx):
    """raspi4b without -dtb: the kernel says plainly it has no device tree"""
    # raspi4b then hands over ATAGS. With no command line there is no
    # panic=, so it halts, as panic's default says: the boot is cut short.
    cmd = [a for a in ctx.arm64_cmd("pi4", "") if a not in ("-dtb", ctx.pi4_dtb)]
    b = ctx.boot(cmd, "system-arm64-no-dtb", 30, [(r"---\[ end Kernel panic", "")],
                 stop_after_script=True)
    ctx.tally.check("system:arm64-no-dtb.reported",
                    "holds no device tree" in b.text and "Kernel panic" in b.text,
                    "no clear error without a device tree (log %s)" % b.log)


def arm64_shell(name, platform, el2, entered, power, gic):
    """Entry at EL2 (virt with virtualization=on; the Pi firmware does the
    same) and the way out of each board: PSCI through SMC on virt, the
    BCM2835 watchdog on the Pi. `poweroff` must end QEMU by itself. The
    virt one has 4 CPUs on a GICv3: secondaries started by PSCI through
    SMC, each dropping from EL2 itself and opening ICC_SRE_EL1 there. The
    typing goes through the PL011's receive interrupt on both."""
    @unit("system-arm64-%s-shell" % name, "system", needs=["arm64-" + platform])
    def run(ctx):
        script = [(r"pagoda> ", "uptime\r"), (r"pagoda> ", "poweroff\r")]
        b = ctx.boot(ctx.arm64_cmd(platform, "panic=-1", el2, smp=4, gic=gic),
                     "system-arm64-%s-shell" % name, 60, script)
        t = b.clean_text()
        for what, ok in [("entry", entered in t), ("power-method", power in t),
                         ("cpus-online", "smp: 4 of 4 CPUs online" in t),
                         ("input-irq", "console input on interrupt" in t),
                         ("uptime", re.search(r"\nup \d+\.\d+ s", t) is not None),
                         ("poweroff", "Power down." in t and not b.timed_out)]:
            ctx.tally.check("system:arm64-%s.%s" % (name, what), ok, "(log %s)" % b.log)
    run.__doc__ = "arm64 %s: entered at EL2, typed to, powered off by %s" % (name, power)


arm64_shell("virt-el2", "virt", True, "entered at EL2", "PSCI via SMC", 3)
arm64_shell("pi4", "pi4", False, "entered at EL2", "BCM2835 watchdog", 2)


def gnu_cpio(tree, out):
    """An archive of tree made by GNU cpio itself (find . | cpio -o -H newc),
    as a Linux user makes an initramfs."""
    names = subprocess.run(["find", "."], cwd=tree, check=True, capture_output=True).stdout
    with open(out, "wb") as f:
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=tree, input=names,
                       stdout=f, check=True)


@unit("system-initrd-gnu-cpio", "system", needs=["x86_64"])
def initrd_gnu_cpio(ctx):
    """x86-64 with -initrd: two archives GNU cpio made, back to back (its
    512-byte padding between): a hard link keeps its data under both
    names, a symbolic link to a program and one to a directory run
    /bin/hello, the second archive's file is there; then the same gzipped,
    which is named and refused, not dropped quietly"""
    work = os.path.join(OUT, "initrd")
    shutil.rmtree(work, ignore_errors=True)
    one, two = os.path.join(work, "one"), os.path.join(work, "two")
    for d in (os.path.join(one, "etc"), os.path.join(one, "bin"), os.path.join(two, "etc")):
        os.makedirs(d)
    with open(os.path.join(one, "etc", "linked-a"), "w") as f:
        f.write("one file, two names\n")
    os.link(os.path.join(one, "etc", "linked-a"), os.path.join(one, "etc", "linked-b"))
    os.symlink("/bin/hello", os.path.join(one, "bin", "greet"))
    os.symlink("bin", os.path.join(one, "sbin"))
    with open(os.path.join(two, "etc", "second"), "w") as f:
        f.write("from the second archive\n")
    a, b = os.path.join(work, "a.cpio"), os.path.join(work, "b.cpio")
    gnu_cpio(one, a)
    gnu_cpio(two, b)
    both = os.path.join(work, "initrd.cpio")
    with open(both, "wb") as f:
        f.write(open(a, "rb").read() + open(b, "rb").read())
    script = [(r"pagoda> ", "ls\r"), (r"pagoda> ", "run /bin/greet x\r"),
              (r"pagoda> ", "run /sbin/hello y\r"), (r"pagoda> ", "poweroff\r")]
    boot = ctx.boot(ctx.initrd_cmd("x86_64", both),
                    "system-initrd-gnu-cpio", 120, script)
    t = boot.clean_text()
    size = len("one file, two names\n")
    checks = [
        ("two-archives", re.search(r"initramfs: \S+: \d+ entries in 2 archives", t) is not None),
        ("hard-link", re.search(r"\n-0644 +%d /etc/linked-a\n" % size, t) is not None and
         re.search(r"\n-0644 +%d /etc/linked-b\n" % size, t) is not None),
        ("symlinks-listed", "/bin/greet -> /bin/hello" in t and "/sbin -> bin" in t),
        ("second-archive", "/etc/second" in t),
        ("run-through-symlink", "argv[0]=/bin/greet argv[1]=x" in t),
        ("run-through-dir-symlink", "argv[0]=/sbin/hello argv[1]=y" in t),
        ("poweroff", "Power down." in t and not boot.timed_out),
    ]
    # the same archives gzipped: Linux would unpack them; Pagoda says it cannot
    gz = both + ".gz"
    with open(gz, "wb") as f:
        subprocess.run(["gzip", "-9", "-n", "-c", both], stdout=f, check=True)
    boot2 = ctx.boot(ctx.initrd_cmd("x86_64", gz),
                     "system-initrd-gzip", 120, [(r"pagoda> ", "poweroff\r")])
    t2 = boot2.clean_text()
    checks.append(("gzip-named", re.search(r"initramfs: \S+: gzip-compressed; .*unpack it first",
                                           t2) is not None and "/etc/second" not in t2))
    for what, ok in checks:
        ctx.tally.check("system:initrd-gnu-cpio.%s" % what, ok,
                        "(logs %s, %s)" % (boot.log, boot2.log))


# fio 3.x's line shapes, checked against fio's own output before Pagoda's.
FIO_LINES = [
    ("job-line", r"^j: \(g=0\): rw=randrw, bs=\(R\) 4096B-4096B, \(W\) 4096B-4096B, "
                 r"\(T\) 4096B-4096B, ioengine=psync, iodepth=1$"),
    ("starting", r"^Starting 1 process$"),
    ("result-line", r"^j: \(groupid=0, jobs=1\): err= 0: pid=\d+"),
    ("read", r"^  read: IOPS=[\d.]+k?, BW=[\d.]+[KMG]?iB/s \([\d.]+[kMG]?B/s\)"
             r"\([\d.]+[KMG]?i?B/\d+msec\)$"),
    ("write", r"^  write: IOPS=[\d.]+k?, BW=[\d.]+[KMG]?iB/s \([\d.]+[kMG]?B/s\)"
              r"\([\d.]+[KMG]?i?B/\d+msec\); 0 zone resets$"),
    ("clat", r"^    clat \([num]sec\): min=\d+, max=\d+, avg=\d+\.\d\d, stdev=\d+\.\d\d$"),
    ("lat", r"^     lat \([num]sec\): min=\d+, max=\d+, avg=\d+\.\d\d, stdev=\d+\.\d\d$"),
    ("percentiles-head", r"^    clat percentiles \([num]sec\):$"),
    ("percentiles", r"^     \|( +\d+\.\d\dth=\[ *\d+\],){4}$"),
    ("percentiles-last", r"^     \| +99\.99th=\[ *\d+\]$"),
    ("group", r"^Run status group 0 \(all jobs\):$"),
    ("group-read", r"^   READ: bw=[\d.]+[KMG]?iB/s \([\d.]+[kMG]?B/s\), [\d.]+[KMG]?iB/s-[\d.]+"
                   r"[KMG]?iB/s \([\d.]+[kMG]?B/s-[\d.]+[kMG]?B/s\), io=[\d.]+[KMG]?i?B "
                   r"\([\d.]+[kMG]?B\), run=\d+-\d+msec$"),
]


def json_shape(v, path=""):
    """{path: type} of every value in a JSON document (lists by their first item)."""
    out = {path: type(v).__name__}
    if isinstance(v, dict):
        for k, x in v.items():
            out.update(json_shape(x, path + "/" + k))
    elif isinstance(v, list) and v:
        out.update(json_shape(v[0], path + "/0"))
    return out


def json_in(text):
    """The first JSON document in a boot's text (from a line that is "{")."""
    start = text.find("\n{\n")
    if start < 0:
        return None
    depth, i = 0, start + 1
    for i in range(start + 1, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            break
    try:
        return json.loads(text[start + 1:i + 1])
    except ValueError:
        return None


@unit("system-fio-like-fio", "system", needs=["x86_64"])
def fio_like_fio(ctx):
    """the shell's fio against fio itself (the host's fio 3.x, same job on a
    file): every line shape of the normal output that fio prints, Pagoda
    prints; every key of Pagoda's JSON is fio's, with the same type, and
    each direction has all of fio's keys"""
    work = os.path.join(OUT, "fio")
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, "fio.dat")
    job = ["--name=j", "--rw=randrw", "--bs=4k", "--size=4M", "--ioengine=psync"]
    real_normal = subprocess.run(["fio", "--filename=" + data] + job, capture_output=True,
                                 text=True, check=True).stdout
    real_json = json.loads(subprocess.run(["fio", "--filename=" + data, "--output-format=json"]
                                          + job, capture_output=True, text=True,
                                          check=True).stdout)
    line = "fio --filename=nullb0 " + " ".join(job)
    script = [(r"pagoda> ", line + "\r"), (r"Run status group", ""),
              (r"pagoda> ", line + " --output-format=json\r"), (r"\n}", ""),
              (r"pagoda> ", "poweroff\r")]
    boot = ctx.boot(ctx.x86_cmd(cmdline="panic=-1"), "system-fio-like-fio", 120, script)
    t = boot.clean_text().replace("\r", "")
    normal = t.split("--output-format=json", 1)[0]
    ours = json_in(t)
    for what, rx in FIO_LINES:
        ctx.tally.check("system:fio-like-fio.fio-itself.%s" % what,
                        re.search(rx, real_normal, re.M) is not None,
                        "fio %s no longer prints this shape: %s" % (real_json["fio version"], rx))
        ctx.tally.check("system:fio-like-fio.normal.%s" % what,
                        re.search(rx, normal, re.M) is not None,
                        "no line of shape %s (log %s)" % (rx, boot.log))
    if not ctx.tally.check("system:fio-like-fio.json-parses", ours is not None,
                           "no JSON document in the output (log %s)" % boot.log):
        return
    theirs = json_shape(real_json)
    mine = json_shape(ours)
    # (job options: the options a job was given, strings either way)
    foreign = ["%s (%s)" % (p, ty) for p, ty in sorted(mine.items())
               if theirs.get(p) != ty and "/job options/" not in p]
    ctx.tally.check("system:fio-like-fio.json-keys-are-fio's", not foreign,
                    "not in fio's JSON, or of another type: %s" % ", ".join(foreign[:8]))
    missing = [p for p in theirs if p.startswith(("/jobs/0/read/", "/jobs/0/write/"))
               and p not in mine]
    ctx.tally.check("system:fio-like-fio.json-directions-whole", not missing,
                    "fio has, Pagoda lacks: %s" % ", ".join(missing[:8]))
    ctx.tally.check("system:fio-like-fio.poweroff", "Power down." in t and not boot.timed_out,
                    "(log %s)" % boot.log)


def ctrl_c(ctx, name, make_cmd, timeout):
    """Ctrl-C as a terminal's intr: fio ends its jobs at their next I/O and
    reports what was done (fio's own "terminating on signal 2"); a program
    `run` waits for gets SIGINT, and so does what it forked. fio's
    --time_based goes round --size until --runtime is up."""
    t0 = {}

    def started(m):
        t0["run"] = time.time()
        return "\x03"

    script = [
        # The README tour's line without a runtime: 250 GiB of nullb0, minutes.
        (r"pagoda> ", "fio --filename=nullb0 --rw=randread --bs=4k --iodepth=32 "
                      "--ioengine=async\r"),
        (r"Starting 1 process", "\x03"),
        (r"pagoda> ", "fio --filename=ram0 --rw=randread --bs=4k --size=4M --time_based "
                      "--runtime=2 --ioengine=psync\r"),
        # A loop in the vDSO: no system call to notice a signal at.
        (r"pagoda> ", "run /bin/libctest-musl clock 100000000000\r"),
        (r"libctest-musl clock \d+\r?\n", started),
        (r"killed by signal", lambda m: t0.setdefault("end", time.time()) and ""),
        # A forked tree: the children get SIGINT as the parent does.
        (r"pagoda> ", "run /bin/forktest spin\r"),
        (r"forktest: \d+ children spinning", "\x03"),
        (r"pagoda> ", "ps\r"),
        (r"pagoda> ", "poweroff\r"),
    ]
    b = ctx.boot(make_cmd(ctx), name, timeout, script)
    t = b.clean_text()
    runs = re.findall(r"run=(\d+)-\d+msec", t)
    ran_ms = int(runs[1]) if len(runs) > 1 else 0
    after_tree = t.split("forktest spin")[-1]
    checks = [
        ("fio", "fio: terminating on signal 2" in t and
         re.search(r"terminating on signal 2[\s\S]*Run status group 0", t) is not None),
        ("fio-time-based", 1900 <= ran_ms <= 4000),
        ("run", re.search(r"run: /bin/libctest-musl: killed by signal 2", t) is not None and
         t0.get("end", 1e9) - t0.get("run", 0) < 10),
        ("run-tree", "run: /bin/forktest: killed by signal 2" in after_tree and
         len(re.findall(r"\[\d+\] forktest: killed by signal 2", after_tree)) == 3 and
         re.search(r"^ +\d+ forktest ", after_tree.split("PID NAME")[-1], re.M) is None),
        ("poweroff", "Power down." in t and not b.timed_out),
    ]
    for what, ok in checks:
        ctx.tally.check("%s:%s" % (name, what), ok, "(log %s)" % rel(b.log))


@unit("system-ctrl-c", "system", needs=["x86_64"])
def ctrl_c_x86(ctx):
    """x86-64: Ctrl-C stops fio (reporting what it did) and a foreground program
    with its children; fio --time_based keeps going until --runtime"""
    ctrl_c(ctx, "system-ctrl-c", lambda ctx: ctx.x86_cmd(cmdline="panic=-1"), 120)
