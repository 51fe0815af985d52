#!/usr/bin/env python3
"""Debian's Linux beside Pagoda, in the same QEMU (pagoda.linuxpeer).

    tools/linuxpeer.py fetch [--arch ARCH]   download and unpack the kernel
    tools/linuxpeer.py mm [--arch ARCH]      mmbench five times on Linux
    tools/linuxpeer.py dmsnap                issue 32's dm-snapshot fio job on Linux
    tools/linuxpeer.py dmioctl               record what Debian's dmsetup prints on Linux
                                             for tests/levels/dmioctl.py (a test fixture)
    tools/linuxpeer.py overcommit            record Linux's answers to `oomtest commit`
                                             under vm.overcommit_memory=2 (a test fixture)

`make bench BENCH=mm` and `make bench BENCH=dmsnap` run Linux and Pagoda
and print both in one table; this runs the Linux side alone. Standard
library only.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pagoda import linuxpeer, paths  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("job", choices=("fetch", "mm", "dmsnap", "overcommit", "dmioctl"))
    ap.add_argument("--arch", choices=sorted(linuxpeer.ARCHES), default="x86_64")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    if a.runs < 1:
        ap.error("--runs wants at least 1")
    try:
        if a.job == "fetch":
            print(linuxpeer.fetch(a.arch))
        elif a.job == "mm":
            target = "x86_64-pc" if a.arch == "x86_64" else "arm64-virt"
            runs, failures = linuxpeer.mm(a.arch, os.path.join(paths.BUILD, target, "user",
                                                               "mmbench"), a.runs)
            for line in failures:
                print(line)
            print("\n".join(linuxpeer.mm_table("mm on Linux %s (%s), TCG" % (
                a.arch, linuxpeer.kernel_version(a.arch)), [], runs)))
        elif a.job == "dmioctl":
            print(linuxpeer.dmioctl(a.arch))
        elif a.job == "overcommit":
            print(linuxpeer.overcommit(a.arch))
        elif a.job == "dmsnap":
            got = linuxpeer.dmsnap(a.arch, linuxpeer.dmsnap_plan(runs=a.runs))
            for jobs, iops in sorted(got.items()):
                med, spread = linuxpeer.median_spread(iops)
                print("dm-snapshot origin randwrite, %d job%s: %.0f IOPS (spread x%.2f; runs %s)"
                      % (jobs, "" if jobs == 1 else "s", med, spread,
                         ", ".join("%.0f" % x for x in iops)))
    except linuxpeer.PeerError as e:
        sys.exit("linuxpeer: %s" % e)


if __name__ == "__main__":
    main()
