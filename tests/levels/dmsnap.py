"""Level 3, dm-snapshot across boots (block/dm/, docs/dm-snapshot.md).

Two virtio disks: vda the origin, vdb a persistent COW device (Linux's
format). The kernel's `dmtorture` writes through snapshot-origin and the
snapshot and prints each write once it completed; then QEMU ends and a new
QEMU boots on the same images, reloads the tables as a Linux user would
(`dmsetup create`), and `dmtorture verify` checks every write that had
completed, and that the snapshot still reads the origin as it was.

    system-dm-persist-x86_64, -arm64-virt   a clean power-off in between
    system-dm-crash   QEMU killed at a random write (seeds printed); a
                      bounded slice here (DM_CRASH_RUNS, 2 by default):
                      `make dm-crash CRASH_RUNS=50` runs many
"""
import os
import random
import re
import subprocess
import time

from .common import rel, unit
from .disks import scratch

SECTORS = 16384  # 8 MiB disks
TABLES = ("dmsetup create base --table 0 %d snapshot-origin vda;"
          "dmsetup create snap --table 0 %d snapshot vda vdb P 8" % (SECTORS, SECTORS))


def line(cmds):
    return 'shell.run="%s" panic=-1 lockdep=1' % cmds


def first_boot(n):
    return line("dmtorture init vda %d;%s;dmtorture run base snap %d;dmsetup status snap;poweroff"
                % (SECTORS, TABLES, n))


def second_boot(n):
    return line("%s;dmsetup status snap;dmtorture verify base snap %d;poweroff" % (TABLES, n))


def status_of(text):
    m = re.search(r"0 %d snapshot (\S+ \S+|Invalid)" % SECTORS, text)
    return m.group(1) if m else None


def persist(name, make_cmd, needs):
    @unit(name, "system", needs=[needs])
    def run(ctx):
        disks = [scratch(name + "-vda.img", 8), scratch(name + "-vdb.img", 8)]
        n = 60
        b1 = ctx.boot(make_cmd(ctx, first_boot(n), disks), name + "-1", 240)
        ran = "dmtorture: ran %d writes" % n in b1.clean_text()
        ctx.tally.check("%s:written" % name, ran, "the writes did not run (log %s)" % rel(b1.log))
        if not ran:
            return
        b2 = ctx.boot(make_cmd(ctx, second_boot(n), disks), name + "-2", 240)
        t = b2.clean_text()
        ctx.tally.check("%s:read-back" % name, "dmtorture: verified %d writes, 0 bad" % n in t,
                        "writes missing after the restart (log %s)" % rel(b2.log))
        s1, s2 = status_of(b1.clean_text()), status_of(t)
        ctx.tally.check("%s:status" % name, s1 and s1 == s2 and s1 != "Invalid",
                        "status %r before the restart, %r after (logs %s, %s)"
                        % (s1, s2, rel(b1.log), rel(b2.log)))
    run.__doc__ = ("dm-snapshot on %s: write through origin and snapshot, power off, "
                   "boot again, reload the tables, read everything back" % needs)


persist("system-dm-persist-x86_64", lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d), "x86_64")
persist("system-dm-persist-arm64-virt",
        lambda ctx, l, d: ctx.arm64_cmd("virt", l, disks=d), "arm64-virt")


@unit("system-dm-crash", "system", needs=["x86_64"])
def crash(ctx):
    """dm-snapshot crash consistency: QEMU killed during writes at a random
    point, every completed write found after the restart (DM_CRASH_RUNS)"""
    runs = int(os.environ.get("DM_CRASH_RUNS", "2"))
    base_seed = int(os.environ.get("DM_CRASH_SEED", str(int(time.time()))))
    for i in range(runs):
        seed = base_seed + i
        rng = random.Random(seed)
        kill_at = rng.randrange(1, 400)
        name = "system-dm-crash-%d" % i
        print("  %s: seed %d, QEMU killed once write %d is done" % (name, seed, kill_at))
        disks = [scratch("dm-crash-vda.img", 8), scratch("dm-crash-vdb.img", 8)]
        b1 = ctx.boot(ctx.x86_cmd(cmdline=first_boot(1000), disks=disks), name + "-1", 240,
                      [(r"dmtorture: write %d done" % kill_at, "")], stop_after_script=True)
        done = [int(x) for x in re.findall(r"dmtorture: write (\d+) done", b1.clean_text())]
        if not ctx.tally.check("%s:killed" % name, done and max(done) >= kill_at,
                               "seed %d: the writes never reached %d (log %s)"
                               % (seed, kill_at, rel(b1.log))):
            continue
        n = max(done) + 1
        b2 = ctx.boot(ctx.x86_cmd(cmdline=second_boot(n), disks=disks), name + "-2", 240)
        t = b2.clean_text()
        st = status_of(t)
        ctx.tally.check("%s:store-loads" % name, st and st != "Invalid",
                        "seed %d: the COW device did not load after the crash: %r (log %s)"
                        % (seed, st, rel(b2.log)))
        ctx.tally.check("%s:completed-writes" % name,
                        "dmtorture: verified %d writes, 0 bad" % n in t,
                        "seed %d: a write acknowledged before the crash is missing (log %s)"
                        % (seed, rel(b2.log)))


# What the shell's dmsetup takes from Linux's syntax (shell/dmsetup.c).
DMSETUP_OPTIONS = ["--table", "-n|--notable", "-f|--force", "-r|--readonly", "--noudevsync",
                   "--noudevrules", "--verifyudev", "--addnodeoncreate", "--addnodeonresume",
                   "-v|--verbose", "-y|--yes", "--noflush", "-u|--uuid", "--readahead",
                   "--udevcookie"]
DMSETUP_VERBS = ["create", "load", "reload", "suspend", "resume", "remove", "table", "status",
                 "info", "message", "ls", "targets", "version"]


@unit("system-dmsetup-linux", "system", needs=["x86_64"])
def dmsetup_linux(ctx):
    """x86-64: dmsetup as a Linux user types it: options before the name,
    --table=, /dev paths and LVM's major:minor in tables, --notable then
    load and resume; tables, ls and info print devices as major:minor, as
    lsblk numbers them; every option and verb is one of the host's own
    dmsetup (its usage), and an unknown one is refused"""
    vda, vdb = scratch("dmsetup-a.img", 8), scratch("dmsetup-b.img", 8)
    usage = subprocess.run(["dmsetup", "help"], capture_output=True, text=True).stdout + \
        subprocess.run(["dmsetup", "help"], capture_output=True, text=True).stderr
    for opt in DMSETUP_OPTIONS:
        ctx.tally.check("system:dmsetup-linux.option-is-dmsetup's.%s" % opt.split("|")[-1],
                        all(o in usage for o in opt.split("|")),
                        "the host's dmsetup has no %s" % opt)
    for verb in DMSETUP_VERBS:
        ctx.tally.check("system:dmsetup-linux.verb-is-dmsetup's.%s" % verb,
                        re.search(r"^\s+%s\b" % verb, usage, re.M) is not None,
                        "the host's dmsetup has no verb %s" % verb)
    seen = {}

    def numbers(m):
        seen["vda"], seen["vdb"] = m.group(1), m.group(2)
        return "dmsetup create --noudevsync --table '0 8192 snapshot-origin /dev/vda' base\r"

    script = [
        (r"pagoda> ", "lsblk\r"),
        (r"\nvda +(\d+:\d+) [^\n]*\nvdb +(\d+:\d+) ", numbers),
        (r"pagoda> ", lambda m: "dmsetup create snap --table '0 8192 snapshot %s %s P 8'\r"
         % (seen["vda"], seen["vdb"])),
        (r"pagoda> ", "dmsetup create empty -n\r"),
        (r"pagoda> ", "dmsetup info empty\r"),
        (r"pagoda> ", "dmsetup load empty --table=0 8 linear vda 0\r"),
        (r"pagoda> ", "dmsetup resume empty\r"),
        (r"pagoda> ", "dmsetup table snap\r"),
        (r"pagoda> ", "dmsetup table empty\r"),
        (r"pagoda> ", "dmsetup ls\r"),
        (r"pagoda> ", "dmsetup info base\r"),
        (r"pagoda> ", "dmsetup targets\r"),
        (r"pagoda> ", "lsblk\r"),
        (r"pagoda> ", "dmsetup create ro --readonly --table '0 8 linear vda 0'\r"),
        (r"pagoda> ", "dmsetup create odd --bogus --table '0 8 linear vda 0'\r"),
        (r"pagoda> ", "dmsetup remove -f snap\r"),
        (r"pagoda> ", "dmsetup ls\r"),
        (r"pagoda> ", "poweroff\r"),
    ]
    b = ctx.boot(ctx.x86_cmd(cmdline="panic=-1", disks=[vda, vdb]), "system-dmsetup-linux",
                 120, script)
    t = b.clean_text().replace("\r", "")
    a, c = seen.get("vda", "?"), seen.get("vdb", "?")
    base = re.search(r"\nbase\t\((\d+:\d+)\)\n", t)
    checks = [
        ("table-as-numbers", "\n0 8192 snapshot %s %s P 8\n" % (a, c) in t),
        ("notable", re.search(r"Name: +empty\n(.*\n)*?Tables present: +None\n", t) is not None),
        ("table-eq-form", "\n0 8 linear %s 0\n" % a in t),
        ("ls", base is not None and "\nsnap\t(" in t and "\nempty\t(" in t),
        ("info", base is not None and re.search(
            r"Name: +base\nState: +ACTIVE\nTables present: +LIVE\nOpen count: +\d+\n"
            r"Event number: +0\nMajor, minor: +%s\nNumber of targets: +1\n"
            % base.group(1).replace(":", ", "), t) is not None),
        ("lsblk-agrees", base is not None and
         re.search(r"\ndm-\d+ +%s " % re.escape(base.group(1)), t) is not None),
        ("targets", re.search(r"\nsnapshot-origin +v\d+\.\d+\.\d+\n", t) is not None and
         re.search(r"\nlinear +v\d+\.\d+\.\d+\n", t) is not None),
        ("readonly-refused", "read-only mapped devices are not supported" in t),
        ("unknown-refused", "dmsetup: unrecognized option '--bogus'" in t),
        ("removed", t.rstrip().count("\nsnap\t(") == 1),
        ("poweroff", "Power down." in t and not b.timed_out),
    ]
    for what, ok in checks:
        ctx.tally.check("system:dmsetup-linux.%s" % what, ok, "(log %s)" % rel(b.log))


# The async-write hang (issue 36): fio at queue depth through the snapshot
# and the origin, every chunk size, both locking schemes. Each COW store is a
# fresh slice of vdb (dm-linear), so one boot covers every case.
ASYNC_QDS = (4, 8, 16, 32)
ASYNC_CHUNKS = (8, 16, 32, 64)
ASYNC_SLICE = 8192  # sectors of vdb per COW store (4 MiB)
ASYNC_SECTORS = 131072


def fio(dev, qd, region=0):
    """256 KiB of random 4 KiB writes in region (256 KiB units): a fresh
    region for each run, so each one copies chunks rather than rewriting."""
    return ("fio --filename=%s --rw=randwrite --bs=4k --size=256k --offset=%dk --iodepth=%d "
            "--ioengine=async" % (dev, region * 256, qd))


def async_cases():
    """(label, command) pairs; every fio line must end with err= 0."""
    steps = []
    for k, chunk in enumerate(ASYNC_CHUNKS):
        cow, tag = "cow%d" % k, "chunk%d" % chunk
        steps += [
            (None, "dmsetup create %s --table '0 %d linear vdb %d'" % (cow, ASYNC_SLICE,
                                                                     k * ASYNC_SLICE)),
            (None, "dmsetup create base --table '0 %d snapshot-origin /dev/vda'" % ASYNC_SECTORS),
            (None, "dmsetup create snap --table '0 %d snapshot vda %s P %d'"
             % (ASYNC_SECTORS, cow, chunk)),
        ]
        steps += [("%s.snapshot.qd%d" % (tag, qd), fio("/dev/mapper/snap", qd, i))
                  for i, qd in enumerate(ASYNC_QDS)]
        steps += [("%s.origin.qd%d" % (tag, qd), fio("base", qd, len(ASYNC_QDS) + i))
                  for i, qd in enumerate((8, 32))]
        steps += [("%s.status" % tag, "dmsetup status snap"),
                  (None, "dmsetup remove snap"), (None, "dmsetup remove base"),
                  (None, "dmsetup remove %s" % cow)]
    # The newcomer's exact table: the snapshot's origin is the origin target.
    k = len(ASYNC_CHUNKS)
    steps += [
        (None, "dmsetup create cow%d --table '0 %d linear vdb %d'" % (k, ASYNC_SLICE,
                                                                    k * ASYNC_SLICE)),
        (None, "dmsetup create base --table '0 %d snapshot-origin /dev/vda'" % ASYNC_SECTORS),
        (None, "dmsetup create snap --table '0 %d snapshot base cow%d P 8'" % (ASYNC_SECTORS, k)),
        ("issue36.snapshot.qd8", fio("dm-1", 8)),
        ("issue36.status", "dmsetup status snap"),
    ]
    return steps


def async_writes(name, locking, make_cmd, needs, timeout):
    @unit(name, "system", needs=[needs])
    def run(ctx):
        disks = [scratch(name + "-vda.img", 64), scratch(name + "-vdb.img", 32)]
        steps = async_cases()
        script = [(r"pagoda> ", cmd + "\r") for _, cmd in steps] + [(r"pagoda> ", "poweroff\r")]
        b = ctx.boot(make_cmd(ctx, "dm_snapshot.locking=%s panic=-1" % locking, disks),
                     name, timeout, script)
        t = b.clean_text()
        # Cut the log at each prompt: the part after a command is its output.
        outputs = t.split("pagoda> ")[1:]
        for i, (label, cmd) in enumerate(steps):
            if not label:
                continue
            out = outputs[i] if i < len(outputs) else ""
            if label.endswith("status"):
                ok = re.search(r"snapshot \d+/\d+ \d+", out) is not None
                why = "the snapshot is not valid after the writes"
            else:
                ok = "err= 0" in out and "Run status group" in out
                why = "did not finish" if "Starting 1 process" in out and "err=" not in out \
                    else "failed"
            ctx.tally.check("%s:%s" % (name, label), ok,
                            "`%s` %s (log %s)" % (cmd, why, rel(b.log)))
        ctx.tally.check("%s:no-hang" % name, not b.timed_out,
                        "QEMU was stopped after %d s: a write never completed (log %s)"
                        % (timeout, rel(b.log)))
    run.__doc__ = ("dm-snapshot, %s locking on %s: async fio at QD 4-32 through the snapshot "
                   "and the origin, chunk sizes 8-64, the newcomer's exact hang; a hang "
                   "fails by timeout" % (locking, needs))


async_writes("system-dm-async-fine-x86_64", "fine",
             lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d), "x86_64", 120)
async_writes("system-dm-async-mutex-x86_64", "mutex",
             lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d), "x86_64", 120)
async_writes("system-dm-async-fine-arm64-virt", "fine",
             lambda ctx, l, d: ctx.arm64_cmd("virt", l, disks=d), "arm64-virt", 240)
