"""The seats' strategies of a config checked once each: names, the games they play, and their
parameters (one line per bad parameter, with whose parameter a foreign one is)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..api import SimError
from ..data import Located
from ..registry import add_module_folder, check_plays, make_strategy, resolve_strategy
from .suggest import param_hint, unknown_strategy


def check_strategies(doc: Located, game: str, specs: list, problems: list[str], plugins: bool = True) -> None:
    """Build every listed strategy once (names, params, games it plays); problems appended."""
    folders = module_folders(doc.source)
    add_module_folder(os.pathsep.join(map(str, folders)))
    for i, spec in enumerate(specs):
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            continue  # reported by the Config model
        name, params = spec["name"], spec.get("params") or {}
        try:
            check_plays(resolve_strategy(name, plugins, game), name, game)
        except SimError as exc:
            unknown = ":" not in name and str(exc).startswith("unknown strategy")
            looked = (f"; sim looked in {', '.join(map(str, folders))} (this file's folder, then, from the run folder's"
                      " config.json, the folder of the config the run was made from)"
                      if len(folders) > 1 and "No module named" in str(exc) else "")
            problems.append(f"{doc.where(('strategies', i, 'name'))}: "
                            + (unknown_strategy(name, game) if unknown else str(exc) + looked))
            continue
        if isinstance(params, dict):
            problems.extend(_param_problems(doc, i, name, params, game, plugins))


def _param_problems(doc: Located, i: int, name: str, params: dict, game: str, plugins: bool) -> list[str]:
    """Seat ``i``'s parameter problems: one line per bad parameter at its own key (each is built
    with only the parameters that are good alone, so ``rollout_params`` is judged with its own
    ``rollout``), else (they are bad only together) one line for the params."""
    try:
        make_strategy(name, params, game, plugins=plugins)
        return []
    except SimError as whole:
        together = str(whole)
    bad = {}
    for key, value in params.items():
        try:
            make_strategy(name, {key: value}, game, plugins=plugins)
        except SimError as exc:
            bad[key] = exc
    good = {k: v for k, v in params.items() if k not in bad}
    out = []
    for key in bad:
        try:
            make_strategy(name, {**good, key: params[key]}, game, plugins=plugins)
            continue  # bad alone (``alone``) but good with the others: what fails is reported on its own line
        except SimError as exc:
            text = str(exc).replace("Value error, ", "")
            out.append(f"{doc.where(('strategies', i, 'params', key))}: {text}{param_hint(key, name, game, str(exc))}")
    return out or [f"{doc.where(('strategies', i, 'params'))}: {together}"]


def module_folders(source: str | Path | None) -> list[Path]:
    """Where the import strings of the config file ``source`` are looked for (after ``sys.path``):
    its folder and, when that folder is a run folder (its ``config.json`` records the absolute path
    of the config it was made from), that config's folder, followed back through run folders made
    from run folders. So ``sim run RUN/config.yaml`` finds ``mystrats.py`` from any folder (fresh-user
    finding 7, session 10). The folders are appended to ``sys.path``: they never shadow a module."""
    folders: list[Path] = []
    path = Path(source).resolve() if source else None
    while path is not None and path.parent not in folders and len(folders) < 8:
        folders.append(path.parent)
        try:
            made_from = json.loads((path.parent / "config.json").read_text()).get("source")
        except (OSError, ValueError, AttributeError):  # not a run folder (or not readable): no more
            break
        path = Path(made_from) if isinstance(made_from, str) and Path(made_from).is_absolute() else None
    return folders
