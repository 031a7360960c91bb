# SPDX-License-Identifier: MIT
"""Progress shown on stderr while the core runs: tqdm when it is installed, one line rewritten in
place otherwise. solve_batch counts instances solved; solve follows the best length."""

from __future__ import annotations

import sys
from typing import Any, Union


class _Line:
    """tqdm if it can be imported when the first report comes, a line rewritten in place otherwise."""

    def __init__(self, unit: str) -> None:
        self._unit = unit
        self._tqdm: Any = None
        self._shown = False

    def _start(self, total: Any) -> None:
        self._shown = True
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self._tqdm = tqdm(total=total, unit=self._unit, desc="formica", file=sys.stderr)

    def _write(self, text: str) -> None:
        sys.stderr.write("\rformica: " + text)
        sys.stderr.flush()

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


class BatchBar(_Line):
    """solve_batch's bar: instances solved of the batch."""

    def __init__(self) -> None:
        super().__init__("instance")

    def __call__(self, done: int, total: int, seconds: float) -> None:
        if not self._shown:
            self._start(total)
        if self._tqdm is not None:
            self._tqdm.update(done - self._tqdm.n)
            return
        self._write(f"{done}/{total} instances solved, {seconds:.1f} s")


class ImprovementBar(_Line):
    """solve's bar: a count of improvements with the best length and the seconds so far."""

    def __init__(self) -> None:
        super().__init__("improvement")

    def __call__(self, length: Union[int, float], seconds: float) -> None:
        if not self._shown:
            self._start(None)
        text = str(length) if isinstance(length, int) else f"{length:.10g}"
        if self._tqdm is not None:
            self._tqdm.set_postfix_str(f"best {text} at {seconds:.2f} s", refresh=False)
            self._tqdm.update(1)
            return
        self._write(f"best length {text} at {seconds:.2f} s")
