#!/usr/bin/env python3
"""Run every libFuzzer target for a set time and print one table.

    tools/fuzz-report.py SECONDS [--corpus DIR] [--seeds DIR|--no-seeds] [TARGET...]

Each target runs SECONDS (one at a time, one process) on its corpus,
DIR/<target> (build/fuzz/<target> from `make fuzz-report`): new inputs
are kept there, so a second run starts where the first stopped. Its seed
corpus (build/fuzz-seeds/<target>, tools/fuzz-seeds.py) and its
dictionary (tests/host/dict/<target>.dict) are given too unless
--no-seeds. The table: runs (libFuzzer's executed units), edges (the
coverage counter `cov:` of its last line), the corpus's files after the
run, and crashes (inputs libFuzzer wrote to DIR/<target>-artifacts in this
run: crash-, leak-, timeout-, oom-). A target that crashes stops there
(libFuzzer's rule); the input is kept and the exit status is 1.
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from pagoda import fuzzing, paths  # noqa: E402

TARGETS = fuzzing.TARGETS


def last(rx, text, default="?"):
    found = re.findall(rx, text)
    return found[-1] if found else default


def run_one(name, exe, max_len, seconds, corpus_root, seeds_root, log_dir):
    corpus = os.path.join(corpus_root, name)
    artifacts = os.path.join(corpus_root, name + "-artifacts") + "/"
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    before = set(os.listdir(artifacts))
    cmd = [exe, "-max_total_time=%d" % seconds, "-max_len=%d" % max_len, "-timeout=10",
           "-print_final_stats=1", "-artifact_prefix=" + artifacts, corpus]
    if seeds_root:
        seeds = os.path.join(seeds_root, name)
        if os.path.isdir(seeds):
            cmd.append(seeds)
        d = os.path.join(ROOT, "tests", "host", "dict", name + ".dict")
        if os.path.exists(d):
            cmd.insert(1, "-dict=" + d)
    log = os.path.join(log_dir, "fuzz-%s.log" % name)
    start = time.time()
    with open(log, "w") as f:
        # The wall clock's bound: libFuzzer checks its own between inputs.
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                           timeout=seconds + 120)
    text = open(log, errors="replace").read()
    crashes = sorted(set(os.listdir(artifacts)) - before)
    return {
        "target": name,
        "runs": last(r"stat::number_of_executed_units: (\d+)", text),
        "edges": last(r"cov: (\d+)", text),
        "corpus": len(os.listdir(corpus)),
        "crashes": len(crashes),
        "status": p.returncode,
        "seconds": time.time() - start,
        "log": paths.rel(log),
        "artifacts": [os.path.join(artifacts, c) for c in crashes],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seconds", type=int)
    ap.add_argument("--corpus", default=os.path.join(paths.BUILD, "fuzz"))
    ap.add_argument("--seeds", default=os.path.join(paths.BUILD, "fuzz-seeds"))
    ap.add_argument("--no-seeds", action="store_true")
    ap.add_argument("targets", nargs="*")
    a = ap.parse_args()
    chosen = [t for t in TARGETS if not a.targets or t[0] in a.targets]
    log_dir = os.path.join(a.corpus, "logs")
    os.makedirs(log_dir, exist_ok=True)
    rows, load = [], " ".join(open("/proc/loadavg").read().split()[:3])
    for name, binary, max_len in chosen:
        exe = paths.host_bin(binary)
        if not os.path.exists(exe):
            print("fuzz-report: %s is not built" % exe, file=sys.stderr)
            return 2
        print("  FUZZ    %-12s %d s" % (name, a.seconds), flush=True)
        rows.append(run_one(name, exe, max_len, a.seconds, a.corpus,
                            None if a.no_seeds else a.seeds, log_dir))
    print()
    print("%d s per target, %s; load average %s at the start, %s at the end (%d CPUs)" % (
        a.seconds, "no seeds" if a.no_seeds else "seeds and dictionaries", load,
        " ".join(open("/proc/loadavg").read().split()[:3]), os.cpu_count()))
    print("| target | runs | edges | corpus files | crashes |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print("| %s | %s | %s | %d | %d |" % (r["target"], r["runs"], r["edges"], r["corpus"],
                                            r["crashes"]))
    bad = [r for r in rows if r["crashes"] or r["status"]]
    for r in bad:
        print("fuzz-report: %s stopped with status %d (log %s) %s"
              % (r["target"], r["status"], r["log"], " ".join(r["artifacts"])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
