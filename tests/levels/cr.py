"""Level 3, checkpoint/restore of processes (kernel/cr/, docs/checkpoint-restore.md).

The programs are user/crloop (one process reading the clock through the
vDSO pointer it looked up at start; with `novdso` none at all) and
user/crtree (eleven processes, pipes between them, one a zombie). Each
prints where it is ("tick N", "round N") and at the end "done, E
errors", E counting clock steps backwards, lost records, a changed
buffer, pipe or file offset, a lost signal action or zombie: so a
restore that loses anything shows in what the program itself prints.

    system-cr-x86_64, -arm64-virt   one boot: C/R of both, both vDSO modes,
        a process without a vDSO, maps before and after, refused images
    system-cr-persist-x86_64, -arm64-virt   checkpoint, power off, boot
        again on the same disk, restore
    system-cr-vdso-alt-x86_64, -arm64-virt  an image from one kernel
        restored on a kernel with another vDSO layout (jumps at the old
        entry points), checkpointed there, restored on the first again
"""
import re

from .common import rel, unit
from .disks import scratch

from pagoda import paths  # noqa: E402  (common put tools/ on sys.path)

NL = r"\r?\n"


class Session:
    """A typed shell session that remembers pids and what was printed between marks."""

    def __init__(self):
        self.pids, self.steps = {}, []

    def grab(self, key, then=""):
        def f(m):
            self.pids[key] = m.group(1)
            return then
        return f

    def typed(self, fmt, *keys):
        return lambda m: fmt % tuple(self.pids[k] for k in keys) + "\n"


MAPS_LINE = re.compile(r"^[0-9a-f]{8,}-[0-9a-f]{8,} .*$", re.M)


# What the test programs print as they run.
PROGRAM_LINE = re.compile(r"(crtree: round \d+|crloop: tick \d+)\n")


def maps_in(text):
    """The `maps` lines in a stretch of output. Programs print while the
    shell does, so a typed command's echo may be split by their lines, and
    so may a line `maps` prints (seen once: "...r-xp 00crtree: round 8");
    their lines are taken out first, which joins the halves again."""
    return MAPS_LINE.findall(PROGRAM_LINE.sub("", text))


def stretches(text, stops):
    """The text cut at the first match of each regex in stops, in order."""
    out, pos = [], 0
    for rx in stops:
        m = re.compile(rx).search(text, pos)
        if not m:
            out.append("")
            continue
        out.append(text[pos:m.start()])
        pos = m.end()
    out.append(text[pos:])
    return out


def vdso_lines(lines):
    return [ln for ln in (lines or []) if ln.endswith("[vdso]") or ln.endswith("[vvar]")]


def tree_round(s, tag, vdso):
    """Steps 3 and 4 of one_boot: crtree's 11 processes checkpointed at
    round 3 and restored with --vdso=VDSO; they must finish."""
    P = r"pagoda> "
    return [
        (P, "run /bin/crtree 25 &\n"),
        (r"pid (\d+), 11 processes", s.grab(tag)),
        (r"crtree: round 3" + NL, s.typed("maps %s", tag)),
        (P, s.typed("checkpoint %s --tree vda", tag)),
        (r"checkpoint: .*" + NL, "restore --vdso=%s vda\n" % vdso),
        (r"restore: .*" + NL, s.typed("maps %s", tag)),
        (r"crtree: done.*" + NL, "\n"),
    ]


def one_boot(name, make_cmd, needs):
    @unit(name, "system", needs=[needs])
    def run(ctx):
        disk = scratch(name + ".img", 16)
        s = Session()
        P = r"pagoda> "
        script = [
            # 1. one busy process: kill after dump, restore (kdat), finish
            (P, "run /bin/crloop 30 &\n"),
            (r"pid (\d+), vDSO clock", s.grab("loop")),
            (r"crloop: tick 3" + NL, s.typed("maps %s", "loop")),
            (P, s.typed("checkpoint %s vda", "loop")),
            (r"checkpoint: .*" + NL, "restore --vdso=kdat vda\n"),
            (r"restore: .*" + NL, s.typed("maps %s", "loop")),
            (r"crloop: done.*" + NL, "\n"),
            # 2. without a vDSO: it gets none back
            (P, "run /bin/crloop 20 novdso &\n"),
            (r"pid (\d+), no vDSO", s.grab("novdso")),
            (r"crloop: tick 2" + NL, s.typed("checkpoint %s vda", "novdso")),
            (r"checkpoint: .*" + NL, "restore --vdso=kdat vda\n"),
            (r"restore: .*" + NL, s.typed("maps %s", "novdso")),
            (r"crloop: done.*" + NL, "\n"),
        ] + tree_round(s, "tree1", "kdat") + tree_round(s, "tree2", "legacy") + [
            # 5. refusals: pids in use, a corrupt body, no image; nothing lost
            # (quiet: its ticks would split the refusals' lines)
            (P, "run /bin/crloop 25 quiet &\n"),
            (r"pid (\d+), vDSO clock", s.grab("busy", "\n")),
            (P, s.typed("checkpoint %s --leave-running vda", "busy")),
            (r"checkpoint: .*" + NL, "restore vda\n"),
            (r"restore: .*" + NL, "blk write vda 3 1 7\n"),
            (P, "restore vda\n"),
            (r"restore: .*" + NL, "blk write vda 0 1 7\n"),
            (P, "restore vda\n"),
            (r"restore: .*" + NL, "ps\n"),
            (r"crloop: done.*" + NL, "poweroff\n"),
        ]
        b = ctx.boot(make_cmd(ctx, "panic=-1", [disk]), name, 300, script)
        t = b.clean_text()
        log = rel(b.log)
        done = re.findall(r"(crloop|crtree): done, (\d+) errors", t)
        ctx.tally.check(name + ":all-finished", len(done) == 5 and all(e == "0" for _, e in done),
                        "each program must finish with 0 errors: %r (log %s)" % (done, log))
        restores = re.findall(r"restore: vda: (.*)", t)
        ok = [r for r in restores if r.startswith("running again")]
        ctx.tally.check(name + ":restored", len(ok) == 4,
                        "four restores should run: %r (log %s)" % (restores, log))
        ctx.tally.check(name + ":kdat-in-place",
                        any("mapped in place (kdat)" in r for r in ok),
                        "kdat restore must map the vDSO in place (log %s)" % log)
        ctx.tally.check(name + ":legacy-moved", any("moved into place (legacy)" in r for r in ok),
                        "legacy restore must park and move the vDSO (log %s)" % log)
        # Each program's stretch of output: before its checkpoint, after its restore.
        cuts = []
        for i in range(4):
            cuts += [r"checkpoint: ", r"restore: vda: running again", r"(crloop|crtree): done"]
        parts = stretches(t, cuts)
        for i, key in ((0, "loop"), (2, "tree1"), (3, "tree2")):
            before, after = maps_in(parts[3 * i]), maps_in(parts[3 * i + 2])
            ctx.tally.check("%s:maps-%s" % (name, key),
                            before and before == after and len(vdso_lines(after)) == 2,
                            "the address space after restore must be the one dumped, vDSO "
                            "included: %r, then %r (log %s)" % (before, after, log))
        nv_maps = maps_in(parts[3 * 1 + 2])
        ctx.tally.check(name + ":no-vdso-stays-none",
                        len(nv_maps) > 2 and not vdso_lines(nv_maps) and "vDSO: none" in t,
                        "a process without a vDSO must get none: %r (log %s)" % (nv_maps, log))
        refusals = [r for r in restores if "nothing restored" in r]
        want = ("in use", "checksum mismatch", "no checkpoint image here")
        ctx.tally.check(name + ":refused", len(refusals) == 3 and
                        all(w in r for w, r in zip(want, refusals)),
                        "pids in use, a corrupt body and no image must each be refused: %r "
                        "(log %s)" % (refusals, log))
    run.__doc__ = ("checkpoint/restore on %s in one boot: a busy loop and an 11-process "
                   "tree, both vDSO modes, no vDSO, refused images" % needs)


one_boot("system-cr-x86_64", lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d), "x86_64")
one_boot("system-cr-arm64-virt", lambda ctx, l, d: ctx.arm64_cmd("virt", l, disks=d),
         "arm64-virt")


def rounds(text):
    return [int(x) for x in re.findall(r"crtree: round (\d+)", text)]


def checkpoint_boot(name, s, cmd, ctx, restore=None, n=40):
    """Boot; restore an image (or start crtree); at the next round checkpoint the tree; power off."""
    P = r"pagoda> "
    if restore:
        script = [(P, restore + "\n"),
                  (r"restore: .*" + NL, ""),
                  (r"crtree: round \d+" + NL, s.typed("maps %s", "tree")),
                  (r"crtree: round \d+" + NL, s.typed("checkpoint %s --tree vda", "tree")),
                  (r"checkpoint: .*" + NL, "poweroff\n")]
    else:
        script = [(P, "run /bin/crtree %d &\n" % n),
                  (r"pid (\d+), 11 processes", s.grab("tree")),
                  (r"crtree: round 3" + NL, s.typed("checkpoint %s --tree vda", "tree")),
                  (r"checkpoint: .*" + NL, "poweroff\n")]
    return ctx.boot(cmd, name, 300, script)


def finish_boot(name, s, cmd, ctx, restore):
    P = r"pagoda> "
    script = [(P, restore + "\n"),
              (r"restore: .*" + NL, ""),
              (r"crtree: round \d+" + NL, s.typed("maps %s", "tree")),
              (r"crtree: done.*" + NL, "poweroff\n")]
    return ctx.boot(cmd, name, 300, script)


def continues(t1, t2):
    """The second boot's first round is the one after the first boot's last.
    That first line comes before anything is typed, so it is whole; the
    first boot's last may have been split by a typed command's echo, so one
    more is allowed. Rounds lost in between the program counts itself."""
    r1, r2 = rounds(t1), rounds(t2)
    return bool(r1 and r2) and max(r1) + 1 <= r2[0] <= max(r1) + 2


def persist(name, make_cmd, needs):
    @unit(name, "system", needs=[needs])
    def run(ctx):
        disk = scratch(name + ".img", 16)
        s = Session()
        b1 = checkpoint_boot(name + "-1", s, make_cmd(ctx, "panic=-1", [disk]), ctx)
        t1 = b1.clean_text()
        if not ctx.tally.check(name + ":dumped", "checkpoint: 11 processes" in t1,
                               "the tree was not checkpointed (log %s)" % rel(b1.log)):
            return
        b2 = finish_boot(name + "-2", s, make_cmd(ctx, "panic=-1", [disk]), ctx, "restore vda")
        t2 = b2.clean_text()
        ctx.tally.check(name + ":finished", "crtree: done, 0 errors" in t2,
                        "the restored tree must finish with 0 errors (log %s)" % rel(b2.log))
        ctx.tally.check(name + ":continues", continues(t1, t2),
                        "rounds must continue where they stopped: %r then %r (logs %s, %s)"
                        % (rounds(t1)[-3:], rounds(t2)[:3], rel(b1.log), rel(b2.log)))
    run.__doc__ = ("checkpoint an 11-process tree on %s, power off, boot again on the "
                   "same disk, restore: it finishes" % needs)


persist("system-cr-persist-x86_64", lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d), "x86_64")
persist("system-cr-persist-arm64-virt", lambda ctx, l, d: ctx.arm64_cmd("virt", l, disks=d),
        "arm64-virt")


def vdso_alt(name, std_cmd, alt_cmd, needs):
    @unit(name, "system", needs=list(needs))
    def run(ctx):
        disk = scratch(name + ".img", 16)
        s = Session()
        b1 = checkpoint_boot(name + "-1", s, std_cmd(ctx, "panic=-1", [disk]), ctx, n=60)
        t1 = b1.clean_text()
        if not ctx.tally.check(name + ":dumped", "checkpoint: 11 processes" in t1,
                               "the tree was not checkpointed (log %s)" % rel(b1.log)):
            return
        # The other vDSO, legacy mode: the jumps are written, the tree goes on, is dumped again.
        b2 = checkpoint_boot(name + "-2", s, alt_cmd(ctx, "panic=-1", [disk]), ctx,
                             restore="restore --vdso=legacy vda")
        t2 = b2.clean_text()
        b3 = finish_boot(name + "-3", s, std_cmd(ctx, "panic=-1", [disk]), ctx,
                         "restore --vdso=kdat vda")
        t3 = b3.clean_text()
        logs = "logs %s, %s, %s" % (rel(b1.log), rel(b2.log), rel(b3.log))
        for i, t in ((2, t2), (3, t3)):
            ctx.tally.check("%s:trampolines-%d" % (name, i),
                            "vDSO: another kernel's" in t,
                            "boot %d must restore another kernel's vDSO with jumps; it said %r (%s)"
                            % (i, re.findall(r"restore: .*|cr: .*", t)[:3], logs))
            after = stretches(t, [r"restore: vda: running again", r"checkpoint: |crtree: done"])[1]
            lines = vdso_lines(maps_in(after))
            ctx.tally.check("%s:one-live-vvar-%d" % (name, i),
                            sorted(x[-6:] for x in lines) == ["[vdso]", "[vvar]"] and
                            lines[0].split("-")[1].split()[0] == lines[1].split("-")[0],
                            "after restore %d: one [vvar] right below one [vdso]: %r (%s)"
                            % (i, lines, logs))
        ctx.tally.check(name + ":finished", "crtree: done, 0 errors" in t3,
                        "the tree must finish with 0 errors on the first kernel again (%s)" % logs)
        ctx.tally.check(name + ":continues", continues(t1, t2) and continues(t2, t3),
                        "rounds must continue across all three boots (%s)" % logs)
    run.__doc__ = ("a tree dumped on %s, restored on a kernel with another vDSO layout "
                   "(jumps), dumped there, restored on the first: it finishes" % needs[0])


vdso_alt("system-cr-vdso-alt-x86_64",
         lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d),
         lambda ctx, l, d: ctx.x86_cmd(cmdline=l, disks=d, kernel=paths.X86_KERNEL_VDSO_ALT),
         ("x86_64", "x86_64-vdso-alt"))
vdso_alt("system-cr-vdso-alt-arm64-virt",
         lambda ctx, l, d: ctx.arm64_cmd("virt", l, disks=d),
         lambda ctx, l, d: ctx.arm64_cmd("virt", l, disks=d, kernel=paths.ARM64_VIRT_VDSO_ALT),
         ("arm64-virt", "arm64-virt-vdso-alt"))
