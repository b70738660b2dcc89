"""Fixed-length list options (Xanadu ``sale_bonus``, Forwarder ``space_resources``, ``interim_vp``, ...):
a wrong length is said as "expects 4 integers (one per colour: ...), got 3" instead of pydantic's
per-index "required key is missing".

A game marks such an option with a fixed-length ``tuple[...]`` annotation (optionally ``| None``)
and says what one item stands for with ``Field(json_schema_extra={"per": "colour: brown, ..."})``;
an item that is itself a fixed tuple may name itself with ``"items": "(1st, 2nd) VP pairs"``.
"""

from __future__ import annotations

import types
import typing
from typing import Any

_NOUNS = {int: "integers", float: "numbers", bool: "true/false values", str: "names"}


def fixed_length(annotation: Any) -> tuple[int, Any] | None:
    """``(length, item annotation)`` of ``tuple[X, X, X]`` or ``tuple[X, X, X] | None``; None for any
    other annotation (``tuple[int, ...]`` has no fixed length)."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return next((found for a in args if (found := fixed_length(a)) is not None), None)
    if origin is tuple and args and Ellipsis not in args:
        return len(args), args[0]
    return None


def _noun(item: Any, extra: dict) -> str:
    if "items" in extra:
        return extra["items"]
    inner = fixed_length(item)
    if inner is not None:
        return f"lists of {inner[0]} {_NOUNS.get(inner[1], 'values')}"
    return _NOUNS.get(item, "values")


def _parts(info: Any) -> tuple[int, str, str] | None:
    """``(length, noun of the items, what one item stands for or "")`` of a fixed-length option."""
    shape = fixed_length(info.annotation)
    if shape is None:
        return None
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    return shape[0], _noun(shape[1], extra), extra.get("per", "")


def shape_text(info: Any) -> str | None:
    """``"4 integers, one per colour: brown, ..."`` for a fixed-length option's field, else None
    (``sim list options``)."""
    parts = _parts(info)
    if parts is None:
        return None
    n, noun, per = parts
    return f"{n} {noun}" + (f", one per {per}" if per else "")


def length_problem(info: Any, value: Any) -> str | None:
    """What is wrong with the length of ``value`` (a list) for a fixed-length option, or of one of
    its items when they are fixed-length lists too; None when the lengths are right or not fixed."""
    parts = _parts(info)
    if parts is None or not isinstance(value, (list, tuple)):
        return None
    n, noun, per = parts
    if len(value) != n:
        return f"expects {n} {noun}" + (f" (one per {per})" if per else "") + f", got {len(value)}"
    inner = fixed_length(fixed_length(info.annotation)[1])
    for i, v in enumerate(value):
        if inner is not None and isinstance(v, (list, tuple)) and len(v) != inner[0]:
            return f"item {i + 1} expects {inner[0]} {_NOUNS.get(inner[1], 'values')}, got {len(v)} ({v})"
    return None


def short_lists(doc: Any, model: Any, options: dict, problems: list[str]) -> list[str]:
    """The keys of ``options`` (a config's ``options:``) whose list has the wrong length for the
    game's options ``model``; each problem appended with the file, line and key (``doc.where``)."""
    bad = []
    for key, value in options.items():
        problem = length_problem(model.model_fields[key], value) if key in model.model_fields else None
        if problem:
            bad.append(key)
            problems.append(f"{doc.where(('options', key))}: {problem}")
    return bad
