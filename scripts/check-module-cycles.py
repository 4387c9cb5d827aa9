#!/usr/bin/env python3
"""Lists import cycles between the modules of each crate of the workspace; exits 1 if any.

A cycle is two or more sibling modules that use each other, directly or through a chain
(`factory` uses `tesla` and `tesla` uses `factory`). A module using its own parent or child
is containment, not a cycle; a use of a cousin module is lifted to the two siblings under
their common ancestor (a use of `crate::a::x` from `crate::b::y` is an edge `a -> b` among the
children of the crate root). Re-exports are followed: `crate::Tesla`, re-exported by
`pub use tesla::Tesla` or `pub use tesla::*`, counts as a use of module `tesla`.

Usage: scripts/check-module-cycles.py [--verbose] [CRATE_DIR ...]   (default: crates/*)
"""

import re
import sys
from pathlib import Path

ITEM = re.compile(r"^\s*pub(?:\([^)]*\))?\s+(?:unsafe\s+)?(?:async\s+)?(?:fn|struct|enum|trait|type|const|static|mod|union)\s+(\w+)", re.M)
MOD_DECL = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", re.M)
USE_STMT = re.compile(r"\b(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.S)
PATH_EXPR = re.compile(r"\b((?:crate|super|self)(?:\s*::\s*\w+)+)")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+\w+\s*\{")


def strip_comments_and_strings(src):
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    src = re.sub(r'r#*"(?:.|\n)*?"#*', '""', src)
    src = re.sub(r'"(?:\\.|[^"\\])*"', '""', src)
    return src


def strip_test_modules(src):
    """Drops `#[cfg(test)] mod x { ... }` blocks: tests may use anything."""
    out, i = [], 0
    for m in TEST_MOD.finditer(src):
        if m.start() < i:
            continue
        out.append(src[i:m.start()])
        depth, j = 1, m.end()
        while j < len(src) and depth:
            depth += {"{": 1, "}": -1}.get(src[j], 0)
            j += 1
        i = j
    out.append(src[i:])
    return "".join(out)


def expand_use_tree(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (aliases and globs kept)."""
    tree = re.sub(r"\s+", "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += ch == "{"
            depth -= ch == "}"
            cur += ch
        if cur:
            parts.append(cur)
        return parts

    def rec(s):
        k = s.find("{")
        if k < 0:
            return [s]
        prefix, inner = s[:k], s[k + 1:s.rfind("}")]
        out = []
        for part in split_top(inner):
            for leaf in rec(part):
                out.append(prefix + leaf if leaf != "self" else prefix.rstrip(":"))
        return out

    return [p for p in rec(tree) if p]


class Crate:
    def __init__(self, root):
        self.root = root
        self.name = root.name
        self.files = {}  # module path tuple -> source
        src = root / "src"
        entry = src / "lib.rs" if (src / "lib.rs").exists() else src / "main.rs"
        if entry.exists():
            self._load((), entry)

    def _load(self, module, path):
        text = strip_test_modules(strip_comments_and_strings(path.read_text(encoding="utf-8")))
        self.files[module] = text
        if path.name in ("lib.rs", "main.rs", "mod.rs"):
            base = path.parent
        else:
            base = path.parent / path.stem
        for m in MOD_DECL.finditer(text):
            name = m.group(1)
            for cand in (base / f"{name}.rs", base / name / "mod.rs"):
                if cand.exists():
                    self._load(module + (name,), cand)
                    break

    def is_module(self, path):
        return tuple(path) in self.files

    def exports(self, module):
        """name -> module path that defines it, for `pub use` re-exports of `module`."""
        out = {}
        text = self.files.get(module, "")
        for m in USE_STMT.finditer(text):
            stmt = m.group(0)
            if not stmt.lstrip().startswith("pub"):
                continue
            for leaf in expand_use_tree(m.group(1)):
                alias = None
                if "as" in leaf.split("::")[-1] and "as" in leaf:
                    leaf, alias = leaf.rsplit("as", 1)
                segs = [s for s in leaf.split("::") if s]
                target = self.resolve(module, segs, follow=False)
                if target is None:
                    continue
                tmod, rest = target
                if rest == ["*"]:
                    for item in ITEM.findall(self.files.get(tmod, "")):
                        out.setdefault(item, tmod)
                elif rest:
                    out[alias or rest[-1]] = tmod
        return out

    def resolve(self, module, segs, follow=True):
        """Module a path points into, plus the unresolved tail; None when outside the crate."""
        if not segs:
            return None
        if segs[0] == "crate":
            cur, segs = (), segs[1:]
        elif segs[0] in ("super", "self"):
            cur = module
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    cur = cur[:-1]
                segs = segs[1:]
        elif self.is_module(module + (segs[0],)):
            cur = module  # 2018 uniform paths: a child module named directly
        else:
            return None
        while segs and self.is_module(cur + (segs[0],)):
            cur = cur + (segs[0],)
            segs = segs[1:]
        if follow and segs and segs[0] != "*":
            seen = {cur}
            while True:
                nxt = self._exports_cache(cur).get(segs[0])
                if nxt is None or nxt in seen:
                    break
                seen.add(nxt)
                cur = nxt
        return cur, segs

    def _exports_cache(self, module):
        if not hasattr(self, "_ex"):
            self._ex = {}
        if module not in self._ex:
            self._ex[module] = {}
            self._ex[module] = self.exports(module)
        return self._ex[module]

    def edges(self):
        """(from_module, to_module) pairs between distinct, non-nested modules."""
        out = {}
        for module, text in self.files.items():
            paths = []
            for m in USE_STMT.finditer(text):
                for leaf in expand_use_tree(m.group(1)):
                    leaf = leaf.split("as")[0] if re.search(r"\bas\b", leaf) else leaf
                    paths.append([s for s in leaf.split("::") if s])
            for m in PATH_EXPR.finditer(text):
                paths.append([s.strip() for s in m.group(1).split("::")])
            for segs in paths:
                r = self.resolve(module, segs)
                if r is None:
                    continue
                target = r[0]
                if target == module or target[: len(module)] == module or module[: len(target)] == target:
                    continue  # self, child, or ancestor
                k = 0
                while k < min(len(module), len(target)) and module[k] == target[k]:
                    k += 1
                a, b = module[: k + 1], target[: k + 1]
                out.setdefault((a, b), set()).add((module, target))
        return out


def sccs(nodes, adj):
    index, low, stack, on, res, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                strong(w)
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
                res.append(sorted(comp))

    for v in nodes:
        if v not in index:
            strong(v)
    return res


def fmt(m):
    return "::".join(("crate",) + m)


def main(argv):
    verbose = "--verbose" in argv
    dirs = [Path(a) for a in argv if not a.startswith("--")] or sorted(Path("crates").glob("*/"))
    sys.setrecursionlimit(10000)
    found = 0
    for d in dirs:
        crate = Crate(d)
        if not crate.files:
            continue
        edges = crate.edges()
        adj, nodes = {}, set()
        for (a, b) in edges:
            adj.setdefault(a, set()).add(b)
            nodes.update((a, b))
        cycles = sccs(sorted(nodes), adj)
        status = "no module cycles" if not cycles else f"{len(cycles)} cycle(s)"
        print(f"{crate.name}: {len(crate.files)} modules, {status}")
        for comp in cycles:
            found += 1
            print("  cycle: " + " <-> ".join(fmt(m) for m in comp))
            members = set(comp)
            for (a, b), why in sorted(edges.items()):
                if a in members and b in members:
                    for src, dst in sorted(why)[: 3 if not verbose else None]:
                        print(f"    {fmt(a)} -> {fmt(b)}   ({fmt(src)} uses {fmt(dst)})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
