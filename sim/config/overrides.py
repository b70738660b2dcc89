"""``sim run CONFIG --option KEY=VALUE``: a config file's ``options:`` with command-line values
merged in (validated as the file's own, each error naming the flag), and the YAML of that
merged config that the run folder keeps as ``config.yaml`` (so the run can be replayed)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..data import Located, read_yaml


@dataclass
class _WithOptions(Located):
    """A config file with ``--option KEY=VALUE`` values merged into its ``options:``: an error
    about such an option names the flag (the file has no line for it)."""

    flags: frozenset = field(default_factory=frozenset)

    def where(self, path: tuple) -> str:
        path = tuple(path)
        if len(path) >= 2 and path[0] == "options" and path[1] in self.flags:
            return f"{self.source} with --option {path[1]}, key '{'.'.join(str(p) for p in path)}'"
        return super().where(path)


def with_options(doc: Located, options: dict | None) -> Located:
    """``doc`` with ``options`` (``sim run CONFIG --option KEY=VALUE``) replacing or adding to its
    ``options:``; validated as the file's own options are, each error naming ``--option KEY``."""
    if not options or not isinstance(doc.value, dict):
        return doc
    value = dict(doc.value)
    given = value.get("options")
    value["options"] = {**(given if isinstance(given, dict) else {}), **options}
    lines = {k: v for k, v in doc.lines.items() if not (len(k) >= 2 and k[0] == "options" and k[1] in options)}
    return _WithOptions(value, doc.source, lines, frozenset(options))


def replay_text(path: str | Path, options: dict, given: dict | None = None, command: str = "sim run") -> str:
    """The YAML of config file ``path`` with ``options`` merged into its ``options:``, ``given``
    (``--games``/``--seed`` values, when not None) set, and its data paths made absolute: written
    into the run folder as ``config.yaml`` so that ``sim run RUN_DIR/config.yaml`` replays
    ``sim run CONFIG --option ...``."""
    import yaml

    doc = with_options(read_yaml(path), options)
    value = dict(doc.value) | {k: v for k, v in (given or {}).items() if v is not None}  # --games, --seed
    base = Path(path).resolve().parent
    if isinstance(value.get("data"), dict):
        value["data"] = {k: str(base / v) if isinstance(v, str) else v for k, v in value["data"].items()}
    flags = " ".join([f"--option {k}={json.dumps(v)}" for k, v in options.items()]
                     + ([f"--seating {given['seating']}"] if (given or {}).get("seating") else []))
    head = f"# written by `{command} {path} {flags}`: {path} with these changes; rerun with `{command} config.yaml`\n"
    return head + yaml.safe_dump(value, sort_keys=False)
