#!/usr/bin/env python3
"""layers.py BUILD_DIR [PICTURE]: the call graph between the source files of seinstall, read from
the symbols of their objects (nm: what each defines, what each leaves undefined), checked
against the layers PICTURE (default: HACKING.md next to this tree) writes down
(tests/integration/layers.sh):
  - every file of the library (installer-plugin/lib) stands in exactly one layer of the
    picture, and every file the picture names exists;
  - a library file calls only files of its own layer or of a layer below it;
  - no cycle between files, in the library, the command (installer-plugin/cli) and the
    first-boot screen (firstboot): a file's calls go one way;
  - the library calls nothing of the front ends.
The picture is the first ``` block after the heading "## The layers": a line starting with one
space and a layer's name opens that layer, its own and the following lines name its files
(NAME.c, with * as a wildcard), the top layer first. Prints each violation with the symbols
that make it; exits 1 when there is one, 2 when the picture or the objects cannot be read."""
import collections, fnmatch, glob, os, re, subprocess, sys

build = sys.argv[1]
picture = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "HACKING.md")
PARTS = {"lib": "installer-plugin/lib", "cli": "installer-plugin/cli", "firstboot": "firstboot"}
LAYER_NAMES = ("front ends", "stages", "engines", "core", "util")
FILE_RE = re.compile(r"(?<![\w/*.-])([a-z][a-z0-9*-]*\.c)\b")


def read_layers(path):
    """[(layer, [patterns])], the top layer first, from the picture in @path."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"layers: cannot read {path}: {e.strerror}")
    m = re.search(r"^## The layers\n.*?^```\n(.*?)^```", text, re.S | re.M)
    if not m:
        sys.exit(f"layers: {path} has no picture under '## The layers'")
    layers = []
    for line in m.group(1).splitlines():
        opener = next((n for n in LAYER_NAMES if line.startswith(" " + n + " ")), None)
        if opener:
            layers.append((opener, []))
        if layers and layers[-1][0] != "front ends":
            layers[-1][1].extend(FILE_RE.findall(line))
    layers = [(n, p) for n, p in layers if n != "front ends"]
    if not layers:
        sys.exit(f"layers: the picture in {path} names no layer")
    return layers


def symbols(part):
    defs, uses = {}, collections.defaultdict(set)
    objs = sorted(glob.glob(os.path.join(build, PARTS[part], "*.o")))
    for o in objs:
        name = os.path.basename(o)[:-2] + ".c"
        out = subprocess.run(["nm", "-g", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in "TDBRCVW":
                defs[f[2]] = name
            elif len(f) == 2 and f[0] == "U":
                uses[name].add(f[1])
    return objs, defs, uses


def cycles(graph):
    """Tarjan's strongly connected components with more than one file."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def place(layers, files):
    """{file: (rank, layer)}, rank 0 the top; prints what is unplaced, twice placed or stale."""
    bad, rank = 0, {}
    for i, (name, patterns) in enumerate(layers):
        for pat in patterns:
            hits = [f for f in files if fnmatch.fnmatchcase(f, pat)]
            if not hits:
                bad += 1
                print(f"layers: the picture names {pat} in {name}, and no such file is built")
            for f in hits:
                if f in rank and rank[f][1] != name:
                    bad += 1
                    print(f"layers: {f} stands in two layers: {rank[f][1]} and {name}")
                rank.setdefault(f, (i, name))
    for f in sorted(set(files) - set(rank)):
        bad += 1
        print(f"layers: installer-plugin/lib/{f} stands in no layer of the picture")
    return bad, rank


layers = read_layers(picture)
bad = 0
front_defs = {}
lib = None
for part in PARTS:
    objs, defs, uses = symbols(part)
    if not objs:
        print(f"layers: no objects under {build}/{PARTS[part]}: build first")
        sys.exit(2)
    graph, why = collections.defaultdict(set), collections.defaultdict(set)
    for f, us in uses.items():
        for s in us:
            g = defs.get(s)
            if g and g != f:
                graph[f].add(g)
                why[(f, g)].add(s)
    edges = sum(len(v) for v in graph.values())
    found = cycles(graph)
    for comp in found:
        bad += 1
        print(f"layers: a cycle in {PARTS[part]}: {' '.join(comp)}")
        for f in comp:
            for g in sorted(graph[f]):
                if g in comp:
                    print(f"  {f} -> {g}: {' '.join(sorted(why[(f, g)]))}")
    print(f"layers: {PARTS[part]}: {len(objs)} files, {edges} calls between files, "
          f"{len(found)} cycles")
    if part == "lib":
        lib = (objs, uses, graph, why)
    else:
        front_defs.update(defs)

objs, uses, graph, why = lib
n_bad, rank = place(layers, [os.path.basename(o)[:-2] + ".c" for o in objs])
bad += n_bad
up = 0
for f in sorted(graph):
    for g in sorted(graph[f]):
        if f in rank and g in rank and rank[g][0] < rank[f][0]:
            up += 1
            print(f"layers: an upward call: {f} ({rank[f][1]}) -> {g} ({rank[g][1]}): "
                  f"{' '.join(sorted(why[(f, g)]))}")
bad += up
count = collections.Counter(n for _, n in rank.values())
print("layers: installer-plugin/lib: " +
      ", ".join(f"{name} {count[name]}" for name, _ in layers) + f" files; {up} upward calls")
for f, us in sorted(uses.items()):
    called = sorted(s for s in us if s in front_defs)
    if called:
        bad += 1
        print(f"layers: installer-plugin/lib/{f} calls a front end: {' '.join(called)}")
sys.exit(1 if bad else 0)
