#!/usr/bin/env python3
"""Checks that every module of each crate appears in its README's module table; exits 1 if not.

A crate's modules are the files under its `src/` (`lib.rs`, `main.rs` and `build.rs` aside):
`engine/mod.rs` is module `engine`, `engine/apps.rs` module `engine/apps`. A README's module
tables are its Markdown tables whose first header cell is `module` (or `modules`).
Backticked names in a table count:

- a top-level module `a` is named in the first column, as `a`, `a.rs`, `a/` or `a/mod.rs`;
- a nested module `a/b` is named in the first column as `a/b`, `a/b.rs`, `a/b/` or `a::b`,
  or as `b` (also `b.rs`, `b/`) anywhere in a row whose first column names its parent `a`
  (the `scenario/` row may list its `mobility`, `radio`, ... modules in its description);
- a table whose first header cell is `file` lists the files every directory module has
  (v2x-protocols: each protocol's `config.rs`, `wire.rs`, ...): `a/b` is named when `b` is
  in its first column and `a/` in a module table's.

Every crate with a `src/` must have a README with a module table.

Usage: scripts/check-module-tables.py [--verbose] [CRATE_DIR ...]   (default: crates/*)
"""

import re
import sys
from pathlib import Path

TICKS = re.compile(r"`([^`]+)`")
SKIP = {"lib.rs", "main.rs", "build.rs"}


def modules(src):
    """Module paths of a crate's src/ ('a', 'a/b', ...)."""
    out = []
    for f in sorted(src.rglob("*.rs")):
        rel = f.relative_to(src)
        if len(rel.parts) == 1 and rel.name in SKIP:
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "mod":
            parts.pop()
        out.append("/".join(parts))
    return out


def tables(readme):
    """The rows of every module table, (first-column names, all names in the row), and the
    names in the first column of the per-directory `file` tables."""
    rows, files, kind, header = [], set(), None, False
    for line in readme.splitlines():
        if not line.lstrip().startswith("|"):
            kind = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if kind is None:
            first = cells[0].lower()
            kind = "module" if first in ("module", "modules") else "file" if first == "file" else "other"
            header = True
            continue
        if header:  # the |---| line
            header = False
            continue
        if kind == "module":
            rows.append(({norm(n) for n in names(cells[0])}, {norm(n) for c in cells for n in names(c)}))
        elif kind == "file":
            files |= {norm(n) for n in names(cells[0])}
    return rows, files


def names(cell):
    """Backticked names of a cell, each split on commas and spaces."""
    return [n for t in TICKS.findall(cell) for n in re.split(r"[,\s]+", t) if n]


def norm(name):
    """`a::b`, `a/b.rs`, `a/b/`, `a/b/mod.rs` all as `a/b`."""
    name = name.replace("::", "/").removeprefix("src/").removeprefix("crate/")
    name = re.sub(r"/mod\.rs$", "", name)
    return name.removesuffix(".rs").rstrip("/")


def covered(module, rows, files):
    parent, _, leaf = module.rpartition("/")
    for first, every in rows:
        if module in first:
            return True
        if parent and parent in first and (leaf in every or leaf in files):
            return True
    return False


def main(argv):
    verbose = "--verbose" in argv
    dirs = [Path(a) for a in argv if not a.startswith("--")] or sorted(Path("crates").glob("*/"))
    missing = 0
    for crate in dirs:
        src = crate / "src"
        if not src.is_dir():
            continue
        readme = crate / "README.md"
        rows, files = tables(readme.read_text()) if readme.exists() else ([], set())
        if not rows:
            print(f"{crate}: no README.md with a module table")
            missing += 1
            continue
        absent = [m for m in modules(src) if not covered(m, rows, files)]
        for m in absent:
            print(f"{crate}: module `{m}` is not in README.md's module table")
        missing += len(absent)
        if verbose and not absent:
            print(f"{crate}: every module in the table")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
