#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The floor plan of src/ as an include graph: which room (folder under src/, and python/src as
the Python front end) includes which, and a check that no include runs up a floor and no rooms
include each other in a cycle.

    scripts/include_graph.py [--root DIR] [--quiet]

Prints every room-to-room edge with its number of includes, then the violations, if any. Exits 1
on an upward edge, a cycle, or a room the plan below does not place (a new folder must be given a
floor here), 0 otherwise. Needs only Python 3; reads the sources, builds nothing.
"""

import argparse
import collections
import pathlib
import re
import sys

# Top to bottom. Rooms on one floor may include each other as long as no cycle forms.
FLOORS = [
    ("front ends", ["cli", "python"]),
    ("batch solver", ["batch"]),
    ("solver", ["solver"]),
    ("hybrid", ["hybrid"]),
    ("searches", ["aco", "population", "decomposition"]),
    ("moves and bounds", ["localsearch", "bounds"]),
    ("foundations", ["core", "io", "cuda", "distributed"]),
]
FLOOR_OF = {room: level for level, (_, rooms) in enumerate(FLOORS) for room in rooms}
SOURCES = {".h", ".cpp", ".cu", ".cuh"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/', re.MULTILINE)


def rooms_of(root):
    """(room, path) for every source file of src/ and python/src."""
    for folder, room_of in ((root / "src", None), (root / "python" / "src", "python")):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix in SOURCES and path.is_file():
                room = room_of or path.relative_to(folder).parts[0]
                if room_of is None and len(path.relative_to(folder).parts) == 1:
                    continue  # files directly in src/ (none today) belong to no room
                yield room, path


def edges_of(root):
    edges = collections.Counter()
    rooms = set()
    for room, path in rooms_of(root):
        rooms.add(room)
        for target in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
            if (root / "src" / target).is_dir() and target != room:
                edges[(room, target)] += 1
                rooms.add(target)
    return rooms, edges


def cycles_of(rooms, edges):
    """The strongly connected components of more than one room (Tarjan)."""
    graph = collections.defaultdict(list)
    for a, b in edges:
        graph[a].append(b)
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(rooms):
        if v not in index:
            visit(v)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent, type=pathlib.Path)
    parser.add_argument("--quiet", action="store_true", help="print only the violations")
    args = parser.parse_args()
    rooms, edges = edges_of(args.root)
    problems = []
    for room in sorted(rooms - FLOOR_OF.keys()):
        problems.append(f"room {room}/ has no floor in scripts/include_graph.py's plan")
    for (a, b), count in sorted(edges.items()):
        if a in FLOOR_OF and b in FLOOR_OF and FLOOR_OF[a] > FLOOR_OF[b]:
            problems.append(f"upward: {a}/ ({FLOORS[FLOOR_OF[a]][0]}) includes {b}/ ({FLOORS[FLOOR_OF[b]][0]}) "
                            f"{count} time(s)")
    for component in cycles_of(rooms, edges):
        problems.append("cycle among " + ", ".join(room + "/" for room in component))
    if not args.quiet:
        for level, (name, floor) in enumerate(FLOORS):
            print(f"{name}:")
            for (a, b), count in sorted(edges.items()):
                if a in floor:
                    print(f"  {a} -> {b} ({count})")
    for problem in problems:
        print("include graph:", problem, file=sys.stderr)
    if not problems:
        print(f"include graph: {len(rooms)} rooms, {len(edges)} edges, none upward, no cycle")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
