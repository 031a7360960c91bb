#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""scripts/check_links.py on small made-up trees (links that resolve, links that do not, links in
code, anchors), then on the repository itself: every relative link of its Markdown resolves."""

import contextlib
import importlib.util
import io
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("check_links", ROOT / "scripts" / "check_links.py")
check_links = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_links)


def run(root, *files):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = check_links.main(["--root", str(root), *map(str, files)])
    return code, out.getvalue().splitlines()


class CheckLinks(unittest.TestCase):
    def tree(self, files):
        work = tempfile.TemporaryDirectory()
        self.addCleanup(work.cleanup)
        root = Path(work.name).resolve() / "repo"   # the tree's files may name ../outside.md
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        return root

    def test_links_that_resolve_pass(self):
        root = self.tree({
            "README.md": "See [a page](docs/a.md), [its part](docs/a.md#two-words), ![pic](docs/p.svg),\n"
                         "[the web](https://example.org) and [here](#formica).\n\n# formica\n",
            "docs/a.md": "# A\n\n## Two words\n\n## The `--flag` option\n\nBack to [the readme](../README.md)\n"
                         "and [the option](#the---flag-option).\n",
            "docs/p.svg": "<svg/>",
        })
        self.assertEqual(run(root), (0, []))

    def test_a_missing_file_an_unknown_anchor_and_a_link_outside_fail(self):
        root = self.tree({
            "README.md": "[gone](docs/missing.md) and [part](docs/a.md#nowhere)\n\nA [link over\ntwo lines](b.md).\n",
            "docs/a.md": "# A\n\n[up](../../outside.md)\n",
            "../outside.md": "",
        })
        code, lines = run(root)
        self.assertEqual(code, 1)
        self.assertEqual(len(lines), 4, lines)
        self.assertIn("README.md:3: b.md (no such file)", lines)
        self.assertIn("README.md:1: docs/missing.md (no such file)", lines)
        self.assertIn("README.md:1: docs/a.md#nowhere (no heading with that id)", lines)
        self.assertIn("docs/a.md:3: ../../outside.md (outside the repository)", lines)

    def test_links_inside_code_are_not_links(self):
        root = self.tree({"README.md": "`[x](nothing.md)`\n\n```\n[y](nothing.md)\n```\n"})
        self.assertEqual(run(root), (0, []))

    def test_the_repository_links_resolve(self):
        code, lines = run(ROOT)
        self.assertEqual(code, 0, "\n".join(lines))


if __name__ == "__main__":
    unittest.main()
