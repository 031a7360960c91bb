#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every relative link in the repository's Markdown resolves.

Reads README.md, CHANGELOG.md, docs/**/*.md and bench/results/*/NOTES.md (or the files named on the
command line), finds each Markdown link and image outside code, and checks that its target exists
relative to the file that holds it; a link with `#anchor` into a Markdown file must name one of its
headings (GitHub's heading ids). Links with a scheme (https:, mailto:) are not followed.
Prints one line per broken link and exits 1 if there is any, 0 otherwise.

    scripts/check_links.py [--root DIR] [FILE.md ...]
"""
import argparse
import pathlib
import re
import sys

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
DEFAULT_GLOBS = ["README.md", "CHANGELOG.md", "docs/**/*.md", "bench/results/*/NOTES.md"]


def unfenced_lines(text):
    """Yields (line number, line) for the lines outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield number, line


def prose(text):
    """The text with fenced code blanked and inline code spaced out, so that a link's text may run
    over a line break while line numbers stay those of the file."""
    lines = {n: INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line) for n, line in unfenced_lines(text)}
    return "\n".join(lines.get(number, "") for number in range(1, text.count("\n") + 2))


def heading_ids(path):
    """GitHub's ids of a Markdown file's headings: lower case, punctuation dropped, spaces to '-'."""
    ids, seen = set(), {}
    for _, line in unfenced_lines(path.read_text(encoding="utf-8")):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = re.sub(r"[^\w\- ]", "", match.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        ids.add(slug if count == 0 else f"{slug}-{count}")
    return ids


def broken_links(path, root):
    """The broken links of one Markdown file, as 'file:line: target (reason)' strings."""
    problems = []
    text = prose(path.read_text(encoding="utf-8"))
    for match in LINK.finditer(text):
        target = match.group(1)
        if SCHEME.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path.resolve()
        where = f"{path.relative_to(root)}:{text.count(chr(10), 0, match.start()) + 1}: {target}"
        if not resolved.exists():
            problems.append(f"{where} (no such file)")
        elif root not in resolved.parents and resolved != root:
            problems.append(f"{where} (outside the repository)")
        elif anchor and resolved.suffix == ".md" and anchor not in heading_ids(resolved):
            problems.append(f"{where} (no heading with that id)")
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.files:
        files = [f.resolve() for f in args.files]
    else:
        files = sorted({p.resolve() for pattern in DEFAULT_GLOBS for p in root.glob(pattern)})
    if not files:
        print(f"check_links: no Markdown files under {root}", file=sys.stderr)
        return 2
    problems = [p for f in files for p in broken_links(f, root)]
    for problem in problems:
        print(problem)
    print(f"check_links: {len(files)} files, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
