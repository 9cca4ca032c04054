#!/usr/bin/env python3
"""layers.py BUILD_DIR: the call graph between the source files of seinstall, read from the
symbols of their objects (nm: what each defines, what each leaves undefined), and two rules
checked on it (tests/integration/layers.sh):
  - no cycle between files, in the library (installer-plugin/lib), the command
    (installer-plugin/cli) and the first-boot screen (firstboot): a file's calls go one way;
  - the library calls nothing of the front ends.
Prints each violation with the symbols that make it; exits 1 when there is one."""
import collections, glob, os, subprocess, sys

build = sys.argv[1]
PARTS = {"lib": "installer-plugin/lib", "cli": "installer-plugin/cli", "firstboot": "firstboot"}


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


bad = 0
front_defs = {}
lib_uses = None
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
    for comp in cycles(graph):
        bad += 1
        print(f"layers: a cycle in {PARTS[part]}: {' '.join(comp)}")
        for f in comp:
            for g in sorted(graph[f]):
                if g in comp:
                    print(f"  {f} -> {g}: {' '.join(sorted(why[(f, g)]))}")
    print(f"layers: {PARTS[part]}: {len(objs)} files, {edges} calls between files, "
          f"{len(cycles(graph))} cycles")
    if part == "lib":
        lib_uses = uses
    else:
        front_defs.update(defs)
for f, us in sorted(lib_uses.items()):
    up = sorted(s for s in us if s in front_defs)
    if up:
        bad += 1
        print(f"layers: installer-plugin/lib/{f} calls a front end: {' '.join(up)}")
sys.exit(1 if bad else 0)
