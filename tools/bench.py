#!/usr/bin/env python3
"""`make bench`: boot the kernel with bench=all under KVM (when /dev/kvm is
usable) and under TCG, and the arm64 kernels on QEMU virt and raspi4b (TCG
only: this is an x86 host), collect the BENCH JSON lines each run prints,
and show them side by side: tables for people (they end the output), JSON
lines for tools (build/bench/results.jsonl, kind "bench"; --json prints
them too). Standard library only.

TCG timings are emulator timings, not hardware timings; so are KVM timings
under nested virtualization. Every column says which it is.
"""
import argparse
import json
import os
import time
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pagoda import accel as accel_mod, fiopeer, linuxpeer, paths, qemu  # noqa: E402
from pagoda.boot import Boot  # noqa: E402
from pagoda.results import JsonLines  # noqa: E402

ROOT = paths.ROOT
OUT = os.path.join(paths.BUILD, "bench")


def target_cmd(target, accel, mem, cmdline, pi4_dtb, disks=(), disk_bus="virtio", smp=2):
    """The QEMU command for one column: x86_64 (pc), arm64-virt, arm64-pi4
    (whose four CPUs are the board's, whatever smp says)."""
    if target == "x86_64":
        return qemu.build_cmd(kernel=paths.X86_KERNEL, accel=accel, mem=mem, smp=smp,
                              cmdline=cmdline, disks=disks, disk_bus=disk_bus)[0]
    platform = target.split("-")[1]
    return qemu.build_cmd(arch="arm64", platform=platform, mem=mem, cmdline=cmdline,
                          kernel=paths.ARM64_IMAGE[platform], dtb=pi4_dtb,
                          disks=disks, disk_bus=disk_bus,
                          **({} if platform == "pi4" else {"smp": smp}))[0]


def scratch_disk(size=64 << 20, name="disk64.img"):
    """A sparse raw image for the block bench's real disk (virtio-blk, or the
    SD card on raspi4b): 64 MiB, as in the Linux figure the issue compares
    with. bench block only reads real disks, so one image serves every boot;
    bench swiotlb writes, to its own."""
    path = os.path.join(OUT, name)
    os.makedirs(OUT, exist_ok=True)
    if not os.path.exists(path) or os.path.getsize(path) != size:
        with open(path, "wb") as f:
            f.truncate(size)
    return path


def run(target, accel, mem, names, runs, pi4_dtb=None, extra="", disks=(), disk_bus="virtio",
        tag="", smp=2):
    """Boot `runs` times; return a list of per-boot lists of BENCH records."""
    boots = []
    # raspi4b's memory is the board's own, whatever --mem says.
    mem = "2G" if target == "arm64-pi4" else mem
    for i in range(runs):
        cmdline = ("bench=%s panic=-1 %s" % (names, extra)).strip()
        cmd = target_cmd(target, accel, mem, cmdline, pi4_dtb, disks, disk_bus, smp)
        b = Boot(cmd, os.path.join(OUT, "%s-%s-%s-%s%s%s%s-%d.log" % (
            names, target, accel, mem, "" if disk_bus == "virtio" else "-" + disk_bus,
            "-" + tag if tag else "", "" if smp == 2 else "-smp%d" % smp, i)),
                 1800).run()
        recs = []
        for line in b.text.replace("\r", "").splitlines():
            if line.startswith("BENCH "):
                rec = json.loads(line[6:])
                rec.update(run=i, mem=mem, qemu_accel=accel, target=target)
                recs.append(rec)
        if not recs:
            print("bench: %s %s boot %d printed no results (log %s)" %
                  (target, accel, i, b.log))
        boots.append(recs)
    return boots


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else None


def cells(cols, width, show):
    """A table row's cells: show(column) for each column, right-aligned to
    width, and "-" where show gives None (that target had no such record)."""
    out = ""
    for c in cols:
        text = show(c)
        out += "%*s" % (width, "-" if text is None else text)
    return out


def boot_table(results):
    """Median time per boot step, per accelerator, in microseconds."""
    steps, cols = [], []
    per = {}
    for accel, boots in results:
        cols.append(accel)
        for recs in boots:
            for r in recs:
                if r.get("bench") != "boot":
                    continue
                key = r["step"] if r["step"] != "total" else "total (entry to %s)" % r["to"]
                if key not in steps:
                    steps.append(key)
                per.setdefault((accel, key), []).append(r["ns"] / 1000.0)
    print("\nboot: time from kernel entry to the shell prompt (median of runs, microseconds)")
    # Each arch has its own steps: order them by where in its boot each
    # falls (averaged over the columns that have it), totals last.
    where = {}
    for accel, boots in results:
        names = [r["step"] for r in (boots[0] if boots else [])
                 if r.get("bench") == "boot" and r["step"] != "total"]
        for i, n in enumerate(names):
            where.setdefault(n, []).append(i / max(1, len(names) - 1))
    steps = sorted((k for k in steps if not k.startswith("total")),
                   key=lambda k: sum(where.get(k, [1])) / len(where.get(k, [1]))) + \
        [k for k in steps if k.startswith("total")]
    print("%-28s" % "step" + "".join("%18s" % c for c in cols))
    def step_cell(c, s):
        m = median(per.get((c, s), []))
        return None if m is None else "%.1f" % m

    for s in steps:
        print("%-28s" % s + cells(cols, 18, lambda c: step_cell(c, s)))
    print("(every column is QEMU: TCG is emulation, not hardware time; the arm64"
          " targets always run under TCG here)")
    tot = [k for k in steps if k.startswith("total")]
    x86 = [c for c in cols if c.startswith("x86_64")]
    if len(x86) == 2 and tot:
        a, b = (median(per.get((c, tot[0]), [])) for c in x86)
        if a and b:
            print("ratio %s/%s: %.2f" % (x86[0], x86[1], a / b))


def case_table(title, bench, results):
    """One row per case, one column per (accelerator, memory) boot."""
    cols, rows, vals = [], [], {}
    for col, boots in results:
        for recs in boots:
            for r in recs:
                if r.get("bench") != bench:
                    continue
                if col not in cols:
                    cols.append(col)
                if r["case"] not in rows:
                    rows.append(r["case"])
                vals[(col, r["case"])] = (r["value"], r["unit"], r["ratio_x1000"])
    if not rows:
        return
    print("\n%s" % title)
    print("%-46s" % "case" + "".join("%22s" % c for c in cols))
    def case_cell(c, case):
        v = vals.get((c, case))
        if v is None:
            return None
        ratio = " x%.2f" % (v[2] / 1000.0) if v[2] else ""
        return "%.1f %s%s" % (v[0], v[1].split("/")[0], ratio)

    for case in rows:
        print("%-46s" % case + cells(cols, 22, lambda c: case_cell(c, case)))


def sched_locks_tables(results):
    """bench sched: us per operation; bench locks: ns per lock+unlock.

    One column per target, side by side; each header says how many CPUs
    the guest had (x86_64 and arm64-virt: 2, arm64-pi4: 4, fixed by the board).
    """
    cols, sched, locks, info, wake = [], {}, {}, {}, {}
    for col, boots in results:
        for r in (r for recs in boots for r in recs):
            if r.get("bench") not in ("sched", "locks", "wakeup"):
                continue
            if col not in cols:
                cols.append(col)
            info.setdefault(col, r["cpus"])
            if r["bench"] == "wakeup":
                wake.setdefault(r["case"], {})[col] = r
                continue
            if r["bench"] == "sched":
                sched.setdefault(r["op"], {})[col] = r["ns"] / 1000.0
            else:
                locks.setdefault(r["primitive"], {})[col] = (r["uncontended_ns"],
                                                             r["contended_ns"])
                info[(col, "lockstat")] = r["lockstat"]
    heads = ["%s, %d CPUs" % (c, info[c]) for c in cols]
    if wake:
        print("\nwake-up to running (microseconds: median / p90 / p99 / max)")
        print("  %-16s" % "case" + "".join("%34s" % h for h in heads))
        def wake_cell(r):
            return "%.1f / %.1f / %.1f / %.1f" % tuple(
                r[k] / 1000.0 for k in ("p50_ns", "p90_ns", "p99_ns", "max_ns"))

        for case, per in wake.items():
            print("  %-16s" % case + cells(cols, 34,
                                           lambda c: wake_cell(per[c]) if c in per else None))
    if sched:
        print("\nsched (microseconds per operation)")
        print("  %-16s" % "operation" + "".join("%26s" % h for h in heads))
        for op, per in sched.items():
            print("  %-16s" % op + cells(cols, 26,
                                         lambda c: "%.3f" % per[c] if c in per else None))
    if locks:
        print("\nlocks (ns per lock+unlock, uncontended / contended: wall time per "
              "acquisition, one thread per CPU; lockstat %s)" %
              "/".join(sorted({"on" if info.get((c, "lockstat")) else "off"
                               for c in cols})))
        print("  %-20s" % "primitive" + "".join("%26s" % h for h in heads))
        for prim, per in locks.items():
            print("  %-20s" % prim + cells(cols, 26,
                                           lambda c: "%d / %d" % per[c] if c in per else None))
        host = os.cpu_count() or 1
        over = [h for c, h in zip(cols, heads) if info[c] > host]
        if over:
            print("  (%s: more virtual CPUs than the host's %d cores, so a spinning "
                  "waiter can keep the lock holder's thread off the host; contended "
                  "numbers there measure that too)" % ("; ".join(over), host))


def bench_host():
    """build/host/bench-page-alloc's table and records (host_program)."""
    return host_program("bench-page-alloc",
                        "page allocator on the host against a minimal buddy", ["--instructions"])


FIO_SEQ = ("fio --name=seq%s --filename=vda --rw=%s --bs=256k --iodepth=8 --size=64m "
           "--ioengine=async --direct=1")


def fio_mib(text, direction):
    """fio's group line (READ: bw=12.3MiB/s ...) in MiB/s, or None."""
    m = re.search(r"%s: bw=([\d.]+)(KiB|MiB|GiB)/s" % direction, text)
    if not m:
        return None
    return float(m.group(1)) * {"KiB": 1 / 1024, "MiB": 1, "GiB": 1024}[m.group(2)]


def hibernate_image(target, accel, mem, fill_mib=256):
    """Hibernation's own I/O: in one boot, fio's sequential write and read
    on the resume disk, then `hibernate` with fill_mib MiB of patterned
    pages; the next boot resumes. Returns one record, or None."""
    disk = scratch_disk(size=512 << 20, name="hibernate512.img")
    with open(disk, "r+b") as f:  # no image left from an earlier run
        f.write(bytes(4096))
    cmdline = ('resume=vda panic=-1 shell.run="%s;%s;hibstate fill %d 1;hibernate;poweroff"'
               % (FIO_SEQ % ("w", "write"), FIO_SEQ % ("r", "read"), fill_mib))
    logs, texts = [], []
    for i in (1, 2):
        cmd = target_cmd(target, accel, mem, cmdline, None, [disk])
        b = Boot(cmd, os.path.join(OUT, "hibernate-image-%s-%s-%d.log" % (target, accel, i)),
                 900).run()
        logs.append(b.log)
        texts.append(b.text.replace("\r", ""))
    one, two = texts
    w = re.search(r"image written to vda: (\d+) pages in (\d+) ms \(([\d.]+) MiB/s[;)]", one)
    done = re.search(r"hibernation: done in (\d+) ms", one)
    r = re.search(r"image read in (\d+) ms \(([\d.]+) MiB/s[;)]", two)
    jump = re.search(r"jumping into the image (\d+) ms after boot", two)
    back = re.search(r"resumed from hibernation;.* back in (\d+) us", two)
    if not (w and done and r and jump and back):
        print("bench: hibernate image on %s: no complete hibernate/resume (logs %s)"
              % (target, ", ".join(logs)))
        return None
    return {"bench": "hibernate-image", "case": "image", "target": target,
            "qemu_accel": accel, "mem": mem, "image_pages": int(w.group(1)),
            "fio_write_mib_s": fio_mib(one, "WRITE"), "fio_read_mib_s": fio_mib(one, "READ"),
            "image_write_mib_s": float(w.group(3)), "image_read_mib_s": float(r.group(2)),
            "hibernate_ms": int(done.group(1)), "write_ms": int(w.group(2)),
            "read_ms": int(r.group(1)),
            "resume_ms": int(jump.group(1)) + int(back.group(1)) / 1000.0}


def hibernate_image_table(rows):
    print("\nhibernate: the image against the disk's own sequential bandwidth (fio, same boot),"
          " and end-to-end times")
    print("  %-18s %8s %10s %10s %6s %10s %10s %6s %12s %10s" % (
        "target", "image", "fio write", "img write", "ratio", "fio read", "img read", "ratio",
        "hibernate", "resume"))
    for r in rows:
        fw, fr = r["fio_write_mib_s"] or 0, r["fio_read_mib_s"] or 0
        print("  %-18s %5d MiB %6.1f MiB/s %6.1f MiB/s %5.2fx %6.1f MiB/s %6.1f MiB/s %5.2fx %9d ms %7.0f ms" % (
            "%s %s" % (r["target"], r["qemu_accel"]), r["image_pages"] >> 8, fw,
            r["image_write_mib_s"], r["image_write_mib_s"] / fw if fw else 0, fr,
            r["image_read_mib_s"], r["image_read_mib_s"] / fr if fr else 0,
            r["hibernate_ms"], r["resume_ms"]))
    print("  (resume: the boot kernel's time to the jump, reading the image included, plus the"
          " resumed kernel's restore)")


def host_program(name, what, args=()):
    """Run build/host/NAME (built by make bench), print its table, return
    its BENCH records."""
    exe = os.path.join(ROOT, "build", "host", name)
    print("bench: %s (make bench-host)" % what)
    if not os.path.exists(exe):
        print("bench: %s missing (make bench builds it)" % os.path.relpath(exe, ROOT))
        return []
    out = subprocess.run([exe] + list(args), capture_output=True, text=True).stdout
    recs = []
    for line in out.splitlines():
        if line.startswith("BENCH "):
            recs.append(json.loads(line[6:]))
        else:
            print(line)
    return recs


def dmsnap_table(column, boots):
    """bench dmsnap: the seed's rows, before (mutex) and after (fine)."""
    print("\ndm-snapshot on %s: before = one mutex, after = fine-grained locks "
          "(ratio: IOPS after/before, latency before/after)" % column)
    for recs in boots:
        # The boot also prints its step trace (bench "dmsnap-trace"): not rows.
        for r in (r for r in recs if r.get("bench") == "dmsnap"):
            lat = "latency" in r["case"]
            b, af = ((r["before_lat_ns"] / 1000.0, r["after_lat_ns"] / 1000.0) if lat else
                     (r["before_iops"], r["after_iops"]))
            ratio = (b / af if lat else af / b) if (af if lat else b) else 0
            unit = "us" if lat else "IOPS"
            print("  %-40s %10.0f %-4s %10.0f %-4s %5.2fx  spread %4.2fx/%4.2fx  "
                  "lock wait %8.1f / %8.1f ms" % (
                      r["case"], b, unit, af, unit, ratio,
                      r.get("before_spread_x100", 0) / 100.0,
                      r.get("after_spread_x100", 0) / 100.0,
                      r["before_wait_ns"] / 1e6, r["after_wait_ns"] / 1e6))


def swiotlb_table(column, got):
    """The seed's layout: var per configuration, and each one's bandwidth
    difference from base; then what the pool did and what a mapping costs."""
    depth = next((r.get("iodepth") for r in got.values() if "iodepth" in r), "?")
    print("\nswiotlb on %s: random read-write 50/50, %s requests in flight, every mapping "
          "bounced; var = coefficient of variance over 5 runs, diff = bandwidth against base"
          % (column, depth))
    print("  %-6s %8s %8s | %8s %8s | %8s %8s" % ("", "base", "var", "default", "diff",
                                                  "growing", "diff"))
    for case in ("small", "big", "4way"):
        base = got.get(("base", case))
        if not base:
            print("  %-6s (no result)" % case)
            continue
        line = "  %-6s %6.2fM %7.2f%% |" % (case, base["mean_kib"] / 1024.0,
                                            base["var_ppm"] / 1e4)
        for label in ("default", "growing"):
            r = got.get((label, case))
            if r is None:
                line += " %8s %8s |" % ("-", "-")
                continue
            diff = 100.0 * (r["mean_kib"] - base["mean_kib"]) / max(base["mean_kib"], 1)
            line += " %7.2f%% %+7.1f%% |" % (r["var_ppm"] / 1e4, diff)
        print(line.rstrip(" |"))
    print("  the seed (x86 VM, virtio, RAM-backed disk): small 1.96% | 0.47% -1.5% | "
          "0.52% -2.2%; big 2.03% | 1.35% +0.9% | 2.22% +2.9%; 4way 0.80% | "
          "0.45% -0.7% | 1.22% <0.1%")
    for label in ("base", "default", "growing"):
        p = got.get((label, "pool"))
        if p:
            print("  %-8s pool %6d KiB -> %6d KiB, peak footprint %6d KiB; %d pools grown, "
                  "%d given back, %d transient; at most %d slots in use" % (
                      label, p["start_kib"], p["end_kib"], p["peak_kib"], p["grown"],
                      p["freed"], p["transient"], p.get("hiwater_slots", -1)))
    print("  (the seed: growing went from 1 MiB to 5 MiB)")
    for size in (64, 4096, 65536):
        r = got.get(("growing", "map%d" % size)) or got.get(("default", "map%d" % size))
        if r:
            print("  map+unmap %5d B: direct %5d ns, bounced %6d ns (x%.1f)" % (
                size, r["direct_ns"], r["bounced_ns"],
                r["bounced_ns"] / max(r["direct_ns"], 1)))


def vdso_table(results):
    """bench vdso: ns per call through the vDSO and the system call, the
    ratio, a system call's round trip, and fork/exec costs per target."""
    print("\nvdso (ns per call: vDSO / system call = ratio; getpid's round trip; "
          "fork+exit+wait and fork+execve+exit+wait in us)")
    for col, boots in results:
        got = {r["call"]: r for recs in boots for r in recs if r.get("bench") == "vdso"}
        if not got:
            print("  %-22s (no result)" % col)
            continue
        line = "  %-22s" % col
        for call in ("clock_gettime", "gettimeofday", "getcpu"):
            r = got.get(call)
            if r:
                line += " %s %.1f/%.1f=x%.1f" % (call, r["vdso_ns"], r["syscall_ns"], r["ratio"])
        if "getpid" in got:
            line += " getpid %.1f" % got["getpid"]["syscall_ns"]
        if "fork_exit_wait" in got:
            line += " fork %d us" % got["fork_exit_wait"]["us"]
        if "fork_exec_wait" in got:
            line += " fork+exec %d us" % got["fork_exec_wait"]["us"]
        print(line)
    print("  (under TCG these are emulation times: compare the ratios, within one run)")


def mm_beside_linux(target, accel, mem):
    """bench mm on Pagoda (one boot, five runs of user/mmbench) and the same
    file on Debian's Linux in the same QEMU (pagoda.linuxpeer); prints the
    table and returns the BENCH records (one per kernel and case)."""
    arch = "x86_64" if target == "x86_64" else "arm64"
    # Lock statistics off, as Debian's Linux is built (no CONFIG_LOCK_STAT):
    # Pagoda keeps them by default for lockstat and bench dmsnap's wait
    # columns, and they cost a fifth of a pipe's fast path under TCG.
    cmd = target_cmd(target, accel, mem, "bench=mm lockstat=0 panic=-1", None)
    b = Boot(cmd, os.path.join(OUT, "mm-%s-%s.log" % (target, accel)), 1800).run()
    pagoda_runs, failures = linuxpeer.parse_mm(b.text)
    if not pagoda_runs:
        print("bench: mm on %s printed no runs (log %s)" % (target, paths.rel(b.log)))
    linux_runs, version = [], "-"
    try:
        exe = os.path.join(paths.BUILD, "x86_64-pc" if arch == "x86_64" else "arm64-virt",
                           "user", "mmbench")
        linux_runs, lf = linuxpeer.mm(arch, exe, log_dir=OUT)
        failures += ["Linux: " + f for f in lf]
        version = linuxpeer.kernel_version(arch)
    except linuxpeer.PeerError as e:
        print("bench: no Linux beside Pagoda: %s" % e)
    for f in failures:
        print("  " + f)
    print("")
    print("\n".join(linuxpeer.mm_table(
        "mm on %s under %s: the same static user/mmbench on Pagoda and on Debian's "
        "Linux (%s%s), same QEMU line, 2 CPUs, %s" % (
            target, accel.upper(), version,
            "; " + os.environ["LINUXPEER_CMDLINE"] if os.environ.get("LINUXPEER_CMDLINE")
            else "", mem),
        pagoda_runs, linux_runs)))
    print("  (Pagoda booted with lockstat=0: Debian's Linux keeps no lock statistics either)")
    print("  (page_fault: both kernels have transparent huge pages \"always\" (Debian's Linux "
          "and Pagoda's default) and fill most of the 64 MiB 2 MiB at a fault; page_fault_4k "
          "asks MADV_NOHUGEPAGE, a fault per 4 KiB page on both)")
    if arch == "arm64" and "kpti" not in os.environ.get("LINUXPEER_CMDLINE", ""):
        print("  (Linux on virt: QEMU's KASLR seed turns page-table isolation on, and each "
              "switch flushes TCG's TLB; LINUXPEER_CMDLINE=kpti=0 measures it without)")
    recs = []
    for case, unit, p, lx, ratio in linuxpeer.mm_rows(pagoda_runs, linux_runs):
        for kernel, ms in (("pagoda", p), ("linux", lx)):
            if ms:
                recs.append({"bench": "mm", "case": case, "kernel": kernel, "unit": unit,
                             "median": ms[0], "spread": round(ms[1], 3),
                             "runs": len(pagoda_runs if kernel == "pagoda" else linux_runs),
                             "linux": version, "target": target, "qemu_accel": accel,
                             "mem": mem})
    return recs


def dmsnap_pagoda_virtio(locking, plan, runtime):
    """Issue 32's job on Pagoda: the lines Linux runs (linuxpeer.dmsnap_lines),
    typed at the shell of one x86-64 boot with dm_snapshot.locking set, on
    fresh images; {jobs: [IOPS per run]}, or None."""
    disks = linuxpeer.dmsnap_images(OUT, len(plan))
    cmd = target_cmd("x86_64", "tcg", "1G", "dm_snapshot.locking=%s panic=-1" % locking,
                     None, disks)
    script = [(r"pagoda> ", line + "\r") for line in
              linuxpeer.dmsnap_lines(plan, runtime) + ["poweroff"]]
    b = Boot(cmd, os.path.join(OUT, "dmsnap-virtio-%s.log" % locking),
             120 + 3 * runtime * len(plan), script=script).run()
    try:
        return linuxpeer.dmsnap_iops(b.text, plan)
    except linuxpeer.PeerError as e:
        print("bench: dmsnap on virtio under Pagoda's %s: %s (log %s)" % (
            locking, e, paths.rel(b.log)))
        return None


def dmsnap_beside_linux(runtime=4, runs=5):
    """Issue 32's table: Linux's IOPS beside Pagoda's mutex and fine on the
    same images and job lines (x86-64, TCG); the BENCH records."""
    plan = linuxpeer.dmsnap_plan(runs=runs)
    got, version = {}, linuxpeer.kernel_version("x86_64")
    for locking in ("mutex", "fine"):
        print("bench: dmsnap on virtio-blk images, Pagoda %s" % locking)
        got["Pagoda " + locking] = dmsnap_pagoda_virtio(locking, plan, runtime)
    print("bench: dmsnap on virtio-blk images, Linux")
    try:
        got["Linux"] = linuxpeer.dmsnap("x86_64", plan, runtime, log_dir=OUT)
        version = linuxpeer.kernel_version("x86_64")
    except linuxpeer.PeerError as e:
        print("bench: no Linux beside Pagoda: %s" % e)
        got["Linux"] = None
    print("\ndm-snapshot beside Linux (%s) on x86_64 q35 under TCG, 2 CPUs, 1 GiB: 4 KiB "
          "random writes to snapshot-origin, libaio depth 8, snapshot P 8, 64 MiB images, "
          "%d s per run; IOPS, median of %d (spread max/min)" % (version, runtime, runs))
    jobs = sorted({j for j, _r in plan})
    print("  %-22s" % "kernel" + "".join("%24s" % ("%d job%s" % (j, "" if j == 1 else "s"))
                                          for j in jobs))
    recs = []
    for name, per in got.items():
        line = "  %-22s" % name
        for j in jobs:
            if not per or j not in per:
                line += "%24s" % "-"
                continue
            med, spread = linuxpeer.median_spread(per[j])
            line += "%24s" % ("%.0f (x%.2f)" % (med, spread))
            recs.append({"bench": "dmsnap-linux", "kernel": name, "jobs": j, "iops": med,
                         "spread": round(spread, 3), "runs": per[j], "linux": version,
                         "target": "x86_64", "qemu_accel": "tcg", "runtime_s": runtime})
        print(line)
    lx = got.get("Linux") or {}
    for name in ("Pagoda mutex", "Pagoda fine"):
        if got.get(name) and lx:
            print("  %s/Linux: %s" % (name, ", ".join(
                "%d job%s %.2f" % (j, "" if j == 1 else "s",
                                  linuxpeer.median_spread(got[name][j])[0] /
                                  linuxpeer.median_spread(lx[j])[0])
                for j in jobs if j in got[name] and j in lx)))
    return recs


def cr_table(column, boots):
    """bench cr: the checkpoint/restore seed's table, legacy against kdat in one boot."""
    print("\ncheckpoint/restore on %s: mean +- deviation in ms over the iterations; "
          "per restore: symtab parses, vDSO maps/moves, vDSO page-table entries, pages" % column)
    for recs in boots:
        by = {(r["shape"], r["mode"]): r for r in recs if r.get("bench") == "cr"}
        for shape in ("busyloop", "tree"):
            lg, kd = by.get((shape, "legacy")), by.get((shape, "kdat"))
            if not lg or not kd:
                print("  %-9s (no result)" % shape)
                continue
            for r in (lg, kd):
                print("  %-9s %2d procs %-6s dump %7.2f +-%6.2f (median %6.2f)  restore %7.2f "
                      "+-%6.2f (median %6.2f)  vDSO step median %4d us  %d parses %d maps %d moves "
                      "%d PTEs %d pages" % (
                          shape, r["procs"], r["mode"], r["dump_us"] / 1e3,
                          r["dump_sd_us"] / 1e3, r["dump_median_us"] / 1e3,
                          r["restore_us"] / 1e3, r["restore_sd_us"] / 1e3,
                          r["restore_median_us"] / 1e3, r["vdso_step_median_us"],
                          r["symtab_parses"], r["vdso_maps"], r["vdso_moves"], r["vdso_ptes"],
                          r["pages_restored"]))
            if lg["restore_us"] and lg["vdso_step_ns"]:
                print("  %-9s kdat vs legacy: restore mean %+.1f%%, median %+.1f%%, its vDSO "
                      "step's median %+.1f%% (the seed: restore -21%% one process, -8%% ~10)" % (
                          shape, 100.0 * (kd["restore_us"] - lg["restore_us"]) / lg["restore_us"],
                          100.0 * (kd["restore_median_us"] - lg["restore_median_us"]) /
                          max(lg["restore_median_us"], 1),
                          100.0 * (kd["vdso_step_median_us"] - lg["vdso_step_median_us"]) /
                          max(lg["vdso_step_median_us"], 1)))


def block_table(results):
    """bench block: IOPS (and p99 latency) per device and case, one column per target."""
    cols, vals, info, rows = [], {}, {}, []
    for col, boots in results:
        for r in (r for recs in boots for r in recs):
            if r.get("bench") != "block":
                continue
            if col not in cols:
                cols.append(col)
            info[col] = r["cpus"]
            key = (r["dev"], r["case"])
            if key not in rows:
                rows.append(key)
            vals[(col, key)] = r
    if not rows:
        return
    print("\nblock (fio in the kernel, 1 s per case; IOPS, p99 latency in us)")
    print("  %-8s %-24s" % ("device", "case") +
          "".join("%28s" % ("%s, %d CPUs" % (c, info[c])) for c in cols))
    def iops_cell(c, key):
        r = vals.get((c, key))
        if r is None:
            return None
        if "lat_p99_ns" in r:
            return "%d (p99 %d us)" % (r["iops"], r["lat_p99_ns"] // 1000)
        return "%d" % r["iops"]

    for key in rows:
        print("  %-8s %-24s" % key + cells(cols, 28, lambda c: iops_cell(c, key)))


class Progress:
    """Where a long `make bench` is: an estimate up front (each section's
    time in the last run on this machine, kept in build/bench/durations.json;
    the first time, the figures measured here when this was written), a line
    as each section starts, and the time it took."""
    # Seconds per section under TCG on a 2-core machine (one full run here).
    FIRST_GUESS = {"boot": 120, "sched": 60, "pagealloc-host": 60, "pagealloc": 240,
                   "block": 120, "swiotlb": 150, "vdso": 40, "cr": 60, "hibernate": 150,
                   "dmsnap": 90, "mm": 150, "dmsnap-linux": 240, "fio-user": 200}

    def __init__(self, wanted):
        self.file = os.path.join(OUT, "durations.json")
        try:
            with open(self.file) as f:
                self.last = json.load(f)
        except (OSError, ValueError):
            self.last = {}
        self.wanted = [n for n in self.FIRST_GUESS if wanted in ("all", n) or
                       (wanted == "pagealloc" and n == "pagealloc-host") or
                       (wanted in ("sched", "locks", "wakeup") and n == "sched") or
                       (wanted == "host" and n == "pagealloc-host")]
        self.took, self.name, self.t0, self.start = {}, None, 0.0, time.time()
        total = sum(self.last.get(n, self.FIRST_GUESS[n]) for n in self.wanted)
        print("bench: %d section%s, about %d min here (%s)" % (
            len(self.wanted), "" if len(self.wanted) == 1 else "s", max(1, round(total / 60)),
            "as the last run took" if all(n in self.last for n in self.wanted)
            else "a first guess: the next run's estimate is this run's time"), flush=True)

    def section(self, name):
        self.end_section()
        if name not in self.wanted:
            return
        self.name, self.t0 = name, time.time()
        i = self.wanted.index(name) + 1
        print("bench [%d/%d] %s (%.0f min in so far)" % (i, len(self.wanted), name,
                                                       (self.t0 - self.start) / 60), flush=True)

    def end_section(self):
        if self.name:
            self.took[self.name] = round(time.time() - self.t0)
            self.name = None

    def done(self):
        self.end_section()
        self.last.update(self.took)
        with open(self.file, "w") as f:
            json.dump(self.last, f)
        print("bench: done in %.1f min" % ((time.time() - self.start) / 60))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mem", default="1G")
    ap.add_argument("--bench", default="all")
    ap.add_argument("--accel", default="auto",
                    help="auto (KVM when usable, and TCG), kvm or tcg")
    ap.add_argument("--big-mem", default="16G",
                    help="second guest size for the page allocator bench")
    ap.add_argument("--pi4-dtb", default=paths.PI4_DTB, help="device tree for raspi4b")
    ap.add_argument("--json", action="store_true",
                    help="print the JSON lines too, not only into the results file")
    ap.add_argument("--x86-only", action="store_true")
    a = ap.parse_args()
    known = sorted(set(Progress.FIRST_GUESS) - {"pagealloc-host"} |
                   {"all", "locks", "wakeup", "host"})
    if a.bench not in known:
        ap.error("no bench section %r (BENCH=): one of %s" % (a.bench, ", ".join(known)))
    os.makedirs(OUT, exist_ok=True)
    if a.accel == "auto":
        # KVM beside TCG, unless KVM is far slower than emulation here
        # (nested virtualization), where its numbers would measure the host.
        picked, why = accel_mod.choose()
        accels = ["kvm", "tcg"] if picked == "kvm" else ["tcg"]
        if picked != "kvm":
            print("bench: TCG only: %s%s" % (why, "" if "cannot run" in why
                                             else "; --accel kvm forces KVM"))
    else:
        accels = [accel_mod.check(a.accel, "--accel")]
    columns = [("x86_64", acc) for acc in accels]
    if not a.x86_only:
        columns += [("arm64-virt", "tcg"), ("arm64-pi4", "tcg")]
    path = os.path.join(OUT, "results.jsonl")
    print("bench: JSON lines go to %s%s" % (paths.rel(path),
          "" if a.json else " (--json prints them too)"))
    results = []
    progress = Progress(a.bench)

    def one_boot_each(name, table, smp=2):
        """bench NAME: one boot on each column but the Pi 4, its table
        printed per boot; the boots, labelled, for results."""
        got = []
        cpus = "" if smp == 2 else ", %d CPUs" % smp
        for target, accel in columns:
            if target == "arm64-pi4":
                continue
            print("bench: %s on %s under %s%s" % (name, target, accel.upper(), cpus))
            boots = run(target, accel, a.mem, name, 1, a.pi4_dtb, smp=smp)
            for recs in boots:
                for r in recs:
                    r["smp"] = smp
            table("%s under %s%s" % (target, accel.upper(), cpus), boots)
            got.append(("%s %s%s" % (target, accel, "" if smp == 2 else " smp%d" % smp), boots))
        return got

    # Boot timing: several boots, medians. The other benchmarks get their
    # own boots below.
    progress.section("boot")
    if a.bench in ("all", "boot"):
        for target, accel in columns:
            what = target + (" (raspi4b: 2 GiB, fixed)" if target == "arm64-pi4" else
                             " with " + a.mem)
            print("bench: %d boots of %s under %s" % (a.runs, what, accel.upper()))
            results.append(("%s %s" % (target, accel),
                            run(target, accel, a.mem, "boot", a.runs, a.pi4_dtb)))
        boot_table(results)
    # The scheduler and the locks: x86_64 and arm64 virt with 2 CPUs
    # (qemu.py's default), raspi4b with its fixed 4.
    progress.section("sched")
    if a.bench in ("all", "sched", "locks", "wakeup"):
        names = "sched,locks,wakeup" if a.bench == "all" else a.bench
        sl = []
        for target, accel in columns:
            print("bench: %s on %s under %s" % (names, target, accel.upper()))
            sl.append(("%s %s" % (target, accel),
                       run(target, accel, a.mem, names, 1, a.pi4_dtb)))
        sched_locks_tables(sl)
        results += sl
    # The page allocator on the host against a minimal buddy allocator
    # (make bench-host: same mm/page_alloc.c, gcc -O2, callgrind counts).
    progress.section("pagealloc-host")
    if a.bench in ("all", "pagealloc", "host"):
        results.append(("host", [bench_host()]))
    # The page allocator in a small and a big guest: shuffle on, so the
    # boot's shuffle is timed (every struct page is written at boot), and
    # the default (deferred struct page init), for the boot's memory step.
    progress.section("pagealloc")
    if a.bench in ("all", "pagealloc"):
        pa = []
        for accel in accels:
            for mem in (a.mem, a.big_mem):
                for extra, what in (("page_alloc.shuffle=1", "shuffled"), ("", "default")):
                    print("bench: pagealloc under %s with %s, %s" % (accel.upper(), mem, what))
                    pa.append(("%s %s %s" % (accel, mem, what),
                               run("x86_64", accel, mem, "pagealloc", 1, extra=extra)))
        if not a.x86_only:
            for target in ("arm64-virt", "arm64-pi4"):
                print("bench: pagealloc on %s under TCG" % target)
                pa.append(("%s tcg" % target,
                           run(target, "tcg", a.mem, "pagealloc", 1, a.pi4_dtb,
                               extra="page_alloc.shuffle=1")))
        case_table("pagealloc: alloc/free cost and shuffle cost (ns per pair unless"
                   " stated; xN = ratio to the group's baseline in the same boot)",
                   "pagealloc", pa)
        results += pa
    # The block layer: fio's cases on null_blk, brd and any disk (bench block).
    progress.section("block")
    if a.bench in ("all", "block"):
        bl = []
        for target, accel in columns:
            print("bench: block on %s under %s" % (target, accel.upper()))
            bl.append(("%s %s" % (target, accel),
                       run(target, accel, a.mem, "block", 1, a.pi4_dtb,
                           disks=[scratch_disk()])))
        block_table(bl)
        results += bl
    # Bounce buffers, the dynamic-SWIOTLB seed's table: three boots per
    # target (base: the static pool; default: dynamic with the 64 MiB
    # pool; growing: dynamic from 1 MiB), every mapping bounced.
    # The seed's second table used a Pi 4's microSD; QEMU's raspi4b SD
    # hosts do no DMA, so the SD column is sdhci-pci on arm64 virt.
    progress.section("swiotlb")
    if a.bench in ("all", "swiotlb"):
        configs = (("base", "swiotlb=force swiotlb.dynamic=0"),
                   ("default", "swiotlb=force"), ("growing", "swiotlb=512,force"))
        targets = [(t, acc, "virtio") for t, acc in columns if t == "x86_64"]
        if not a.x86_only:
            targets.append(("arm64-virt", "tcg", "sdhci-pci"))
        for target, accel, bus in targets:
            got = {}
            for label, extra in configs:
                print("bench: swiotlb (%s) on %s %s under %s" % (label, target, bus,
                                                                 accel.upper()))
                boots = run(target, accel, a.mem, "swiotlb", 1, a.pi4_dtb,
                            extra=extra + " bench.swiotlb_rw=1",
                            disks=[scratch_disk(name="swiotlb64.img")], disk_bus=bus,
                            tag=label)
                results.append(("%s %s %s %s" % (target, accel, bus, label), boots))
                for recs in boots:
                    for r in recs:
                        got[(label, r["case"])] = r
            swiotlb_table("%s %s under %s" % (target, bus, accel.upper()), got)
    # The vDSO against the system call, and what a process costs (bench vdso,
    # user/vdsobench in each target's initramfs).
    progress.section("vdso")
    if a.bench in ("all", "vdso"):
        vd = []
        for target, accel in columns:
            print("bench: vdso on %s under %s" % (target, accel.upper()))
            vd.append(("%s %s" % (target, accel), run(target, accel, a.mem, "vdso", 1,
                                                      a.pi4_dtb)))
        vdso_table(vd)
        results += vd
    # What a process's life costs, beside Debian's Linux on the same QEMU
    # (bench mm; tools/linuxpeer.py boots Linux). TCG only: the peer is
    # measured under emulation, as Pagoda is.
    progress.section("mm")
    if a.bench in ("all", "mm"):
        mmr = []
        for target, accel in columns:
            if target == "arm64-pi4" or accel != "tcg":
                continue
            print("bench: mm on %s under %s, then Linux beside it" % (target, accel.upper()))
            mmr.append(mm_beside_linux(target, accel, a.mem))
        results.append(("mm", mmr))
    # Checkpoint/restore, the vDSO seed's table: legacy against kdat in one
    # boot, a busy loop and a 10-process tree (bench cr).
    progress.section("cr")
    if a.bench in ("all", "cr"):
        results += one_boot_each("cr", cr_table)
    # Hibernation's memory bitmap, the first seed's table: list against
    # radix tree over simulated memory up to 16 TiB on the host, then over
    # each guest's own memory (bench hibernate).
    progress.section("hibernate")
    if a.bench in ("all", "hibernate"):
        results.append(("host", [host_program("bench-hibernate",
                                              "memory bitmaps on the host, 1 GiB to 16 TiB")]))
        hb = []
        for target, accel in columns:
            mem = "4G" if target != "arm64-pi4" else a.mem
            print("bench: hibernate on %s under %s" % (target, accel.upper()))
            boots = run(target, accel, mem, "hibernate", 1, a.pi4_dtb)
            for recs in boots:
                for r in recs:
                    print("  %-12s %-4s %6d MiB: before %.1f ms%s, after %.1f ms: %.1fx" % (
                        target, accel, r["mib"], r["before_ns"] / 1e6,
                        " (scaled)" if r["before_scaled"] else "", r["after_ns"] / 1e6,
                        r["before_ns"] / max(r["after_ns"], 1)))
            hb.append(("%s %s" % (target, accel), boots))
        results += hb
        rows = []
        for target, accel in columns:
            if target == "arm64-pi4":  # QEMU's raspi4b SD hosts: PIO, too slow for an image
                continue
            print("bench: hibernate image on %s under %s" % (target, accel.upper()))
            rec = hibernate_image(target, accel, a.mem)
            if rec:
                rows.append(rec)
        hibernate_image_table(rows)
        results.append(("hibernate-image", [rows]))
    # dm-snapshot, the fine-grained locking seed's table: fio through
    # snapshot-origin and snapshot, the mutex and the fine scheme in one boot.
    progress.section("dmsnap")
    if a.bench in ("all", "dmsnap"):
        results += one_boot_each("dmsnap", dmsnap_table)
        # Issue 32 asks for the scaling with more CPUs than the host has
        # cores too: four virtual CPUs on x86-64 and arm64 virt.
        results += one_boot_each("dmsnap", dmsnap_table, smp=4)
    # The same fio job on the same images under Linux and Pagoda (issue 32).
    progress.section("dmsnap-linux")
    if a.bench in ("all", "dmsnap-linux") and "tcg" in accels:
        results.append(("dmsnap-linux", [dmsnap_beside_linux()]))
    # Debian's fio from user space beside the kernel's fio and Linux's (issue 35).
    progress.section("fio-user")
    if a.bench in ("all", "fio-user") and "tcg" in accels:
        results.append(("fio-user", [fiopeer.bench(OUT, scratch_disk())]))
    progress.done()
    with JsonLines(path, "bench") as out:
        for _, boots in results:
            for recs in boots:
                for r in recs:
                    line = out.write("bench", r)
                    if a.json:
                        print("BENCH " + line)

if __name__ == "__main__":
    main()
