#!/usr/bin/env python3
"""References that must resolve inside the repository; tests/integration/docs-links.sh runs it.

doc-refs.py ROOT FILE...   (FILE relative to ROOT: the tracked files)
SEINSTALL_DOC_REFS_SKIP="FILE..." lists files that count as present but are not searched.

Prints one line per dangling reference, "FILE:LINE: what", and exits 1 if there is any:
- in every file: a citation of a place outside the repository (the parent directory's shared/
  folder, a development machine's /work/ tree) or of a Markdown file that is not in the tree
  (a name with a slash is looked up from ROOT and from the file's directory, a bare name
  anywhere in the tree);
- in README.md, HACKING.md, docs/*.md and installer-plugin/adapters/*/README.md (the guides):
  a relative Markdown link whose file does not exist, or whose
  #anchor is no heading of its target; an inline code span naming a repository path (first
  component a top-level entry of the tree, or lib/, cli/, include/, adapters/ of
  installer-plugin/; or a bare source file name such as walk.c) that matches nothing.
In a path, a "*" is a glob and an upper-case word (NAME, N, FILE) is a placeholder.
"""
import fnmatch
import os
import re
import sys

ROOT = sys.argv[1]
FILES = sorted(set(sys.argv[2:]))
PLUGIN_DIRS = ("lib", "cli", "include", "adapters")
SOURCE_EXT = (".c", ".h", ".sh", ".py", ".sym")
problems = []


def problem(path, lineno, what):
    problems.append(f"{path}:{lineno}: {what}")


def read_text(path):
    try:
        with open(os.path.join(ROOT, path), "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data:
        return None  # binary (an image)
    return data.decode("utf-8", "replace")


# Every path of the tree, and every directory holding one, for globbing and bare names.
ALL = set(FILES)
for f in FILES:
    d = os.path.dirname(f)
    while d:
        ALL.add(d + "/")
        d = os.path.dirname(d)
BASENAMES = {os.path.basename(f) for f in FILES}
TOP = {f.split("/", 1)[0] for f in FILES}


def pattern_of(path):
    """A path as an fnmatch pattern: placeholders (NAME, N, FILE-like words) become *."""
    return re.sub(r"(?<![A-Za-z0-9])[A-Z][A-Z0-9_]*(?![a-z0-9])", "*", path)


def exists(path):
    """Whether a repository path (relative to ROOT, "dir/" for a directory) matches the tree."""
    path = os.path.normpath(path) + ("/" if path.endswith("/") else "")
    if path in ALL or path + "/" in ALL:
        return True
    pat = pattern_of(path)
    if pat == path and "*" not in path and "?" not in path:
        return False
    return any(fnmatch.fnmatchcase(p, pat) or fnmatch.fnmatchcase(p, pat + "/") for p in ALL)


# ---- citations of files outside the repository, in every file --------------------------------

OUTSIDE = re.compile(r"\.\./shared\b|/work/(?:shared|main|wt)\b")
MD_NAME = re.compile(r"(?<![A-Za-z0-9_./$%{}-])([A-Za-z0-9_.][A-Za-z0-9_./-]*\.md)(?![A-Za-z0-9_])")

SKIP = set(os.environ.get("SEINSTALL_DOC_REFS_SKIP", "").split())
for path in FILES:
    if path in SKIP:
        continue
    text = read_text(path)
    if text is None:
        continue
    here = os.path.dirname(path)
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in OUTSIDE.finditer(line):
            problem(path, lineno, f"cites {m.group(0)}, outside the repository")
        for m in MD_NAME.finditer(line):
            name = m.group(1).rstrip(".")
            if not name.endswith(".md"):
                continue
            if "/" in name:
                ok = exists(name) or exists(os.path.join(here, name))
            else:
                ok = name in BASENAMES
            if not ok:
                problem(path, lineno, f"cites {name}, which the repository does not have")

# ---- README.md, HACKING.md, docs/*.md, the guides: links and code spans ---------------------


def slugs_of(path):
    """The anchors GitHub gives the headings of a Markdown file."""
    text = read_text(path) or ""
    seen, out = {}, set()
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        s = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f"{s}-{n}")
    return out


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")

def check_word(path, lineno, word):
    """A word of a code span: a repository path, a plug-in path or a source file name."""
    word = word.rstrip(".:")
    if not word or word.startswith(("/", "$", "-", "~", "http")):
        return
    first = word.split("/", 1)[0]
    if "/" in word and first in TOP:
        if not exists(word):
            problem(path, lineno, f"names `{word}`, which the repository does not have")
    elif "/" in word and first in PLUGIN_DIRS and word.endswith(SOURCE_EXT):
        if not exists("installer-plugin/" + word):
            problem(path, lineno, f"names `{word}`, not in installer-plugin/")
    elif "/" not in word and word.endswith(SOURCE_EXT) and re.fullmatch(r"[\w*.-]+", word):
        if not any(fnmatch.fnmatchcase(b, pattern_of(word)) for b in BASENAMES):
            problem(path, lineno, f"names `{word}`, no file of that name in the repository")


def check_link(path, lineno, target):
    if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
        return
    here = os.path.dirname(path)
    file, _, anchor = target.partition("#")
    dest = os.path.normpath(os.path.join(here, file)) if file else path
    if file and not exists(dest + ("/" if file.endswith("/") else "")):
        problem(path, lineno, f"links {target}: no such file in the repository")
    elif anchor and dest.endswith(".md") and anchor not in slugs_of(dest):
        problem(path, lineno, f"links {target}: {dest} has no heading #{anchor}")


DOCS = (r"README\.md", r"HACKING\.md", r"docs/[^/]+\.md", r"installer-plugin/adapters/[^/]+/README\.md")
docs = [f for f in FILES if any(re.fullmatch(d, f) for d in DOCS)]
for path in docs:
    # Fenced blocks hold commands and output, not references: blanked, lines kept. Code spans
    # and links may run over a line break, so the text is searched whole.
    lines, fenced = [], False
    for line in (read_text(path) or "").split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            line = ""
        lines.append("" if fenced else line)
    body = "\n".join(lines)

    def lineno_at(pos):
        return body.count("\n", 0, pos) + 1

    for m in SPAN.finditer(body):
        for word in re.split(r"[\s,;()=\"']+", m.group(1)):
            check_word(path, lineno_at(m.start()), word)
    # Links outside code spans only; the spans' text is blanked, line breaks kept.
    prose = SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), body)
    for m in LINK.finditer(prose):
        check_link(path, lineno_at(m.start()), m.group(1))

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
