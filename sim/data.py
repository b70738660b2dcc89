"""Reading YAML safely with line numbers, so every error names the file, line and key.

Used for configs and for game data files (RULINGS §1.1: components are data). YAML is read
with PyYAML's safe node composer only: no object construction, duplicate keys are errors.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from .api import SimError

_scalars = yaml.constructor.SafeConstructor()


@dataclass
class Located:
    """A parsed YAML document: ``value`` (plain dicts/lists/scalars), the source name, and key lines."""

    value: Any
    source: str
    lines: dict[tuple, int]  # path of keys/indices -> 1-based line

    def line_of(self, path: tuple) -> int | None:
        """Line of the deepest known prefix of ``path`` (None when nothing matches)."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)

    def where(self, path: tuple) -> str:
        line = self.line_of(path)
        key = ".".join(str(p) for p in path) or "(top level)"
        return f"{self.source}" + (f", line {line}" if line else "") + f", key '{key}'"


_SAFE_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")}


MAX_BYTES = 1_000_000  # the largest shipped data file is about 30 kB; the limit keeps /dev/zero-like input out
MAX_NODES = 200_000  # a config or data file is small; this stops alias bombs ("billion laughs")


def _convert(node: yaml.Node, path: tuple, lines: dict, source: str, budget: list[int] | None = None) -> Any:
    budget = budget if budget is not None else [MAX_NODES]
    budget[0] -= 1
    if budget[0] < 0:
        raise SimError(f"{source}: too large once aliases are expanded (over {MAX_NODES:,} values)")
    lines.setdefault(path, node.start_mark.line + 1)  # a mapping value keeps its key's line
    if node.tag not in _SAFE_TAGS:  # no object construction, ever
        raise SimError(f"{source}, line {node.start_mark.line + 1}: unsupported YAML tag {node.tag!r}")
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for knode, vnode in node.value:
            key = _convert(knode, path + ("<key>",), {}, source, budget)
            if not isinstance(key, (str, int, float, bool)):
                raise SimError(f"{source}, line {knode.start_mark.line + 1}: mapping keys must be plain scalars")
            if key in out:
                raise SimError(
                    f"{source}, line {knode.start_mark.line + 1}: duplicate key '{key}'"
                    f" (first at line {lines[path + (key,)]})"
                )
            lines[path + (key,)] = knode.start_mark.line + 1
            out[key] = _convert(vnode, path + (key,), lines, source, budget)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(v, path + (i,), lines, source, budget) for i, v in enumerate(node.value)]
    return _scalars.construct_object(node, deep=True)


def parse_yaml(text: str, source: str) -> Located:
    """Parse YAML text safely. Raises ``SimError`` naming ``source`` and the line on any syntax error."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        if problem.startswith(("expected <block end>", "mapping values are not allowed")):  # fresh user, session 13
            problem += " (most often this line's indentation: a key must line up with the keys beside it)"
        raise SimError(f"{source}{where}: YAML syntax error: {problem}") from None
    except RecursionError:
        raise SimError(f"{source}: nested too deeply (mappings or lists inside each other beyond what a config or"
                       " data file needs)") from None
    lines: dict[tuple, int] = {}
    try:
        value = {} if node is None else _convert(node, (), lines, source)
    except RecursionError:
        raise SimError(f"{source}: nested too deeply (mappings or lists inside each other beyond what a config or"
                       " data file needs)") from None
    return Located(value, source, lines)


def read_yaml(path: str | Path) -> Located:
    """Read and parse a YAML file of at most ``MAX_BYTES``. Raises ``SimError`` when it is missing,
    not a regular file (a folder, a pipe, a device such as /dev/zero), larger, unreadable or not YAML."""
    p = Path(path)
    try:
        if p.exists() and not p.is_file():
            raise SimError(f"{p}: not a regular file (a folder, pipe or device): a config or data file is a YAML file")
        if p.exists() and p.stat().st_size > MAX_BYTES:
            raise SimError(f"{p}: {p.stat().st_size:,} bytes; a config or data file is at most {MAX_BYTES:,} bytes")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SimError(f"{p}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SimError(f"{p}: cannot read file: {exc}") from None
    return parse_yaml(text, str(p))


def read_json(path: str | Path, missing_ok: bool = False) -> dict | None:
    """A JSON object file that sim wrote (a run or sweep folder's config, manifest, stopping rule).
    ``None`` for a missing file when ``missing_ok``; ``SimError`` naming the file when it is
    missing, unreadable, not JSON or not an object."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        if missing_ok:
            return None
        raise SimError(f"{p}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SimError(f"{p}: cannot read file: {exc}") from None
    try:
        value = json.loads(text)
    except RecursionError:
        raise SimError(f"{p} is damaged: nested too deeply; sim writes this file, was it edited by hand?") from None
    except json.JSONDecodeError as exc:
        raise SimError(f"{p} is damaged: not valid JSON ({exc.msg}, line {exc.lineno}); sim writes this file,"
                       " was it edited by hand?") from None
    if not isinstance(value, dict):
        raise SimError(f"{p} is damaged: expected a JSON object {{...}} as sim writes it, got {type(value).__name__}")
    return value


def package_yaml(package: str, name: str) -> Located:
    """Read a data file shipped inside ``package`` (via importlib.resources)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return parse_yaml(text, f"{package}/{name}")


def read_data_files(package: str, title: str, files: dict[str, str], paths: dict[str, Path] | None) -> dict[str, Located]:
    """Read a game's data files: the designer's file where ``paths`` names one, else the
    package's reference file. ``files`` maps data keys to file names in ``package``.

    Raises ``SimError`` for a key the game does not have, or a file that cannot be read/parsed.
    """
    paths = dict(paths or {})
    unknown = sorted(set(paths) - set(files))
    if unknown:
        raise SimError(f"unknown data file key(s) {unknown}; {title} takes {sorted(files)}")
    return {key: read_yaml(paths[key]) if key in paths else package_yaml(package, name) for key, name in files.items()}


def data_hashes(docs: dict[str, Located]) -> dict[str, str]:
    """Content hash per data key, for the run manifest (resume and replay compare them)."""
    return {key: file_hash(repr(doc.value)) for key, doc in docs.items()}


def validate(model: type[BaseModel], doc: Located, value: Any = None, prefix: tuple = ()) -> Any:
    """Validate ``value`` (default: the whole document) against a pydantic model.

    Raises ``SimError`` listing every problem with file, line, key and what was expected.
    """
    try:
        return model.model_validate(doc.value if value is None else value)
    except ValidationError as exc:
        raise SimError(format_validation(exc, doc, prefix)) from None


def format_validation(exc: ValidationError, doc: Located, prefix: tuple = ()) -> str:
    """One readable line per pydantic error: ``file, line N, key 'a.b': message``."""
    out = []
    missing = [tuple(e["loc"]) for e in exc.errors() if e["type"] == "missing" and e["loc"]]
    for err in exc.errors():
        path = prefix + tuple(err["loc"])
        msg = re.sub(r" or instance of \w+", "", err["msg"])  # pydantic's class names mean nothing to a designer
        named = re.match(r"Value error, '(\w+)' must be", msg)  # sim.api.no_coercion names its key
        if named:
            path += (named.group(1),)
        msg = msg.removeprefix("Value error, ")  # pydantic's prefix for a validator's own message
        if err["type"] == "extra_forbidden":  # a misspelt required key: it is missing beside it
            near = [str(m[-1]) for m in missing if m[:-1] == tuple(err["loc"][:-1])]
            close = difflib.get_close_matches(str(err["loc"][-1]), near, n=1, cutoff=0.6) if err["loc"] else []
            msg = "unknown key" + (f" (did you mean '{close[0]}'?)" if close else "")
        elif err["type"] == "missing":
            msg = "required key is missing"
        got = err.get("input")
        tail = f" (got {quote(got)})" if err["type"] not in ("extra_forbidden", "missing") and not isinstance(got, dict) \
            and not said_got(msg) else ""  # a validator's own message that says "got ..." once (session 10)
        out.append(f"{doc.where(path)}: {msg}{tail}{exponent_hint(got if isinstance(got, str) else msg)}")
    return "\n".join(out)


_EXPONENT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+")


def exponent_hint(value: Any) -> str:
    """YAML reads ``1e12`` as text (a number needs a dot: ``1.0e+12``); say how to write it."""
    found = _EXPONENT.search(value) if isinstance(value, str) else None
    if not found:
        return ""
    x = float(found.group())
    if x.is_integer() and abs(x) < 1e18:  # a count (games, seed) must be written as a whole number
        return f"; YAML reads {found.group()} as text: write {int(x)}"
    return f"; YAML reads {found.group()} as text: write {x:.1e} (a number in YAML needs the dot)"


QUOTE_LIMIT = 200  # characters of a user's file an error message may show


def said_got(message: str) -> bool:
    """Whether a validator's message names the value itself (``..., got [-1, 99]``): the error
    line adds no ``(got ...)`` then (fresh-user finding 8, session 10: it said it twice)."""
    return re.search(r"\bgot\b", message) is not None


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to at most ``limit`` characters (an error must not print a whole file
    that was named by mistake, such as ``data: {track: /etc/passwd}``)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit:,} more characters)"


def write_file_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, fsync and
    ``os.replace``: the file is either the old one or the whole new one, never half-written.

    Raises ``SimError`` naming the path when it cannot be written (disk full, file-size limit,
    permissions); the temporary file is removed."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        with open(tmp, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:  # Ctrl-C too: no .tmp left beside the file (breaker trial, session 14)
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        if not isinstance(exc, OSError):
            raise
        raise SimError(f"cannot write {path}: {exc.strerror or exc}; nothing half-written was left (free space or"
                       " raise the file-size limit, then run the command again)") from None


def file_hash(text: str) -> str:
    """Short SHA-256 of a data file's text, for the run manifest."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def yaml_value(v) -> str:
    """A value as YAML writes it (``true``, ``false``, ``null``, ``[1, 2]``), not as Python prints it
    (breaker finding 15, fresh-user finding 6, session 8: labels read "False", "None")."""
    if v is None or isinstance(v, (bool, list, dict)):
        return json.dumps(v)
    return str(v)
