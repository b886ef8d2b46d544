#!/usr/bin/env python3
"""The size rules of the house: no source file over 700 lines before its tests, no function
over 120 lines. Checks every `.rs` file under `src/` and `crates/*/src/` (tests and benches
aside) and lists each offender; exits 1 if there is one.

    python3 scripts/sizes.py [--file-lines N] [--fn-lines N]

A file's length before its tests ends at its first top-level `#[cfg(test)]`. A function's
length runs from the line of `fn` to the line of its closing brace; braces inside strings,
characters and comments do not count.
"""
import argparse
import re
import sys
from pathlib import Path

FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def code_only(text):
    """`text` with the contents of comments, strings and char literals blanked (newlines
    kept), so that the braces left are the code's."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif (m := re.match(r'b?r(#*)"', text[i:])) and (i == 0 or not text[i - 1].isalnum()):
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i : j + 1]))
            i = j + 1
        elif c == "'" and (m := re.match(r"'(\\.[^']*|[^\\'])'", text[i:])):
            out.append(" " * m.end())
            i += m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(code):
    """(name, first line, line count) of every function with a body in `code`."""
    found = []
    for m in FN.finditer(code):
        # The body opens at the first `{` not preceded by a `;` (a declaration without body).
        j = m.end()
        depth_paren = 0
        while j < len(code):
            ch = code[j]
            if ch in "([<":
                depth_paren += 1
            elif ch in ")]>":
                depth_paren -= 1
            elif ch == ";" and depth_paren <= 0:
                j = -1
                break
            elif ch == "{" and depth_paren <= 0:
                break
            j += 1
        if j < 0 or j >= len(code):
            continue
        depth, k = 0, j
        while k < len(code):
            if code[k] == "{":
                depth += 1
            elif code[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, k) + 1
        found.append((m.group(1), first, last - first + 1))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file-lines", type=int, default=700)
    ap.add_argument("--fn-lines", type=int, default=120)
    args = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    files = sorted(root.glob("src/**/*.rs")) + sorted(root.glob("crates/*/src/**/*.rs"))
    bad = 0
    for path in files:
        text = path.read_text()
        lines = text.split("\n")
        before_tests = next(
            (i for i, l in enumerate(lines) if l.startswith("#[cfg(test)]")), len(lines)
        )
        rel = path.relative_to(root)
        if before_tests > args.file_lines:
            print(f"{rel}: {before_tests} lines before its tests (at most {args.file_lines})")
            bad += 1
        for name, first, count in functions(code_only(text)):
            if count > args.fn_lines:
                where = "test " if first > before_tests else ""
                print(f"{rel}:{first}: {where}fn {name} is {count} lines (at most {args.fn_lines})")
                bad += 1
    print(f"{len(files)} files, {bad} over the limits")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
