"""Host level: the README cannot drift. Every make command line it shows
must be one make accepts (its targets exist, its knobs are valid), every
shell command it shows must be one the kernel registers, and every page
in docs/ must be named in it."""
import glob
import os
import re
import shlex
import subprocess

from .common import ROOT, unit

README = os.path.join(ROOT, "README.md")


def code_lines(text):
    """The README's indented code lines (four spaces), comments dropped."""
    for line in text.splitlines():
        if line.startswith("    ") and line.strip():
            yield line.strip()


def shell_commands():
    """{name: usage} for every SHELL_CMD() in the tree."""
    cmds = {}
    for path in glob.glob(os.path.join(ROOT, "**", "*.c"), recursive=True):
        if os.sep + "build" + os.sep in path:
            continue
        with open(path, errors="replace") as f:
            for m in re.finditer(r'SHELL_CMD\((\w+),\s*"([^"]*)"', f.read()):
                cmds[m.group(1)] = m.group(2)
    return cmds


def _literal_words(usage):
    """The words a command takes after its name, if they are a fixed set
    (`pagealloc [check|drain]`); None if it takes anything (`test [suite...]`)."""
    rest = usage.split(None, 1)[1] if " " in usage else ""
    words = set()
    for w in re.split(r"[\s\[\]|]+", rest):
        if not w:
            continue
        if w.endswith("...") or "=" in w or w.isupper() or w in ("name", "suite"):
            return None
        words.add(w)
    return words


def make_env():
    """A clean environment for make: not the outer make's jobserver."""
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(k, None)
    return env


@unit("readme-make", "host")
def readme_make(ctx):
    """every `make ...` line the README shows is one make accepts (make -n)"""
    with open(README) as f:
        lines = [l.split("#")[0].strip() for l in code_lines(f.read())]
    seen = 0
    for line in lines:
        if not line.startswith("make ") and line != "make":
            continue
        seen += 1
        argv = shlex.split(line)
        r = subprocess.run(argv[:1] + ["-n", "--no-print-directory"] + argv[1:], cwd=ROOT,
                           env=make_env(), capture_output=True, text=True, timeout=120)
        why = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
        ctx.tally.check("readme:make:%s" % " ".join(argv[1:]), r.returncode == 0,
                        "README.md shows `%s`, and make says: %s" % (line, why))
    ctx.tally.check("readme:make-lines-found", seen >= 5,
                    "found %d make lines in README.md: has its layout changed?" % seen)


@unit("readme-shell", "host")
def readme_shell(ctx):
    """every shell command the README's tour shows is registered (SHELL_CMD)"""
    cmds = shell_commands()
    with open(README) as f:
        text = f.read()
    seen = 0
    for line in code_lines(text):
        if not line.startswith("pagoda> "):
            continue
        shown, _, desc = line[len("pagoda> "):].partition("  ")
        # "ps | cpus" shows two commands; `bootmem` in the description is one too.
        for cmd in [c.strip() for c in shown.split(" | ")] + re.findall(r"`([^`=]+)`", desc):
            words = cmd.split()
            if not words or not re.fullmatch(r"[a-z][a-z0-9_]*", words[0]):
                continue
            seen += 1
            ok, why = words[0] in cmds, "no shell command named %s" % words[0]
            if ok and len(words) > 1 and not words[1].startswith("["):
                allowed = _literal_words(cmds[words[0]])
                if allowed is not None and words[1] not in allowed:
                    ok, why = False, "%s takes %s" % (words[0], cmds[words[0]])
            ctx.tally.check("readme:shell:%s" % cmd, ok,
                            "README.md shows `%s`: %s" % (cmd, why))
    ctx.tally.check("readme:shell-lines-found", seen >= 5,
                    "found %d shell commands in README.md: has its layout changed?" % seen)


@unit("readme-docs", "host")
def readme_docs(ctx):
    """every page in docs/ is named in the README's layout"""
    with open(README) as f:
        text = f.read()
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        name = os.path.basename(path)
        ctx.tally.check("readme:docs:%s" % name, name in text,
                        "docs/%s is not named in README.md (Layout, docs/)" % name)
