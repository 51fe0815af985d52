"""The one machine-readable result format: JSON lines.

Every tool writes one JSON object per line to build/<tool>/results.jsonl:
the harness one per test (kind "test"), `make bench` one per measurement
(kind "bench"), `make experiment` one per lab cell (kind "lab"). Each
object has "kind" and "tool"; the rest is the record's own. Keys are
sorted, so two runs diff line by line. Read one with:

    [json.loads(l) for l in open("build/bench/results.jsonl")]
"""
import json


class JsonLines:
    """Writes results as they come, so a run cut short keeps what it had."""

    def __init__(self, path, tool):
        self.path, self.tool = path, tool
        self.f = open(path, "w")

    def write(self, kind, record):
        rec = dict(record, kind=kind, tool=self.tool)
        line = json.dumps(rec, sort_keys=True)
        self.f.write(line + "\n")
        self.f.flush()
        return line

    def close(self):
        self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
