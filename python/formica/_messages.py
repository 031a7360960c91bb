# SPDX-License-Identifier: MIT
"""Messages in Python's spelling: the core words its errors for the command line ("--time-limit");
from Python they name the keyword instead ("time_limit")."""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import functools
import re
from collections.abc import Iterable, Iterator

#: A command-line option as the core's messages spell it (--time-limit, --k-swap), with its value
#: where one follows: a number or a placeholder ("--gpus 2", "--islands N") or a word ending a
#: clause ("--host-search eax: ...").
_OPTION = re.compile(r"--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?: (-?[0-9][0-9.e+-]*|[A-Z]\b|[a-z0-9][a-z0-9.-]*(?=:)))?")
#: The list of valid parameter names the core appends to "unknown parameter" messages.
_VALID_NAMES = re.compile(r"\(valid: ([a-z0-9, -]+)\)")


def _keyword(match: re.Match[str]) -> str:
    name, value = match.group(1).replace("-", "_"), match.group(2)
    if value is None:
        return name
    if value[0].isdigit() or value[0] == "-" or value.isupper():
        return f"{name}={value}"
    return f"{name}={value!r}"


@functools.lru_cache(maxsize=1)
def _bare_names() -> re.Pattern[str]:
    """The parameters' names as the core spells them without dashes ("ls-neighbours is ...")."""
    from . import _core

    names = {name for name, _ in [*_core.parameters(), *_core.batch_parameters()] if "_" in name}
    hyphenated = sorted((name.replace("_", "-") for name in names), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, hyphenated)) + r")(?![\w-])")


def python_spelling(message: str) -> str:
    """`message` with every --option-name as the keyword option_name (with "=value" where the
    message gives one: "--gpus 2" becomes "gpus=2"), and a parameter's name without dashes too."""
    message = _OPTION.sub(_keyword, message)
    message = _bare_names().sub(lambda m: m.group(1).replace("-", "_"), message)
    if re.match(r"unknown (batch )?parameter", message):
        message = _VALID_NAMES.sub(lambda m: "(valid: " + m.group(1).replace("-", "_") + ")", message)
    return message


#: True while ``python -m formica`` runs: a command line keeps the command line's spelling.
command_line_spelling: contextvars.ContextVar[bool] = contextvars.ContextVar("command_line_spelling", default=False)


@contextlib.contextmanager
def python_messages() -> Iterator[None]:
    """Re-raises the core's ValueErrors in Python's spelling (other exceptions pass unchanged)."""
    if command_line_spelling.get():
        yield
        return
    try:
        yield
    except ValueError as error:
        message = str(error)
        spelled = python_spelling(message)
        if spelled == message:
            raise
        raise ValueError(spelled) from None


def check_names(given: Iterable[str], known: Iterable[str]) -> None:
    """ValueError naming the first keyword of `given` not in `known`, the closest known names and
    all of them (in the order of `known`)."""
    known = list(known)
    for name in given:
        if name in known:
            continue
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise ValueError(f"unknown parameter '{name}' (valid: {', '.join(known)}){hint}")
