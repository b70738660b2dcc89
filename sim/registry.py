"""Where games and strategies are found by name.

Games: every subpackage of ``sim.games`` exposing ``GAME`` (a Game class with ``info``,
``Options`` and ``build``). Strategies: the ``STRATEGIES`` dict of ``strategies.common`` and of
every ``strategies.<game>`` subpackage, installed packages registering in the entry-point group
``sim.strategies``, and import strings ``package.module:factory``.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import re
import sys
import traceback
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .api import OptionError, ParamsError, SimError, yaml_text_hint
from .data import quote


@cache
def games() -> dict[str, Any]:
    """Registry name -> Game class, in name order."""
    import sim.games as pkg

    found = {}
    for mod in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"sim.games.{mod.name}")
        cls = getattr(module, "GAME", None)
        if cls is not None:
            found[cls.info.name] = cls
    return found


def get_game(name: str) -> Any:
    """The Game class registered as ``name``. Raises ``SimError`` listing the known games."""
    fast = _module_attr(f"sim.games.{name}", "GAME")  # workers import only the game they play
    if fast is not None and fast.info.name == name:
        return fast
    try:
        return games()[name]
    except KeyError:
        raise SimError(f"unknown game '{name}'; known games: {', '.join(games())}") from None


def build_game(name: str, players: int, options: dict | None = None, data_paths: dict | None = None) -> Any:
    """Construct game ``name`` for ``players`` from raw option values and data-file paths.

    Raises ``SimError`` for an unknown game or bad data, ``ValueError`` (``OptionError``) for options
    it cannot be played with."""
    return get_game(name).build(players, options or {}, {k: Path(v) for k, v in (data_paths or {}).items()})


def build_any_count(name: str, players: int, options: dict | None = None) -> Any:
    """``build_game`` for tools that play every player count (fuzzing, benchmarks, conformance
    tests): a count the game allows only behind a flag option (``allow_two_players``) sets it."""
    options = dict(options or {})
    try:
        return build_game(name, players, options)
    except OptionError as exc:
        if not exc.key.startswith("allow_") or exc.key in options:
            raise
        return build_game(name, players, {**options, exc.key: True})


def add_module_folder(folder: str | Path) -> None:
    """Let import strings name modules kept in ``folder`` (the config's folder: ``mystrats:Greedy``;
    several joined by ``os.pathsep``, ``config.seats.module_folders``). Run folders store the
    config's absolute path, so this works from any folder (replay, resume)."""
    for one in str(folder).split(os.pathsep):
        if one and one not in sys.path:
            # import our ``strategies`` package first: with an editable install it is found after
            # sys.path, so a designer's own ``strategies/`` folder there would shadow it
            importlib.import_module("strategies")
            sys.path.append(one)


@cache
def strategies() -> dict[str, Any]:
    """Registry name -> strategy factory, in name order (built-in, per-game, then entry points)."""
    import strategies as pkg

    found: dict[str, Any] = {}
    for mod in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"strategies.{mod.name}")
        found.update(getattr(module, "STRATEGIES", {}))
    for ep in sorted(entry_points(group="sim.strategies"), key=lambda e: e.name):
        if ep.name in found and found[ep.name] is not ep:  # a built-in wins: say so (breaker finding 10)
            sys.stderr.write(f"warning: the plugin strategy '{ep.name}' ({ep.value}) is hidden by the built-in"
                             f" strategy of that name; register it under another name\n")
            continue
        found[ep.name] = ep
    return dict(sorted(found.items()))


def resolve_strategy(name: str, plugins: bool = True, game: str = "") -> Any:
    """Factory for a registry name or an import string ``package.module:Class``.

    An import string imports that module (its code runs, as a pytest plugin's does: the trust
    boundary, README "Plugins") and must name a class with a ``choose(obs, legal, rng)`` method;
    that is checked before anything is called. Standard-library and builtin modules are refused
    before import, and with ``plugins=False`` (``--no-plugins``, ``plugins: false``) every import
    string is. Raises ``SimError`` when the name is unknown, refused or does not resolve.
    ``game``: the game it is for, whose strategies package is looked in first (start-up: the
    other games' strategies are not imported; an unknown name still gets the whole registry).
    """
    if ":" in name:
        return _import_string(name, plugins)
    fast = _fast_factory(name, game) if game else None
    if fast is not None:
        return fast
    found = strategies()
    if name not in found:
        close = difflib.get_close_matches(name, list(found), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise SimError(f"unknown strategy '{name}'{hint}; known strategies: {', '.join(found)}")
    factory = found[name]
    if hasattr(factory, "load"):  # an entry point, loaded on first use
        try:
            factory = factory.load()
        except Exception as exc:  # a broken plugin must not hide behind a traceback
            raise SimError(f"strategy '{name}' (entry point {factory.value}) failed to load: {exc}") from None
    return factory


def _import_string(name: str, plugins: bool) -> Any:
    """The strategy class an import string names, after the checks of ``resolve_strategy``."""
    module_name, _, attr = name.partition(":")
    if not plugins:
        raise SimError(f"strategy import string '{name}' refused: plugins are off (--no-plugins or plugins: false),"
                       " so only registered names (`sim list strategies`) may be used")
    top = module_name.split(".")[0]
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        raise SimError(f"strategy import string '{name}' names the standard-library module '{top}': an import string"
                       " must name a strategy class of your own (package.module:Class)")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError, ValueError) as exc:
        missing = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
        hint = (f"; the module must be importable: run sim from the folder that holds {missing.split('.')[0]}.py (or"
                f" its package folder), keep it next to the config file, or set PYTHONPATH=/that/folder"
                if missing and (module_name + ".").startswith(missing + ".") else "")  # not one the module imports
        raise SimError(f"strategy import string '{name}' does not resolve: {exc}{hint}") from None
    except (Exception, SystemExit) as exc:  # the module's own code failed: say where, no traceback
        raise SimError(f"strategy import string '{name}': importing '{module_name}' failed"
                       f"{_where(exc)}: {type(exc).__name__}: {exc}") from None
    if not inspect.isclass(obj) or not callable(getattr(obj, "choose", None)):
        what = repr(obj)
        what = what if len(what) <= 80 else what[:80] + "..."
        raise SimError(f"strategy import string '{name}' resolves to {what}, which is not a strategy factory: it must"
                       " name a class with a choose(obs, legal, rng) method")
    return obj


def _where(exc: BaseException) -> str:
    """`` at FILE, line N``: where a plugin's import failed (a ``SyntaxError``'s own place, else
    the innermost frame of its traceback), or "" when neither is known."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f" at {exc.filename}, line {exc.lineno}"
    frames = traceback.extract_tb(exc.__traceback__)
    return f" at {frames[-1].filename}, line {frames[-1].lineno}" if frames else ""


def project_strategies(strategies: Any, game: str) -> bool:
    """Whether every ``(name, params)`` of ``strategies`` is this project's own code (a registry
    name whose class lives in the ``strategies`` package, and no import string among the params,
    e.g. a search's rollout). Forked workers are safe only for such code: a plugin may start
    thread pools (polars, tokio) in the parent, and a fork cannot use them (it waits forever)."""
    for name, params in strategies:
        if ":" in name or any(":" in v for v in _strings(params)):
            return False
        try:
            factory = resolve_strategy(name, game=game)
        except SimError:
            return False
        if getattr(factory, "__module__", "").split(".")[0] != "strategies":
            return False
    return True


def _strings(value: Any) -> list[str]:
    """Every string inside ``value`` (dicts, lists and tuples walked)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []


def plugin_hashes(names: list[str] | tuple[str, ...]) -> dict[str, str]:
    """SHA-256 of the source file of every module the import strings among ``names`` load, and of
    the modules of the same folder those import in turn (``{module: hash}``, registry names
    skipped), for the run manifest: resuming with edited plugin code, a helper module included,
    would mix two versions of a strategy. A module without a source file hashes to "?"."""
    out: dict[str, str] = {}
    for name in names:
        if ":" in name:
            _hash_module(name.partition(":")[0], None, out)
    return dict(sorted(out.items()))


def _hash_module(module: str, root: Path | None, out: dict[str, str]) -> None:
    """Add ``module``'s hash to ``out``, then those of the modules it imports that live under
    ``root`` (the first module's folder: a plugin's own helpers, not installed libraries)."""
    if module in out:
        return
    try:
        spec = importlib.util.find_spec(module)
        origin = Path(spec.origin) if spec is not None and spec.origin and spec.has_location else None
        source = origin.read_bytes() if origin else None
    except (ImportError, ValueError, OSError):
        origin = source = None
    out[module] = hashlib.sha256(source).hexdigest() if source is not None else "?"
    if source is None or origin is None:
        return
    root = root or origin.parent
    for imported in _imports(source, module, spec.submodule_search_locations is not None):
        try:
            found = importlib.util.find_spec(imported)
        except (ImportError, ValueError):
            continue
        if found is not None and found.origin and found.has_location and Path(found.origin).is_relative_to(root):
            _hash_module(imported, root, out)


def _imports(source: bytes, module: str, is_package: bool) -> list[str]:
    """The absolute names of the modules ``source`` (module ``module``) imports (``import a.b``,
    ``from .c import d``: both ``c`` and ``c.d``, which may be a module), read from its syntax tree."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    package = module if is_package else module.rpartition(".")[0]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            try:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level \
                    else node.module or ""
            except ImportError:
                continue
            names += [base] + [f"{base}.{a.name}" for a in node.names if a.name != "*"]
    return [n for n in names if n and n.split(".")[0] not in sys.stdlib_module_names]


def strategy_params(factory: Any) -> dict[str, Any]:
    """A factory's parameters and their defaults: from its pydantic ``Params`` model (a field with a
    ``default_factory`` shows the value it makes), else from its signature (``__init__(self, colours=2)``)."""
    model = getattr(factory, "Params", None)
    if model is not None:
        return {k: f.get_default(call_default_factory=True) for k, f in model.model_fields.items()}
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return {}
    return {k: p.default for k, p in sig.parameters.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is not p.empty}


def resolved_lineup(entries: Any, game: str = "") -> Any:
    """A run's ``strategies`` entries (``{name, params, label}`` as config.json holds them) with each
    strategy's default params filled in, so a config that spells out a default names the same
    strategy as one that leaves it out (breaker trial 2, session 9). An import string (not imported
    here: comparing runs runs no plugin code) or a name that does not resolve is kept as written."""
    if not isinstance(entries, list):
        return entries
    out = []
    for e in entries:
        name = e.get("name") if isinstance(e, dict) else None
        if not isinstance(name, str) or ":" in name or not isinstance(e.get("params") or {}, dict):
            out.append(e)
            continue
        try:
            defaults = strategy_params(resolve_strategy(name, game=game))
        except SimError:
            out.append(e)
            continue
        out.append({**e, "params": json.loads(json.dumps({**defaults, **(e.get("params") or {})}, default=str))})
    return out


def comparable_experiment(exp: dict) -> dict:
    """A recorded experiment (a manifest's ``experiment``) with its strategies' default params filled
    in (``resolved_lineup``): what two runs' experiments are compared by."""
    return {**exp, "strategies": resolved_lineup(exp["strategies"], str(exp.get("game") or ""))} \
        if "strategies" in exp else exp


def _module_attr(module: str, attr: str) -> Any:
    if not module.replace(".", "").replace("_", "").isalnum():
        return None
    try:
        # an imported module from sys.modules directly (import_module's own look-up is Python code)
        return getattr(sys.modules.get(module) or importlib.import_module(module), attr, None)
    except ImportError:
        return None


def _fast_factory(name: str, game_name: str) -> Any:
    """Look in the likely packages first, so a worker does not import every game's strategies."""
    for module in ("strategies.common", f"strategies.{game_name}", "strategies.search"):
        found = _module_attr(module, "STRATEGIES") or {}
        if name in found:
            return found[name]
    return None


def _param_problems(err: dict) -> list[tuple[str, str]]:
    """``[(parameter, message)]`` of one pydantic error; a model-level check (``sim.api.no_coercion``)
    names its keys in the message (``'a' must be ...; 'b' must be ...``) rather than in ``loc``."""
    key, msg = ".".join(map(str, err["loc"])), err["msg"]
    if err["type"] == "extra_forbidden":
        return [(key, "unknown parameter")]
    named = re.findall(r"'(\w+)' (must be .*?)(?=; '\w+' must be |$)", msg.removeprefix("Value error, "))
    if named and not key:
        return named
    return [(key, msg)]


def check_plays(factory: Any, name: str, game_name: str) -> None:
    """Raise ``SimError`` when the factory declares ``games`` without ``game_name``."""
    allowed = getattr(factory, "games", None)
    if allowed and game_name not in allowed:
        raise SimError(f"strategy '{name}' plays {', '.join(allowed)}, not '{game_name}'")


def make_strategy(name: str, params: dict | None, game_name: str, game: Any = None, plugins: bool = True) -> Any:
    """Build a strategy for one seat. Raises ``SimError`` for bad params or a game it cannot play.

    Two optional hooks on the built strategy (for strategies that need the forward model or other
    strategies, such as ``search``): ``check_game(game_name, lookup)`` raises ``SimError`` when it
    cannot play that game (called always, so config validation catches it); ``bind(game, lookup)``
    receives the game object, the stateless forward model, never a state (called when ``game`` is
    given, as a run does). ``lookup`` is this module's ``LOOKUP`` (``get_game``, ``make_strategy``,
    ``resolve_strategy``), passed down so that strategies never import the registry above them.
    A strategy still only ever sees observations in ``choose``. ``plugins=False`` refuses import
    strings (``resolve_strategy``).
    """
    factory = (":" not in name and _fast_factory(name, game_name)) or resolve_strategy(name, plugins)
    check_plays(factory, name, game_name)
    if not callable(factory):
        raise SimError(f"strategy '{name}' resolves to {factory!r}, which is not a strategy factory")
    try:
        strategy = factory(**(params or {}))
    except SimError:
        raise
    except ValidationError as exc:
        known = ", ".join(f"{k} (default {v!r})" for k, v in strategy_params(factory).items())
        problems = [p for e in exc.errors() for p in _param_problems(e)]
        given = params or {}
        text = "; ".join(f"'{key}': {msg}{yaml_text_hint(given.get(key))}" for key, msg in problems)
        raise ParamsError(f"strategy '{name}': bad params: {text}; it takes: {known or 'no parameters'}",
                          problems[0][0]) from None
    except Exception as exc:
        raise SimError(f"strategy '{name}': bad params {quote(params)}: {quote(str(exc))[1:-1]}") from None
    if not callable(getattr(strategy, "choose", None)):
        raise SimError(f"strategy '{name}': {factory!r} built {type(strategy).__name__}, which has no choose(obs, legal, rng)")
    check = getattr(strategy, "check_game", None)
    if check is not None:
        check(game_name, LOOKUP)
    bind = getattr(strategy, "bind", None)
    if game is not None and bind is not None:
        bind(game, LOOKUP)
    return strategy


LOOKUP = sys.modules[__name__]  # this module: get_game, make_strategy, resolve_strategy (looked up late)
