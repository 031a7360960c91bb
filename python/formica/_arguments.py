# SPDX-License-Identifier: MIT
"""Checks of the public functions' arguments, made before anything reaches the core: a value of the
wrong type raises TypeError (a bool or 1.5 for a count, a number for a name), one the core could
not even receive raises ValueError (a seed of -1 or 2**64, a size of 10**30), each naming the
keyword. Ranges that depend on nothing but the value are the core's to check (its messages, in
Python's spelling, say the same as the command line's); these checks make sure the value gets there.
"""

from __future__ import annotations

import math
import os
from typing import Any, Optional, Union

import numpy as np

#: What a path may be: text, bytes (any file name the system allows) or an os.PathLike.
PATH_TYPES = (str, bytes, os.PathLike)

INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
UINT64 = (0, 2**64 - 1)


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _shown(value: Any) -> str:
    """`value` for a message: its repr, cut short when it is long."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def whole_number(name: str, value: Any, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """`value` as an int: an int or NumPy integer, or a float with no fraction (3.0). TypeError for
    a bool, a fraction (1.5) or anything else; ValueError outside [low, high]."""
    if _is_bool(value):
        raise TypeError(f"{name} must be a whole number, not a bool ({value!r})")
    if isinstance(value, (int, np.integer)):
        number = int(value)
    elif isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
        number = int(value)
    elif isinstance(value, (float, np.floating)):
        raise TypeError(f"{name} must be a whole number, got {_shown(value)}")
    else:
        raise TypeError(f"{name} must be a whole number, got {_shown(value)} ({type(value).__name__})")
    if low is not None and number < low:
        raise ValueError(f"{name} must be at least {low}, got {number}")
    if high is not None and number > high:
        raise ValueError(f"{name} must be at most {high}, got {_shown(number)}")
    return number


def real_number(name: str, value: Any) -> float:
    """`value` as a finite float: an int, a float or a NumPy number. TypeError for a bool or
    anything else; ValueError for nan, an infinity or an int too large for a float."""
    if _is_bool(value) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {_shown(value)} ({type(value).__name__})")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{name} is out of range, got {_shown(value)}") from None
    if math.isnan(number):
        raise ValueError(f"{name} must be a number, got nan")
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {number}")
    return number


def flag(name: str, value: Any) -> bool:
    """`value` as a bool: True or False (NumPy's too); TypeError for anything else."""
    if not _is_bool(value):
        raise TypeError(f"{name} must be True or False, got {_shown(value)} ({type(value).__name__})")
    return bool(value)


def text(name: str, value: Any) -> str:
    """`value`, a str the core can take (UTF-8, no NUL); TypeError for anything else."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {_shown(value)} ({type(value).__name__})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{name} is not valid text (it holds a lone surrogate): {_shown(value)}") from None
    if "\0" in value:
        raise ValueError(f"{name} holds a NUL character: {_shown(value)}")
    return value


def core_path(name: str, value: Any) -> bytes:
    """A file name as the core takes it: its bytes (os.fsencode), so that any name the system
    allows reaches the file, UTF-8 or not. TypeError for what is not a path; ValueError for a
    name with a NUL byte, or a str that no encoding turns into a file name."""
    if not isinstance(value, PATH_TYPES):
        raise TypeError(f"{name} must be a path (str, bytes or os.PathLike), got {type(value).__name__}")
    try:
        path = os.fsencode(value)
    except UnicodeEncodeError:
        raise ValueError(f"{name} {_shown(value)} is not a file name this system can encode") from None
    if b"\0" in path:
        raise ValueError(f"{name} {_shown(value)} holds a NUL byte, which no file name has")
    return path


def path_text(path: Union[str, bytes, os.PathLike[Any]]) -> str:
    """A path as text for suffixes and names (bytes that are not UTF-8 kept as os.fsdecode keeps them)."""
    return os.fsdecode(path)


def parameter(name: str, value: Any, kind: str) -> Any:
    """A solver or batch parameter given by keyword, checked by the kind of its default (`kind`:
    "integer", "number", "boolean", "text" or "null"). Text is passed on for the core to read as
    the command line does (gpus="all", k_swap="inf"); any other value must be of the kind."""
    if isinstance(value, str):
        return text(name, value)
    if kind == "integer":
        return whole_number(name, value)
    if kind == "number":
        return real_number(name, value)
    if kind == "boolean":
        return flag(name, value)
    if kind == "text":
        return text(name, value)
    if _is_bool(value) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number or text, got {_shown(value)} ({type(value).__name__})")
    return value
