# SPDX-License-Identifier: MIT
"""python -m formica: a thin command line over the formica package, for where the package is
installed (``pip install .`` or a wheel) but the C++ ``formica`` command is not.

    python -m formica solve FILE [--time-limit S] [--seed N] [--backend auto|cpu|cuda] [--tour-out F]
    python -m formica solve --cities N [--kind uniform|clustered] [--instance-seed S] [...]
    python -m formica info        # version, and whether the CUDA backend is compiled in and has a device
    python -m formica --version

``solve`` takes every solver parameter ``formica solve`` takes (``python -m formica solve --help``),
with the same default seed (1), and prints the same one-line summary. Errors print one line,
"formica: error: ...", and exit with 2 (bad input) or 3 (out of memory), as ``formica`` does.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn, Optional, Sequence

import numpy as np

import formica
from formica import _core
from formica._messages import command_line_spelling

COMMAND_LINE_SEED = "1"  # the C++ command line's default seed (SolverConfig::seed)


class _Parser(argparse.ArgumentParser):
    """Reports a bad command line in one line and exits with 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"formica: error: {message} (see python -m formica --help)\n")
        raise SystemExit(2)


def _parser() -> _Parser:
    parser = _Parser(
        prog="python -m formica", description="formica: a GPU solver for the symmetric TSP", allow_abbrev=False
    )
    parser.add_argument("--version", action="version", version=f"formica {formica.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{solve,info}")
    commands.add_parser("info", help="version and backends (CUDA compiled in, device present, default)")
    solve = commands.add_parser("solve", help="solve a TSPLIB file or a generated instance", allow_abbrev=False)
    solve.add_argument("instance", nargs="?",
                       help="TSPLIB .tsp file, or a TSPLIB name (in $FORMICA_TSPLIB_DIR/tsp or shipped with formica)")
    solve.add_argument("--cities", type=int, help="solve a generated instance of this many cities instead")
    solve.add_argument("--kind", default="uniform", help="generated instance: uniform or clustered [uniform]")
    solve.add_argument("--instance-seed", type=int, default=1, help="generated instance's seed [1]")
    solve.add_argument("--initial-tour", metavar="FILE", help="start from this TSPLIB .tour file")
    solve.add_argument("--tour-out", metavar="FILE", help="write the best tour as a TSPLIB .tour file")
    for name, text in formica.parameters().items():
        solve.add_argument("--" + name.replace("_", "-"), dest=f"parameter_{name}", metavar="VALUE", help=text)
    return parser


def _summary(result: formica.Result) -> str:
    """The line ``formica solve`` prints at the end of a run."""
    gap = "" if result.gap is None else f"  gap {result.gap:.2f}%"
    return (
        f"{result.instance}: best {result.length}{gap} after {result.iterations} iterations in "
        f"{result.seconds:.2f} s, {result.config['algorithm']} on {result.backend} ({result.device}, "
        f"stopped by {result.stop_reason})"
    )


def _checked_outputs(args: argparse.Namespace) -> Optional[_core.CheckedOutputs]:
    """--tour-out checked before any work by formica's rules (a file that can be written, not an
    input, a FIFO with a reader, held open until written); None without it."""
    if args.tour_out is None:
        return None
    inputs = [("the instance", os.fsencode(args.instance))] if args.instance is not None else []
    if args.initial_tour is not None:
        inputs.append(("--initial-tour", os.fsencode(args.initial_tour)))
    # `--initial-tour a.tour --tour-out a.tour` continues a run, as formica's does.
    return _core.CheckedOutputs([("--tour-out", os.fsencode(args.tour_out))], inputs, "--tour-out", "--initial-tour")


def _solve(args: argparse.Namespace) -> int:
    if (args.instance is None) == (args.cities is None):
        raise ValueError("give an instance file or --cities N (one of them)")
    outputs = _checked_outputs(args)
    instance = (
        formica.read_tsplib(args.instance)
        if args.instance is not None
        else formica.generate(args.cities, args.kind, args.instance_seed)
    )
    prefix = "parameter_"
    params: dict[str, Any] = {
        key[len(prefix) :]: value
        for key, value in vars(args).items()
        if key.startswith(prefix) and value is not None
    }
    params.setdefault("seed", COMMAND_LINE_SEED)
    initial = None if args.initial_tour is None else formica.read_tour(args.initial_tour)
    try:
        result = formica.solve(instance, initial_tour=initial, **params)
        code = 0
    except KeyboardInterrupt as interrupt:
        result = getattr(interrupt, "result", None)
        if result is None:
            raise
        code = 130
    on_stdout = outputs is not None and outputs.is_stdout(0)
    if outputs is not None:
        sys.stdout.flush()  # the tour goes to the descriptor itself
        outputs.write_tour(0, result.instance, np.asarray(result.tour, dtype=np.int32), "")
    # With the tour on stdout (--tour-out /dev/stdout) the summary goes to stderr, as formica's does.
    print(_summary(result), file=sys.stderr if on_stdout else sys.stdout)
    return code


def _info() -> int:
    backends = formica.backend_info()
    if not backends["cuda_compiled"]:
        cuda = "not compiled in (nvcc was not found when this build was made)"
    elif backends["cuda_device"] is None:
        cuda = "compiled in; no CUDA device or driver found"
    else:
        cuda = f"compiled in; device {backends['cuda_device']}"
    print(f"formica {formica.__version__} ({formica.__file__})")
    print(f"CUDA backend: {cuda}")
    print(f"default backend: {backends['default']}")
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    spelling = command_line_spelling.set(True)  # errors name --options here, as formica's do
    try:
        return _solve(args) if args.command == "solve" else _info()
    except (ValueError, TypeError, OSError) as error:
        sys.stderr.write(f"formica: error: {error}\n")
        return 2
    except MemoryError as error:
        sys.stderr.write(f"formica: out of memory: {error}\n")
        return 3
    finally:
        command_line_spelling.reset(spelling)


if __name__ == "__main__":
    sys.exit(main())
