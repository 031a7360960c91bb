#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Files and functions of src/ past the house's sizes: a file over 800 lines, or a function over
120 lines whose comment does not give a reason (a line of its comment starting "Long:").

    scripts/code_size.py [--root DIR] [--files N] [--function N]

A function is found the way the code is written: a definition that starts in the first column
and ends at the first line that is a lone "}" in the first column (members defined outside their
class included, lambdas and class bodies not). Prints each one past its size and exits 1 if any,
0 otherwise. Needs only Python 3.
"""

import argparse
import pathlib
import re
import sys

SOURCES = {".h", ".cpp", ".cu", ".cuh"}
START = re.compile(r"^[A-Za-z_][^;#/]*\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->[^{]*)?\{\s*$")


def long_functions(lines, limit):
    """(first line, length, name) of every function over `limit` lines without a reason."""
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        # A signature may span lines: join up to 4 lines ending in "{".
        if line and not line[0].isspace() and not line.startswith(("}", "namespace", "class", "struct",
                                                                    "enum", "template", "#", "//", "using")):
            joined, j = line, i
            while not joined.rstrip().endswith(("{", ";", "}")) and j + 1 < len(lines) and j - i < 4:
                j += 1
                joined += " " + lines[j].strip()
            if START.match(joined):
                end = j + 1
                while end < len(lines) and lines[end].rstrip() != "}":
                    end += 1
                length = end - i + 1
                comment = []
                k = i - 1
                while k >= 0 and lines[k].lstrip().startswith("//"):
                    comment.append(lines[k])
                    k -= 1
                if length > limit and not any("Long:" in c for c in comment):
                    found.append((i + 1, length, joined.split("(")[0].split()[-1]))
                i = end + 1
                continue
        i += 1
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    parser.add_argument("--files", type=int, default=800)
    parser.add_argument("--function", type=int, default=120)
    args = parser.parse_args()
    problems = 0
    for path in sorted((args.root / "src").rglob("*")):
        if path.suffix not in SOURCES or not path.is_file():
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        name = path.relative_to(args.root)
        if len(lines) - 1 > args.files:
            print(f"{name}: {len(lines) - 1} lines (more than {args.files})")
            problems += 1
        for first, length, function in long_functions(lines, args.function):
            print(f"{name}:{first}: {function} is {length} lines (more than {args.function}, no 'Long:' reason)")
            problems += 1
    print(f"code size: {problems} past the limits")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
