"""Proptest's regression seeds are real past failures: this checks they sit where proptest reads
them, in one layout, so none is silently skipped (four files were, after the core's tests moved
into one binary and proptest looked for their seeds elsewhere).

usage: python3 scripts/proptest-regressions.py

The layout: each crate keeps every seed file under `proptest-regressions/` at its root,
- `src/a/b.rs`'s in `proptest-regressions/a/b.txt` (proptest's default for unit tests),
- `tests/it/x.rs`'s in `proptest-regressions/tests/it/x.txt` (set by
  `common::proptest_cases`, which every property test in `tests/` uses).
It fails on a seed file elsewhere, one whose source file is gone or has no property test, and
a property test in `tests/` that does not use `proptest_cases`.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SKIP = {"target", ".git", "node_modules"}


def files(top):
    for p in sorted(top.rglob("*")):
        if p.is_file() and not SKIP & set(p.relative_to(ROOT).parts):
            yield p


def main():
    crates = [ROOT] + sorted(p.parent for p in ROOT.glob("crates/*/Cargo.toml"))
    problems, seeds = [], 0
    for p in files(ROOT):
        rel = p.relative_to(ROOT)
        crate = next(c for c in reversed(crates) if p.is_relative_to(c))
        home = crate / "proptest-regressions"
        stray = p.suffix == ".proptest-regressions" or "proptest-regressions" in rel.parts[:-1]
        if stray and not p.is_relative_to(home):
            problems.append(f"{rel}: seeds outside {home.relative_to(ROOT)}/, the one place for them")
            continue
        if not p.is_relative_to(home):
            continue
        inner = p.relative_to(home).with_suffix(".rs")
        source = crate / inner if inner.parts[0] == "tests" else crate / "src" / inner
        if not source.is_file():
            problems.append(f"{rel}: no {source.relative_to(ROOT)} to replay these seeds")
        elif "proptest!" not in source.read_text():
            problems.append(f"{rel}: {source.relative_to(ROOT)} has no property test")
        else:
            seeds += sum(1 for line in p.read_text().splitlines() if line.startswith("cc "))
    for crate in crates:
        for p in files(crate / "tests"):
            if p.suffix != ".rs":
                continue
            text = p.read_text()
            blocks = len(re.findall(r"\bproptest!\s*\{", text))
            configured = len(re.findall(r"proptest_config\(crate::common::proptest_cases\(", text))
            if blocks != configured:
                problems.append(
                    f"{p.relative_to(ROOT)}: {blocks} property tests, {configured} with "
                    "#![proptest_config(crate::common::proptest_cases(N))]: the others' seeds "
                    "would go to tests/proptest-regressions/"
                )
    if problems:
        print("proptest-regressions: FAIL:\n  " + "\n  ".join(problems))
        sys.exit(1)
    print(f"proptest-regressions: {seeds} seeds, each where its test replays it")


if __name__ == "__main__":
    main()
