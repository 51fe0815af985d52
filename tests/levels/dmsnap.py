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
