"""The Linux peer: Debian's own kernel booted in the same QEMU as Pagoda.

A benchmark means little without something to hold it against. This boots
Debian's kernel (linux-image-amd64, linux-image-arm64:arm64) with the very
QEMU command line Pagoda's targets use (pagoda.qemu.build_cmd: q35 TCG on
x86-64, virt on arm64, 2 CPUs, 1 GiB) and an initramfs of our making: a
tiny static /init (user/linuxpeer-init.c) that runs a script of commands,
the programs under test, and the modules they need. What the programs
print comes back on the serial console.

The kernel package is only downloaded (apt-get download, from whatever
the machine's apt sources say) and unpacked under build/linux-peer/ARCH/,
once: its vmlinuz, and of its modules only those asked for and what they
depend on, by the "depends=" of each module's .modinfo.

The pure parts (the module order, the cpio archive, ldd's and mmbench's
output) are functions of their inputs, tested on the host by the
`linuxpeer-pure-parts` unit (tests/levels/tooling.py). Remove
build/linux-peer/ to fetch a newer kernel. Standard library only.
"""
import lzma
import os
import re
import shutil
import stat
import subprocess
import tempfile

from . import paths, qemu
from .boot import Boot

PEER = os.path.join(paths.BUILD, "linux-peer")

# Per architecture: the kernel metapackage, the compiler for /init, the
# serial console, and the virtio transport module.
ARCHES = {
    "x86_64": {"meta": "linux-image-amd64", "cc": "gcc",
               "console": "ttyS0", "transport": "virtio_pci"},
    "arm64": {"meta": "linux-image-arm64:arm64",
              "cc": "aarch64-linux-gnu-gcc", "console": "ttyAMA0",
              "transport": "virtio_mmio"},
}


# The modules the peer's jobs load; fetch() keeps them and their dependencies.
def modules_for(arch):
    return ["virtio_blk", ARCHES[arch]["transport"], "dm_snapshot"]


class PeerError(Exception):
    """Something the harness cannot do, with the reason a person can act on."""


def say(msg):
    print("linuxpeer: %s" % msg, flush=True)


# ---- pure parts -----------------------------------------------------------

def modinfo(data):
    """A module's .modinfo fields ("name", "depends", ...) from its bytes.

    The section is NUL-separated key=value strings; reading them from the
    whole file is enough for the two keys used here."""
    info = {}
    for key in (b"name", b"depends", b"vermagic"):
        m = re.search(rb"(?:^|\0)" + key + rb"=([^\0]*)\0", data)
        if m:
            info[key.decode()] = m.group(1).decode("ascii", "replace")
    return info


def mod_name(name):
    """A module's name as the kernel compares it: dashes are underscores."""
    return name.replace("-", "_")


def load_order(wanted, deps):
    """The modules in wanted and everything they depend on, each after its
    dependencies. deps maps a name to its list of dependencies. Raises
    PeerError for a name deps does not know, or a cycle."""
    order, state = [], {}

    def visit(name, chain):
        name = mod_name(name)
        if state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            raise PeerError("module dependency cycle: %s" % " -> ".join(chain + [name]))
        if name not in deps:
            raise PeerError("no module %s in the kernel package%s" % (
                name, " (needed by %s)" % chain[-1] if chain else ""))
        state[name] = "visiting"
        for d in deps[name]:
            visit(d, chain + [name])
        state[name] = "done"
        order.append(name)

    for w in wanted:
        visit(w, [])
    return order


def cpio_entry(ino, mode, name, data=b"", rdev=(0, 0)):
    """One "newc" record: Linux's initramfs format (the 070701 magic, 13
    eight-digit hex fields, the name and the data each padded to 4)."""
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name) + 1, 0]
    out = b"070701" + b"".join(b"%08x" % f for f in fields) + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4)
    return out + data + b"\0" * (-len(data) % 4)


def cpio(files, nodes=()):
    """An archive from files ({guest path: bytes}, all mode 0755: the
    programs must be executable, and nothing here is private) and
    character devices ((path, major, minor)). Directories are made on the
    way; names sorted, mtimes 0: the same inputs give the same bytes."""
    items = {}
    for path, data in files.items():
        items[path.strip("/")] = (stat.S_IFREG | 0o755, data, (0, 0))
    for path, major, minor in nodes:
        items[path.strip("/")] = (stat.S_IFCHR | 0o600, b"", (major, minor))
    dirs = set()
    for name in items:
        parts = name.split("/")
        dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))
    blob, ino = b"", 1
    for name in sorted(dirs | set(items)):
        mode, data, rdev = items.get(name, (stat.S_IFDIR | 0o755, b"", (0, 0)))
        blob += cpio_entry(ino, mode, name, data, rdev)
        ino += 1
    return blob + cpio_entry(ino, 0, "TRAILER!!!")


def read_cpio(blob):
    """The archive's records as (name, mode, data, (rdev major, minor)): the
    inverse of cpio(), for the tests and for a person checking an archive."""
    out, pos = [], 0
    while True:
        if blob[pos:pos + 6] != b"070701":
            raise PeerError("not a newc cpio record at byte %d" % pos)
        f = [int(blob[pos + 6 + 8 * i:pos + 14 + 8 * i], 16) for i in range(13)]
        pos += 110
        name = blob[pos:pos + f[11] - 1].decode()
        pos += f[11]
        pos += -pos % 4
        data = blob[pos:pos + f[6]]
        pos += f[6]
        pos += -pos % 4
        if name == "TRAILER!!!":
            return out
        out.append((name, f[1], data, (f[9], f[10])))


def parse_ldd(text):
    """The files a dynamic program needs, from ldd's output: each library's
    resolved path and the loader's own ("linux-vdso.so.1" is the kernel's)."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"\S+ => (/\S+) \(0x[0-9a-f]+\)$", line) or \
            re.match(r"(/\S+) \(0x[0-9a-f]+\)$", line)
        if m:
            found.append(m.group(1))
        elif "not found" in line:
            raise PeerError("ldd: %s" % line)
    return found


MM_LINE = re.compile(r"^mm: (\w+) ([\d.]+) (\S+)\s*$")


def parse_mm(text):
    """mmbench's runs from a console log: a list with one {case: (value,
    unit)} per run ("mm: done" ends a run), and the lines that said a case
    failed."""
    runs, cur, failures = [], {}, []
    for line in text.replace("\r", "").splitlines():
        line = line.strip()
        if line == "mm: done":
            runs.append(cur)
            cur = {}
            continue
        m = MM_LINE.match(line)
        if m:
            cur[m.group(1)] = (float(m.group(2)), m.group(3))
        elif line.startswith("mm: ") and " failed" in line:
            failures.append(line)
    return runs, failures


def median_spread(values):
    """The median and the spread (max/min) of a list of positive figures."""
    xs = sorted(values)
    mid = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
    return mid, (xs[-1] / xs[0] if xs[0] > 0 else float("inf"))


# Cases in mmbench's order; for each, whether bigger is better.
MM_CASES = [("fork_exit_wait", False), ("fork_exec_wait", False), ("page_fault", False),
            ("page_fault_4k", False), ("mmap_munmap", False), ("pipe_pingpong", False),
            ("pipe_bandwidth", True), ("pipe_stream", False), ("getpid", False)]


def mm_rows(pagoda_runs, linux_runs):
    """Per case: (case, unit, pagoda (median, spread) or None, linux ... or
    None, Pagoda/Linux ratio of the medians or None)."""
    rows = []
    for case, _bigger in MM_CASES:
        got = []
        unit = None
        for runs in (pagoda_runs, linux_runs):
            vals = [r[case][0] for r in runs if case in r]
            unit = unit or next((r[case][1] for r in runs if case in r), None)
            got.append(median_spread(vals) if vals else None)
        ratio = got[0][0] / got[1][0] if got[0] and got[1] and got[1][0] else None
        rows.append((case, unit or "", got[0], got[1], ratio))
    return rows


def mm_table(title, pagoda_runs, linux_runs):
    """The table `make bench` prints for bench mm, as a list of lines."""
    def cell(ms):
        return "-" if ms is None else "%.1f (x%.2f)" % ms
    lines = [title,
             "  %-16s %-6s %22s %22s %14s" % ("case", "unit", "Pagoda (spread)",
                                               "Linux (spread)", "Pagoda/Linux")]
    for case, unit, p, lx, ratio in mm_rows(pagoda_runs, linux_runs):
        lines.append("  %-16s %-6s %22s %22s %14s" % (
            case, unit, cell(p), cell(lx), "-" if ratio is None else "%.2f" % ratio))
    lines.append("  (median of %d / %d runs, spread = max/min; MiB/s: bigger is better, "
                 "every other row: smaller is better)" % (len(pagoda_runs), len(linux_runs)))
    return lines


FIO_IOPS = re.compile(r"write: IOPS=([\d.]+)(k?)")


def parse_fio_iops(text):
    """Each fio report's write IOPS in a console log, in order."""
    return [float(m.group(1)) * (1000 if m.group(2) else 1)
            for m in FIO_IOPS.finditer(text.replace("\r", ""))]


# ---- the kernel package ---------------------------------------------------

def kernel_dir(arch):
    return os.path.join(PEER, arch)


def run_quiet(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def read_module(path):
    """A module file's bytes, uncompressed."""
    with open(path, "rb") as f:
        data = f.read()
    return lzma.decompress(data) if path.endswith(".xz") else data


def fetch(arch, wanted=None):
    """build/linux-peer/ARCH/ with vmlinuz, modules/NAME.ko for the wanted
    modules and their dependencies, and modules.order (load order, one a
    line: the name, then its dependencies comma-separated). Downloads the
    kernel package once; a later call that wants a module not kept yet
    unpacks the cached package again."""
    a = ARCHES[arch]
    wanted = wanted or modules_for(arch)
    out = kernel_dir(arch)
    order_file = os.path.join(out, "modules.order")
    vmlinuz = os.path.join(out, "vmlinuz")
    if os.path.exists(order_file) and os.path.exists(vmlinuz):
        have = read_order(arch)
        if all(mod_name(w) in have for w in wanted):
            return out
    for tool in ("apt-get", "apt-cache", "dpkg-deb"):
        if not shutil.which(tool):
            raise PeerError("needs %s (a Debian machine) to fetch Debian's kernel" % tool)
    deps = run_quiet(["apt-cache", "depends", a["meta"]]).stdout
    m = re.search(r"Depends: (linux-image-[0-9][^\s:]*)", deps)
    if not m:
        raise PeerError("apt knows no %s package%s; run `sudo apt-get update`%s" % (
            a["meta"], " for arm64" if arch == "arm64" else "",
            " after tools/install-deps.sh --pi4-sources (it enables arm64)"
            if arch == "arm64" else ""))
    pkg = m.group(1) + (":arm64" if arch == "arm64" else "")
    os.makedirs(out, exist_ok=True)
    cache = os.path.join(out, "deb")
    os.makedirs(cache, exist_ok=True)
    debs = [f for f in os.listdir(cache) if f.startswith(m.group(1) + "_") and
            f.endswith(".deb")]
    if not debs:
        say("downloading %s with apt-get (about 70 MB, once)" % pkg)
        # apt's download sandbox user must be able to write where it downloads.
        dl = tempfile.mkdtemp(prefix="pagoda-linuxpeer.")
        os.chmod(dl, 0o777)
        try:
            r = run_quiet(["apt-get", "download", "-q=2", pkg], cwd=dl)
            got = [f for f in os.listdir(dl) if f.endswith(".deb")]
            if r.returncode or not got:
                raise PeerError("apt-get download %s failed: %s" % (
                    pkg, (r.stderr or r.stdout).strip() or "no package file"))
            shutil.move(os.path.join(dl, got[0]), os.path.join(cache, got[0]))
            debs = got[:1]
        finally:
            shutil.rmtree(dl, ignore_errors=True)
    deb = os.path.join(cache, debs[0])
    with tempfile.TemporaryDirectory(prefix="pagoda-linuxpeer-x.") as x:
        r = run_quiet(["dpkg-deb", "-x", deb, x])
        if r.returncode:
            raise PeerError("dpkg-deb -x %s: %s" % (deb, r.stderr.strip()))
        kernels = [f for f in os.listdir(os.path.join(x, "boot")) if f.startswith("vmlinuz-")]
        if not kernels:
            raise PeerError("%s holds no boot/vmlinuz-*" % deb)
        found = {}
        for top, _dirs, files in os.walk(os.path.join(x, "lib", "modules")):
            for f in files:
                # Bookworm's modules are plain .ko; later Debians compress them.
                for ext in (".ko", ".ko.xz"):
                    if f.endswith(ext):
                        found[mod_name(f[:-len(ext)])] = os.path.join(top, f)
        deps = {}
        for name, path in found.items():
            dep = modinfo(read_module(path)).get("depends", "")
            deps[name] = [d for d in dep.split(",") if d]
        order = load_order(wanted, deps)
        mods = os.path.join(out, "modules")
        os.makedirs(mods, exist_ok=True)
        for name in order:
            with open(os.path.join(mods, name + ".ko"), "wb") as f:
                f.write(read_module(found[name]))
        shutil.copyfile(os.path.join(x, "boot", kernels[0]), vmlinuz)
        with open(os.path.join(out, "SOURCE"), "w") as f:
            f.write("%s %s\n" % (pkg, debs[0]))
        with open(order_file, "w") as f:
            f.write("".join("%s %s\n" % (n, ",".join(deps[n]) or "-") for n in order))
    say("%s: %s, modules %s" % (arch, kernels[0], ", ".join(order)))
    return out


def read_order(arch):
    """modules.order as {name: [dependencies]}, in load order."""
    deps = {}
    with open(os.path.join(kernel_dir(arch), "modules.order")) as f:
        for line in f:
            name, dep = line.split()
            deps[name] = [mod_name(d) for d in dep.split(",") if d != "-"]
    return deps


def kernel_version(arch):
    try:
        with open(os.path.join(kernel_dir(arch), "SOURCE")) as f:
            return f.read().split()[1].rsplit(".deb", 1)[0]
    except (OSError, IndexError):
        return "?"


# ---- the initramfs and the boot -------------------------------------------

def build_init(arch):
    """user/linuxpeer-init.c, static, for the guest's architecture."""
    src = os.path.join(paths.ROOT, "user", "linuxpeer-init.c")
    exe = os.path.join(kernel_dir(arch), "init")
    if os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src):
        return exe
    os.makedirs(kernel_dir(arch), exist_ok=True)
    cc = ARCHES[arch]["cc"]
    r = run_quiet([cc, "-static", "-O2", "-Wall", "-o", exe, src])
    if r.returncode:
        raise PeerError("%s could not build %s:\n%s" % (cc, src, r.stderr))
    return exe


def with_libraries(programs):
    """{guest path: host path} for host programs and, through ldd, every
    library they load (at the path the loader looks for it)."""
    out = {}
    for guest, host in programs.items():
        out[guest] = host
        r = run_quiet(["ldd", host])
        if r.returncode == 0:
            for lib in parse_ldd(r.stdout):
                out[lib] = lib
    return out


def initramfs(arch, name, files, script, modules=()):
    """build/linux-peer/ARCH/NAME.cpio: /init, /peer/script (the lines),
    files ({guest path: host path}) and the modules (in load order, an
    insmod line each ahead of the script)."""
    mods = os.path.join(kernel_dir(arch), "modules")
    need = load_order(modules, read_order(arch))
    lines = ["insmod /lib/modules/%s.ko" % m for m in need]
    with open(build_init(arch), "rb") as f:
        blobs = {"init": f.read(),
                 "peer/script": ("\n".join(lines + list(script)) + "\n").encode()}
    for m in need:
        with open(os.path.join(mods, m + ".ko"), "rb") as f:
            blobs["lib/modules/%s.ko" % m] = f.read()
    for guest, host in files.items():
        with open(host, "rb") as f:
            blobs[guest.lstrip("/")] = f.read()
    path = os.path.join(kernel_dir(arch), name + ".cpio")
    with open(path, "wb") as f:
        f.write(cpio(blobs, nodes=[("dev/console", 5, 1)]))
    return path


def boot(arch, initrd, log, disks=(), timeout=900):
    """Boot Debian's kernel with initrd on the QEMU line Pagoda's target of
    the same architecture gets; the Boot (its text is the console)."""
    a = ARCHES[arch]
    kernel = os.path.join(kernel_dir(arch), "vmlinuz")
    # LINUXPEER_CMDLINE adds words (mitigations=off, kpti=0: what Linux's
    # page-table isolation costs under TCG, where every switch flushes
    # QEMU's software TLB).
    cmdline = ("console=%s rdinit=/init panic=-1 quiet %s" % (
        a["console"], os.environ.get("LINUXPEER_CMDLINE", ""))).strip()
    if arch == "x86_64":
        cmd = qemu.build_cmd(kernel=kernel, accel="tcg", cmdline=cmdline, disks=disks,
                             extra=["-initrd", initrd])[0]
    else:
        cmd = qemu.build_cmd(arch="arm64", platform="virt", kernel=kernel, cmdline=cmdline,
                             disks=disks, extra=["-initrd", initrd])[0]
    b = Boot(cmd, log, timeout).run()
    if b.timed_out:
        raise PeerError("Linux on %s did not finish in %d s (log %s)" % (
            arch, timeout, paths.rel(log)))
    if "peer: done" not in b.text:
        raise PeerError("Linux on %s stopped before its script's end (log %s)" % (
            arch, paths.rel(log)))
    return b


# ---- the jobs -------------------------------------------------------------

def mm(arch, mmbench, runs=5, log_dir=None):
    """Boot Linux once and run mmbench (the very file Pagoda's initramfs
    carries) runs times; the parsed runs, and any failure lines."""
    fetch(arch)
    if not os.path.exists(mmbench):
        raise PeerError("%s is missing (make ARCH=%s kernel builds it)" % (
            paths.rel(mmbench), arch))
    script = []
    for i in range(runs):
        script += ["echo mm: run %d" % i, "/bin/mmbench"]
    cpio_path = initramfs(arch, "mm", {"bin/mmbench": mmbench}, script)
    log = os.path.join(log_dir or os.path.join(PEER, "logs"), "mm-linux-%s.log" % arch)
    b = boot(arch, cpio_path, log)
    got, failures = parse_mm(b.text)
    if len(got) != runs:
        raise PeerError("Linux on %s: %d of %d mmbench runs finished (log %s)" % (
            arch, len(got), runs, paths.rel(log)))
    return got, failures


# user/oomtest's `commit` case under Linux's strict overcommit: the lines the
# system-areas boots (vm.overcommit_memory=2) must print. Recorded once
# into the tree, since a test run does not boot Linux.
OVERCOMMIT_FIXTURE = os.path.join(paths.ROOT, "tests", "fixtures", "linux",
                                  "oomtest-commit-overcommit2.txt")


def overcommit(arch, log_dir=None):
    """Boot Linux with sysctl.vm.overcommit_memory=2 and run `oomtest
    commit`; write its lines to OVERCOMMIT_FIXTURE; the fixture's path."""
    fetch(arch)
    target = "x86_64-pc" if arch == "x86_64" else "arm64-virt"
    prog = os.path.join(paths.BUILD, target, "user", "oomtest")
    if not os.path.exists(prog):
        raise PeerError("%s is missing (make ARCH=%s kernel builds it)" % (paths.rel(prog), arch))
    cpio_path = initramfs(arch, "overcommit", {"bin/oomtest": prog}, ["/bin/oomtest commit"])
    log = os.path.join(log_dir or os.path.join(PEER, "logs"), "overcommit-linux-%s.log" % arch)
    old = os.environ.get("LINUXPEER_CMDLINE", "")
    os.environ["LINUXPEER_CMDLINE"] = (old + " sysctl.vm.overcommit_memory=2").strip()
    try:
        b = boot(arch, cpio_path, log)
    finally:
        os.environ["LINUXPEER_CMDLINE"] = old
    lines = [l.strip() for l in b.text.splitlines()
             if l.startswith("commit: ") or l.strip() == "oomtest: done"]
    if lines[-1:] != ["oomtest: done"]:
        raise PeerError("Linux on %s: oomtest commit did not finish (log %s)" % (
            arch, paths.rel(log)))
    os.makedirs(os.path.dirname(OVERCOMMIT_FIXTURE), exist_ok=True)
    with open(OVERCOMMIT_FIXTURE, "w") as f:
        f.write("# Linux %s (%s), sysctl.vm.overcommit_memory=2, 1 GiB: `oomtest commit`.\n"
                "# Recorded by `tools/linuxpeer.py overcommit`; read by tests/levels/procmem.py.\n"
                % (kernel_version(arch), arch))
        f.write("\n".join(lines) + "\n")
    return OVERCOMMIT_FIXTURE


# The dm-snapshot job of issue 32, the same lines on both kernels (Pagoda's
# shell takes Linux's dmsetup and fio command lines as typed): 4 KiB
# random writes to a snapshot-origin over a 64 MiB origin (vda), the
# snapshot persistent with 8-sector chunks, libaio at depth 8. Every run
# gets a fresh, all-zero 64 MiB COW store: a linear slice of vdb (slice k
# for the k-th run), since a persistent store is new only when its header
# chunk is zero, and neither kernel's userland here has dd.
DMSNAP_SECTORS = 131072
DMSNAP_FIO = ("fio --name=origin --filename=/dev/mapper/base --rw=randwrite --bs=4k "
              "--iodepth=8 --ioengine=libaio --direct=1 --numjobs=%d --size=64m "
              "--runtime=%d --time_based --group_reporting")


def dmsnap_plan(jobs=(1, 2), runs=5):
    """The (jobs, run) pairs in the order they run: the job counts in turns."""
    return [(j, r) for r in range(runs) for j in jobs]


def dmsnap_lines(plan, runtime=4):
    """The command lines for every run of the plan, in order."""
    lines = []
    for k, (jobs, _run) in enumerate(plan):
        lines += ["dmsetup create cow%d --table '0 %d linear /dev/vdb %d'"
                  % (k, DMSNAP_SECTORS, k * DMSNAP_SECTORS),
                  "dmsetup create base --table '0 %d snapshot-origin /dev/vda'"
                  % DMSNAP_SECTORS,
                  "dmsetup create snap --table '0 %d snapshot /dev/vda /dev/mapper/cow%d P 8'"
                  % (DMSNAP_SECTORS, k),
                  DMSNAP_FIO % (jobs, runtime), "dmsetup status snap",
                  "dmsetup remove snap", "dmsetup remove base", "dmsetup remove cow%d" % k]
    return lines


def dmsnap_images(out_dir, slices):
    """The origin (64 MiB) and the COW image (slices x 64 MiB), made anew
    (sparse, all zero) so that every slice is a fresh store."""
    origin = os.path.join(out_dir, "dmsnap-origin.img")
    cow = os.path.join(out_dir, "dmsnap-cow.img")
    os.makedirs(out_dir, exist_ok=True)
    for path, size in ((origin, DMSNAP_SECTORS * 512), (cow, slices * DMSNAP_SECTORS * 512)):
        with open(path, "wb") as f:
            f.truncate(size)
    return [origin, cow]


def dmsnap_iops(text, plan):
    """{jobs: [IOPS per run]} from a console log of dmsnap_lines(plan)."""
    got = parse_fio_iops(text)
    if len(got) != len(plan):
        raise PeerError("%d fio reports for %d runs" % (len(got), len(plan)))
    out = {}
    for (jobs, _run), iops in zip(plan, got):
        out.setdefault(jobs, []).append(iops)
    return out


def dmsnap(arch, plan, runtime=4, log_dir=None):
    """Issue 32's job on Linux: {jobs: [IOPS per run]}. x86-64 only: fio
    and dmsetup are the host's own Debian programs, with their libraries."""
    if arch != "x86_64":
        raise PeerError("the dm-snapshot peer runs on x86-64 only (it carries the "
                        "host's amd64 fio and dmsetup)")
    fetch(arch)
    progs = {}
    for name in ("fio", "dmsetup"):
        host = shutil.which(name) or shutil.which(name, path="/sbin:/usr/sbin")
        if not host:
            raise PeerError("no %s on this machine (tools/install-deps.sh installs it)" % name)
        progs["usr/bin/" + name] = os.path.realpath(host)
    files = with_libraries(progs)
    log_dir = log_dir or os.path.join(PEER, "logs")
    disks = dmsnap_images(log_dir, len(plan))
    cpio_path = initramfs(arch, "dmsnap", files, dmsnap_lines(plan, runtime),
                          modules=["virtio_blk", ARCHES[arch]["transport"], "dm_snapshot"])
    b = boot(arch, cpio_path, os.path.join(log_dir, "dmsnap-linux-%s.log" % arch), disks=disks)
    try:
        return dmsnap_iops(b.text, plan)
    except PeerError as e:
        raise PeerError("Linux on %s: %s (log %s)" % (arch, e, paths.rel(b.log)))


# Debian's dmsetup through Linux's ioctls (pagoda.dmioctl): what Linux
# prints for the script the dmioctl units run on Pagoda, recorded once
# into the tree, since a test run does not boot Linux.
def dmioctl_fixture(arch):
    return os.path.join(paths.ROOT, "tests", "fixtures", "linux", "dmsetup-ioctl-%s.txt" % arch)


def dmioctl(arch, log_dir=None):
    """Boot Linux with Debian's dmsetup and busybox and run dmioctl.SCRIPT
    on two fresh disks; check the disks afterwards as the Pagoda test
    does (so the host's reader of the COW store is checked against
    Linux's own store); write the console's steps to the fixture."""
    from . import dmioctl as dmi
    if arch != "x86_64":
        raise PeerError("the dmioctl peer runs on x86-64 only (it carries the host's "
                        "amd64 dmsetup)")
    fetch(arch)
    dm = shutil.which("dmsetup", path="/sbin:/usr/sbin")
    busybox = shutil.which("busybox")
    if not dm or not busybox:
        raise PeerError("needs the host's dmsetup and busybox (tools/install-deps.sh)")
    files = with_libraries({"usr/sbin/dmsetup": os.path.realpath(dm)})
    files["bin/busybox"] = os.path.realpath(busybox)
    hostile = os.path.join(paths.BUILD, "x86_64-pc", "user", "dmioctltest")
    if not os.path.exists(hostile):
        raise PeerError("%s is missing (make kernel builds it)" % paths.rel(hostile))
    files["bin/dmioctltest"] = hostile
    log_dir = log_dir or os.path.join(PEER, "logs")
    os.makedirs(log_dir, exist_ok=True)
    for name, blob in dmi.files().items():
        path = os.path.join(log_dir, "dmioctl-" + name.replace("/", "-"))
        with open(path, "wb") as f:
            f.write(blob)
        files[name] = path
    origin = os.path.join(log_dir, "dmioctl-origin.img")
    cow = os.path.join(log_dir, "dmioctl-cow.img")
    with open(origin, "wb") as f:
        f.write(dmi.origin_image())
    with open(cow, "wb") as f:
        f.truncate(dmi.SECTORS * 512)
    cpio_path = initramfs(arch, "dmioctl", files, ["/bin/busybox sh /dm/script.sh"],
                          modules=["virtio_blk", ARCHES[arch]["transport"], "dm_snapshot"])
    b = boot(arch, cpio_path, os.path.join(log_dir, "dmioctl-linux-%s.log" % arch),
             disks=[origin, cow])
    text = b.text.replace("\r", "")
    start = text.find("$ dmsetup version")
    end = text.find("dmioctl: end")
    if start >= 0 and "dmioctltest: done" not in text[start:end]:
        raise PeerError("Linux on %s: dmioctltest did not finish (log %s)" % (
            arch, paths.rel(b.log)))
    if start < 0 or end < 0:
        raise PeerError("Linux on %s: the script did not run to its end (log %s)" % (
            arch, paths.rel(b.log)))
    with open(origin, "rb") as f:
        o = f.read()
    with open(cow, "rb") as f:
        c = f.read()
    want_o, want_s = dmi.expected_images()
    if o != want_o or dmi.snapshot_view(o, c) != want_s:
        raise PeerError("Linux on %s: the disks are not what the script wrote: the host's "
                        "reader is wrong (images %s, %s)" % (arch, paths.rel(origin),
                                                              paths.rel(cow)))
    path = dmioctl_fixture(arch)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("# Linux %s (%s): Debian's dmsetup running pagoda.dmioctl.SCRIPT.\n"
                "# Recorded by `tools/linuxpeer.py dmioctl`; read by tests/levels/dmioctl.py.\n"
                % (kernel_version(arch), arch))
        f.write(text[start:end])
    return path
