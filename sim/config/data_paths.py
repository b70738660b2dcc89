"""Paths into a game's data files for sweep, tune and discover keys (``data.<file>.<key>[.<key>...]``).

A path walks the file's mappings by key and its lists by index (``data.cards.cards.0.cost``: file
``cards``, its top-level key ``cards``, entry 0, key ``cost``). A path that leaves the file says what
is there instead (the mapping's keys, the list's index range), and an invalid value is reported at
the line of the file the designer can open, not at the temporary copy that held the value.
"""

from __future__ import annotations

import re
from typing import Any

from ..api import SimError
from ..data import Located, quote
from .models import did_you_mean


def path_parts(key: str) -> tuple[str, list[Any]]:
    """``(file key, [key or index, ...])`` of a ``data.<file>.<path>`` sweep key."""
    _, file_key, *rest = key.split(".")
    return file_key, [int(p) if p.isdigit() else p for p in rest]


def set_in(doc: Any, parts: list[Any], value: Any, key: str, source: str = "the data file") -> None:
    """Replace the value at ``parts`` in ``doc`` (plain dicts and lists); ``SimError`` saying what
    is there when ``parts`` leaves the file."""
    node = doc
    for i, part in enumerate(parts):
        ok = (isinstance(node, dict) and part in node) or (isinstance(node, list) and isinstance(part, int)
                                                           and 0 <= part < len(node))
        if not ok:
            raise SimError(f"'{'.'.join(map(str, parts[:i + 1]))}' is not in {source}:"
                           f" {_what_is_there(node, parts[:i], part, parts[i + 1:], key)}")
        if i == len(parts) - 1:
            node[part] = value
        else:
            node = node[part]


def _what_is_there(node: Any, above: list[Any], part: Any, below: list[Any], key: str) -> str:
    """What ``node`` (reached by ``above``) holds, for a path part it does not have (``below``:
    the rest of the path)."""
    name = f"'{'.'.join(map(str, above))}'" if above else "the file"
    if isinstance(node, list):
        if not node:
            return f"{name} is an empty list"
        return f"{name} is a list of {len(node)} entries: give an index 0..{len(node) - 1}"
    if not isinstance(node, dict):
        return f"{name} is a single value ({quote(node)}), with nothing inside it"
    keys = [str(k) for k in node]
    hint = did_you_mean(str(part), keys)
    if isinstance(part, int):  # an index given to a mapping: the list is probably one level down
        lists = sorted((k for k, v in node.items() if isinstance(v, list) and part < len(v)),  # entries with the next key first
                       key=lambda k: not (below and isinstance(node[k][part], dict) and below[0] in node[k][part]))
        if lists:
            head = key.split(".")
            at = 2 + len(above)
            hint = f" (did you mean '{'.'.join(head[:at] + [str(lists[0])] + head[at:])}'?)"
    return f"{name} has the keys {', '.join(keys)}{hint}"


def in_source(text: str, folder: str, key: str, value: Any, original: Any) -> str:
    """``text`` (an error about a temporary copy under ``folder/data``) with each copy named as the
    data file it was made from, at that file's line of the key: ``original(file_key)`` is the
    ``Located`` original."""
    inner = key.split(".", 2)[2] if key.startswith("data.") else key

    def sub(m: re.Match) -> str:
        doc: Located = original(m.group(1))
        path = m.group(2)
        parts = () if path in (None, "(top level)") else tuple(int(p) if p.isdigit() else p for p in path.split("."))
        return f"data file {m.group(1)} with {inner} = {quote(value)}: {doc.where(parts)}"

    return re.sub(rf"{re.escape(folder)}/data/(\w+)-point\d+\.yaml(?:, line \d+)?(?:, key '([^']*)')?", sub, text)
