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


# --- the docs' identifiers and paths exist ----------------------------------

# Headings under which names may be of things that do not exist (yet).
FREE_HEADING = re.compile(r"not |missing|linux|going further|yet\b|exercises|ideas", re.I)
# A paragraph that speaks of Linux or QEMU may name their code.
FOREIGN = re.compile(r"\bLinux\b|\bQEMU's\b")
IDENT = re.compile(r"^([a-z_][A-Za-z0-9_]*)(\(\))?$")
PATH_FILE = re.compile(r"^[\w.-]+\.(c|h|S|asm|py|md|ld|sh|mk)$")
PATH = re.compile(r"^[a-z][\w.-]*(/[\w.-]+)+/?$")
# <!-- not in the tree: a b c --> in a page lets it name a, b and c.
ALLOWED = re.compile(r"<!--\s*not in the tree:([^>]*)-->")


def tree_text():
    """(every tracked path, the text of every source file, basenames)."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                           text=True).stdout.split()
    parts = []
    for f in files:
        if f.endswith((".c", ".h", ".S", ".asm", ".py", ".ld", ".mk", ".sh")) or \
                os.path.basename(f) == "Makefile":
            with open(os.path.join(ROOT, f), errors="replace") as fh:
                parts.append(fh.read())
    return files, "\n".join(parts), {os.path.basename(f) for f in files}


def doc_spans(path):
    """(line number, `span`) for the backticked spans of a page that must
    name real things: outside code blocks, outside sections about what is
    missing or about Linux, outside paragraphs that speak of Linux or QEMU."""
    with open(path) as f:
        lines = f.read().split("\n")
    free, block, para = False, False, []

    def flush():
        if para and not FOREIGN.search(" ".join(l for _, l in para)):
            for n, l in para:
                for span in re.findall(r"`([^`]+)`", l):
                    yield n, span

    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            block = not block
            continue
        if block or line.startswith("    ") and not line.lstrip().startswith(("-", "*")):
            continue
        if line.startswith("#"):
            yield from flush()
            para, free = [], bool(FREE_HEADING.search(line))
            continue
        if not line.strip() or line.lstrip().startswith(("- ", "* ", "| ")) or \
                re.match(r"^\s*\d+\. ", line):
            yield from flush()
            para = []
        if line.strip() and not free:
            para.append((n, line))
    yield from flush()


@unit("docs-identifiers", "host")
def docs_identifiers(ctx):
    """every backticked identifier and path in docs/ exists in the tree"""
    files, text, bases = tree_text()
    tracked = set(files)
    pages = sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    missing = 0
    for page in pages:
        rel = os.path.relpath(page, ROOT)
        with open(page) as f:
            allowed = set(" ".join(ALLOWED.findall(f.read())).split())
        for n, span in doc_spans(page):
            if span in allowed:
                continue
            m = IDENT.match(span)
            if m and ("_" in span or m.group(2)):
                ok = m.group(1) in text
            elif PATH_FILE.match(span):
                ok = span in bases
            elif PATH.match(span) and not span.startswith("build/"):
                s = span.rstrip("/")
                ok = (s in tracked or any(f.startswith(s + "/") or f.endswith("/" + s)
                                          for f in files) or
                      os.path.exists(os.path.join(os.path.dirname(page), s)))
            else:
                continue
            if not ok:
                missing += 1
                ctx.tally.check("docs:name:%s:%d:%s" % (rel, n, span), False,
                                "%s:%d names `%s`, which is nowhere in the tree (fix the "
                                "page, or say it is Linux's, or list it in a `<!-- not in "
                                "the tree: ... -->` comment)" % (rel, n, span))
        # C in code blocks: its identifiers with an underscore must exist too.
        for n, word in code_identifiers(page):
            if word not in text and word not in allowed:
                missing += 1
                ctx.tally.check("docs:code:%s:%d:%s" % (rel, n, word), False,
                                "%s:%d: the example's `%s` is nowhere in the tree (use "
                                "in-tree code, or say it is Linux's)" % (rel, n, word))
    ctx.tally.check("docs:names", missing == 0, "%d names in docs/ not in the tree" % missing)


def code_identifiers(path):
    """(line, identifier) for lower-case identifiers with an underscore on
    the C lines (ending in ; { or }, or using ->) of a page's code blocks,
    unless the block's paragraph above says it is Linux's."""
    block, foreign, prev = False, False, ""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("```"):
                block = not block
                foreign = block and bool(FOREIGN.search(prev))
                continue
            code = block or line.startswith("    ") or line.startswith("\t")
            if not code:
                if line.strip():
                    prev = line
                continue
            s = line.strip()
            if foreign or not (s.endswith((";", "{", "}")) or "->" in s):
                continue
            for w in re.findall(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b", s):
                yield n, w


# The folders that hold a mechanism and its tests, and nothing that only
# drives or measures it: those live in shell/ and bench/ (docs/architecture.md).
MECHANISM_DIRS = ("block", "block/dm", "block/partitions", "dma", "mm", "kernel/power",
                  "kernel/cr")
TOOL_FILE = re.compile(r"([\w-]*[_-](cmds|bench)|bench_[\w-]+|fio|dmsetup|dmtorture)\.[ch]$")
LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


@unit("tree-layout", "host")
def tree_layout(ctx):
    """mechanism folders hold no shell tool or bench; no one includes a driver's private header"""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                           text=True).stdout.split()
    bad = 0
    for f in files:
        if os.path.dirname(f) in MECHANISM_DIRS and TOOL_FILE.search(os.path.basename(f)):
            bad += 1
            ctx.tally.check("layout:tool:%s" % f, False,
                            "%s is a shell command or a bench inside a mechanism's folder: "
                            "it belongs in shell/ or bench/" % f)
    for f in files:
        # A shell command registered inside a mechanism's file (the course's
        # lab runner, mm/lab/, stays with its lab).
        if (os.path.dirname(f) in MECHANISM_DIRS and f.endswith(".c") and
                not f.startswith("mm/lab/")):
            with open(os.path.join(ROOT, f), errors="replace") as fh:
                if "SHELL_CMD(" in fh.read():
                    bad += 1
                    ctx.tally.check("layout:shell-cmd:%s" % f, False,
                                    "%s registers a shell command: the mechanism keeps "
                                    "its print function, shell/ the command" % f)
    seen = 0
    for f in files:
        if not f.endswith((".c", ".h")) or f.startswith(("tests/", "labs/", "user/")):
            continue
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            incs = LOCAL_INCLUDE.findall(fh.read())
        for inc in incs:
            seen += 1
            target = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            inverted = f.startswith("dma/") and target.startswith("block/")
            private = target.startswith("drivers/") and not f.startswith("drivers/")
            if inverted or private:
                bad += 1
                ctx.tally.check("layout:include:%s:%s" % (f, inc), False,
                                "%s includes %s: %s" % (
                                    f, target, "dma/ sits below block/" if inverted else
                                    "a driver's private header (give what others need "
                                    "an include/pagoda/ header)"))
    ctx.tally.check("layout:includes-found", seen > 50,
                    "found only %d local includes: has the tree moved?" % seen)
    ctx.tally.check("layout", bad == 0, "%d files out of place or reaching too far" % bad)


# A number a page (or a comment) states that the code defines carries a
# `value:` note naming the constants it follows from, e.g.
#   <!-- value: 64 GiB = BM_BITS_PER_BLOCK * PAGE_SIZE * BM_ENTRIES_PER_LEVEL -->
# The check evaluates the right side from the tree's #defines, compares it
# with the left, and requires the left as written in the note's paragraph.
VALUE_NOTE = re.compile(r"value:\s*([\d.]+\s*(?:[KMGTPE]iB)?)\s*=\s*([A-Za-z0-9_ ()*/+<>-]+?)"
                        r"\s*(?:-->|\*/|;|$)", re.M)
DEFINE = re.compile(r"^\s*#\s*define\s+([A-Z][A-Z0-9_]*)\s+([^\n]+?)\s*(?:/[*/].*)?$", re.M)
UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
         "EiB": 1 << 60}


def tree_defines():
    """NAME -> the text of its first object-like #define in include/ and the
    C sources (both architectures are 64-bit: unsigned long is 8 bytes)."""
    files = subprocess.run(["git", "ls-files", "*.h", "*.c"], cwd=ROOT, capture_output=True,
                           text=True).stdout.split()
    defs = {}
    for f in sorted(files, key=lambda f: not f.startswith("include/")):
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            for name, body in DEFINE.findall(fh.read()):
                defs.setdefault(name, body)
    return defs


def eval_constant(expr, defs, depth=0):
    """The integer value of a C constant expression over #defines; None if
    it is not one this simple evaluator understands."""
    if depth > 12:
        return None
    expr = expr.replace("sizeof(unsigned long)", "8").replace("sizeof(long)", "8")

    def name(m):
        n = m.group(0)
        if n not in defs:
            raise KeyError(n)
        v = eval_constant(defs[n], defs, depth + 1)
        if v is None:
            raise KeyError(n)
        return "(%d)" % v
    try:
        expr = re.sub(r"\b[A-Z][A-Z0-9_]*\b", name, expr)
    except KeyError:
        return None
    expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)(?:ULL|UL|LL|U|L)\b", r"\1", expr)
    expr = re.sub(r"\(\s*(?:unsigned\s+)?(?:long|int|u64|u32)\s*\)", "", expr)
    if not re.fullmatch(r"[\dxa-fA-F ()*/+<>-]+", expr):
        return None
    try:
        v = eval(expr.replace("/", "//"), {"__builtins__": {}})  # digits and operators only
    except Exception:
        return None
    return v if isinstance(v, int) else None


def stated_value(text):
    m = re.fullmatch(r"([\d.]+)\s*([KMGTPE]iB)?", text.strip())
    return int(float(m.group(1)) * UNITS.get(m.group(2), 1)) if m else None


def value_notes(path):
    """(line, stated text, expression, the note's paragraph without notes)."""
    with open(path, errors="replace") as f:
        text = f.read()
    # Paragraphs: blank lines in a page; in C, a comment's block of lines.
    for m in VALUE_NOTE.finditer(text):
        start = text.rfind("\n\n", 0, m.start()) + 1
        end = text.find("\n\n", m.end())
        para = re.sub(r"<!--.*?-->|value:[^\n]*", " ", text[start:end if end >= 0 else None],
                      flags=re.S)
        para = re.sub(r"\s+", " ", para.replace("*", " "))
        yield text.count("\n", 0, m.start()) + 1, m.group(1).strip(), m.group(2).strip(), para


@unit("docs-numbers", "host")
def docs_numbers(ctx):
    """numbers docs/ and comments state carry a `value:` note; each agrees with the code"""
    defs = tree_defines()
    files = subprocess.run(["git", "ls-files", "docs/*.md", "docs/**/*.md", "*.c", "*.h"],
                           cwd=ROOT, capture_output=True, text=True).stdout.split()
    notes = bad = 0
    for rel_path in sorted(set(files)):
        path = os.path.join(ROOT, rel_path)
        with open(path, errors="replace") as f:
            if "value:" not in f.read():
                continue
        for n, said, expr, para in value_notes(path):
            notes += 1
            want, got = stated_value(said), eval_constant(expr, defs)
            where = "%s:%d" % (rel_path, n)
            if want is None or got is None:
                why = "cannot read the note `value: %s = %s` (a number with KiB..EiB, " \
                      "= #defined constants and + - * / << >>)" % (said, expr)
            elif want != got:
                why = "the note says %s, but %s is %d (%s)" % (said, expr, got, human(got))
            elif not re.search(r"(?<![\d.])" + re.escape(said).replace(r"\ ", r"\s*") +
                               r"(?![\d.])", para):
                why = "the note's %s is not what its paragraph states" % said
            else:
                continue
            bad += 1
            ctx.tally.check("docs:value:%s" % where, False, "%s: %s" % (where, why))
    ctx.tally.check("docs:values-found", notes > 0, "no `value:` notes found: has the tree moved?")
    ctx.tally.check("docs:values", bad == 0, "%d of %d stated values disagree with the code"
                    % (bad, notes))


def human(v):
    for u in ("EiB", "PiB", "TiB", "GiB", "MiB", "KiB"):
        if v >= UNITS[u] and v % UNITS[u] == 0:
            return "%d %s" % (v // UNITS[u], u)
    return str(v)
