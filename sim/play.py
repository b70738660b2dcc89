"""The one game loop (DESIGN principle 6) and what is built on it without files or configs:
playing one game of a run, a range of games with fault isolation, and a replay.

Everything here takes a ``Setup``: the plain, resolved description of a run (game, seats,
options, seed, seating). It knows no run folders and no config files; the ``runs`` layer builds
a ``Setup`` from a config and stores what ``play_range`` returns.
"""

from __future__ import annotations

import copy
import json
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import polars as pl

from .api import CHANCE, TERMINAL, Action, Game, IllegalActionError, Strategy, close_view, sample_chance
from .registry import add_module_folder, build_game, make_strategy
from .seeding import game_streams

ERROR_SCHEMA = {
    "game_index": pl.Int64, "seat": pl.Int64, "strategy": pl.Utf8, "exception": pl.Utf8,
    "message": pl.Utf8, "traceback": pl.Utf8, "seed": pl.Int64,
}


@dataclass
class GameResult:
    """What one played game yields: final state, decision count and whether the cap was hit.

    ``log`` holds ``(player, action)`` pairs when ``record=True`` (player is a seat or ``CHANCE``).
    """

    state: Any
    n_decisions: int
    truncated: bool
    log: list[tuple[int, Action]] = field(default_factory=list)


def play_game(
    game: Game,
    strategies: Sequence[Strategy],
    chance_rng: Any,
    seat_rngs: Sequence[Any],
    *,
    max_decisions: int,
    record: bool = False,
    on_decision: Callable[[int, Action], None] | None = None,
    state: Any = None,
) -> GameResult:
    """Play one game to the end or to ``max_decisions`` player decisions (then ``truncated=True``).

    The one game loop (DESIGN principle 6): runs, benchmarks, replays and tests all call it.
    Raises ``IllegalActionError`` naming the seat when a strategy returns an illegal action;
    exceptions from engines and strategies propagate to the caller (``play_range`` records them).
    """
    if state is None:
        state = game.new_initial_state()
    current_player, apply_action = game.current_player, game.apply_action
    legal_actions, observe = game.legal_actions, game.observe
    stalled = getattr(game, "stalled", None)
    fast = getattr(game, "sample_chance", None)
    lazy = getattr(game, "lazy_observations", False)  # LazyObservation views are closed after each decision
    chooses = [s.choose for s in strategies]
    log: list[tuple[int, Action]] = []
    watch = record or on_decision is not None
    n = 0
    chance_cap = 100 * max_decisions + 100_000  # a game stuck in chance events is truncated too
    while True:
        p = current_player(state)
        if p == CHANCE:
            chance_cap -= 1
            if chance_cap < 0:
                return GameResult(state, n, True, log)
            action = fast(state, chance_rng) if fast is not None else sample_chance(game, state, chance_rng)
        elif p == TERMINAL:  # an engine may end a game nobody can continue: reported as truncated
            return GameResult(state, n, bool(stalled is not None and stalled(state)), log)
        else:
            if n >= max_decisions:
                return GameResult(state, n, True, log)
            legal = legal_actions(state)
            obs = observe(state, p)
            action = chooses[p](obs, legal, seat_rngs[p])
            if lazy:
                close_view(obs)
            # identity first (at C speed): strategies usually return one of the offered objects,
            # and comparing dataclasses field by field is slow on long lists
            if id(action) not in map(id, legal) and action not in legal:
                who = type(getattr(strategies[p], "inner", strategies[p])).__name__
                raise IllegalActionError(p, f"seat {p} ({who}) chose illegal action {action!r}")
            n += 1
        if watch:
            if record:
                log.append((p, action))
            if on_decision is not None:
                on_decision(p, action)
        apply_action(state, action)


@dataclass(frozen=True)
class Setup:
    """A run resolved to plain values: what the workers need to play its games.

    ``strategies``: one ``(name, params)`` per configured strategy, ``labels`` their names in the
    tables; ``seating``: ``rotate`` or ``fixed``; ``module_folder``: where import-string
    strategies next to the config are found ("" for none). Crosses process boundaries as JSON.
    """

    game: str
    players: int
    seed: int
    options: dict
    data: dict
    strategies: tuple
    labels: tuple
    seating: str = "rotate"
    module_folder: str = ""

    @property
    def max_decisions(self) -> int:
        return int(self.options["max_decisions"])

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Setup:
        d = json.loads(text)
        d["strategies"] = tuple((n, p) for n, p in d["strategies"])
        d["labels"] = tuple(d["labels"])
        return cls(**d)

    def build_game(self) -> Any:
        """The game of this setup (``SimError`` on bad data files, ``ValueError`` on bad options)."""
        return build_game(self.game, self.players, self.options, {k: Path(v) for k, v in self.data.items()})


class StrategyError(RuntimeError):
    """A strategy raised or returned an illegal action; carries the seat."""

    def __init__(self, seat: int, message: str):
        super().__init__(message)
        self.seat = seat


def seat_labels(setup: Setup, game_index: int) -> list[int]:
    """Index into ``setup.strategies`` for each seat of game ``game_index``.

    ``rotate``: seat i plays strategy (i + game_index) mod players, so over any ``players``
    consecutive games each strategy plays each seat once. ``fixed``: seat i plays strategy i.
    """
    n = setup.players
    if setup.seating == "fixed":
        return list(range(n))
    return [(i + game_index) % n for i in range(n)]


class _Guard:
    """Wraps a strategy so that what it raises is attributed to its seat."""

    __slots__ = ("inner", "seat", "choose")

    def __init__(self, inner: Any, seat: int):
        self.inner, self.seat = inner, seat
        inner_choose = inner.choose

        def choose(obs, legal, rng):
            try:
                return inner_choose(obs, legal, rng)
            except (Exception, SystemExit) as exc:  # sys.exit() in a plugin fails its game, not the run
                raise StrategyError(seat, f"{type(exc).__name__}: {exc}") from exc

        self.choose = choose


@lru_cache(maxsize=4)
def prepared(setup_json: str) -> tuple[Setup, Any, list[Any]]:
    """Per process: the setup, its game and one strategy factory per configured strategy."""
    setup = Setup.from_json(setup_json)
    add_module_folder(setup.module_folder)
    game = setup.build_game()
    # game=game lets strategies that need the forward model (search) receive it via bind()
    factories = [partial(make_strategy, name, params, setup.game, game=game) for name, params in setup.strategies]
    return setup, game, factories


def play_one(setup: Setup, game: Any, factories: list[Any], game_index: int, record: bool = False):
    """Play game ``game_index`` of a run (same streams and seating as in the run): ``(result, order)``.

    Strategies are built afresh for every game and seat (DESIGN "Strategies"), so no state
    leaks from one game to the next.
    """
    chance, seat_rngs = game_streams(setup.seed, game_index, setup.players)
    order = seat_labels(setup, game_index)
    seated = [_Guard(factories[k](), seat) for seat, k in enumerate(order)]
    result = play_game(game, seated, chance, seat_rngs, max_decisions=setup.max_decisions, record=record)
    return result, order


class _Rows:
    """Column lists of the five tables a range of games yields."""

    def __init__(self) -> None:
        self.games: dict[str, list] = {k: [] for k in ("game_index", "n_decisions", "truncated", "failed",
                                                       "n_winners", "winners")}
        self.summary: dict[str, list] = {}
        self.players: dict[str, list] = {k: [] for k in ("game_index", "seat", "strategy", "score", "rank", "won")}
        self.metric_cols: dict[str, list] = {}
        self.metrics: dict[str, list] = {k: [] for k in ("game_index", "seat", "metric", "value")}
        self.components: dict[str, list] = {k: [] for k in ("game_index", "seat", "kind", "component")}
        self.errors: list[dict] = []

    def add_failed(self, setup: Setup, gi: int, exc: BaseException) -> None:
        seat = getattr(exc, "seat", None)
        order = seat_labels(setup, gi)
        self.errors.append({
            "game_index": gi, "seat": -1 if seat is None else seat,
            "strategy": "" if seat is None else setup.labels[order[seat]],
            "exception": type(exc.__cause__ or exc).__name__, "message": str(exc),
            "traceback": traceback.format_exc(), "seed": setup.seed,
        })
        for k, v in (("game_index", gi), ("n_decisions", 0), ("truncated", False), ("failed", True),
                     ("n_winners", 0), ("winners", [])):
            self.games[k].append(v)
        for col in self.summary.values():
            col.append(None)

    def add_game(self, setup: Setup, gi: int, result: GameResult, order: list[int], outcome: dict) -> None:
        scores, winners = outcome["scores"], outcome["winners"]
        for k, v in (("game_index", gi), ("n_decisions", result.n_decisions), ("truncated", result.truncated),
                     ("failed", False), ("n_winners", len(winners)), ("winners", sorted(winners))):
            self.games[k].append(v)
        for key, value in outcome["summary"].items():
            self.summary.setdefault(key, [None] * (len(self.games["game_index"]) - 1)).append(value)
        keys = [(i in winners, scores[i]) for i in range(setup.players)]
        for seat in range(setup.players):
            for k, v in (("game_index", gi), ("seat", seat), ("strategy", setup.labels[order[seat]]),
                         ("score", float(scores[seat])), ("rank", 1 + sum(k > keys[seat] for k in keys)),
                         ("won", seat in winners)):
                self.players[k].append(v)
        for kind, per_seat in outcome["components"].items():
            for seat, names in enumerate(per_seat):
                for name in names:
                    for k, v in (("game_index", gi), ("seat", seat), ("kind", kind), ("component", name)):
                        self.components[k].append(v)
        for name, values in outcome["metrics"].items():
            self.metric_cols.setdefault(name, []).extend(values)
            for seat, value in enumerate(values):
                for k, v in (("game_index", gi), ("seat", seat), ("metric", name), ("value", float(value))):
                    self.metrics[k].append(v)

    def tables(self) -> dict[str, pl.DataFrame]:
        games = pl.DataFrame(self.games, schema_overrides={"winners": pl.List(pl.Int64)}).with_columns(
            [pl.Series(k, v, dtype=pl.Float64) for k, v in self.summary.items()])
        players = pl.DataFrame(self.players).with_columns(
            [pl.Series(k, v, dtype=pl.Float64) for k, v in self.metric_cols.items()])
        return {
            "games": games,
            "players": players,
            "metrics": pl.DataFrame(self.metrics, schema={"game_index": pl.Int64, "seat": pl.Int64,
                                                          "metric": pl.Utf8, "value": pl.Float64}),
            "components": pl.DataFrame(self.components, schema={"game_index": pl.Int64, "seat": pl.Int64,
                                                                "kind": pl.Utf8, "component": pl.Utf8}),
            "errors": pl.DataFrame(self.errors, schema=ERROR_SCHEMA),
        }


def _outcome(game: Any, result: GameResult) -> dict:
    """Scores, winners and the game's own figures of a finished game (engine hooks are optional)."""
    s = result.state
    return {
        "scores": game.scores(s),
        "winners": game.winners(s) if not result.truncated else frozenset(),
        "metrics": game.metrics(s) if hasattr(game, "metrics") else {},
        "summary": game.summary(s) if hasattr(game, "summary") else {},
        "components": game.components(s) if hasattr(game, "components") else {},
    }


def play_range(setup_json: str, start: int, stop: int) -> tuple[int, int, dict[str, pl.DataFrame]]:
    """Play games ``start..stop-1`` of a run; return ``(start, stop, tables)`` with the tables
    ``games``, ``players``, ``metrics``, ``components`` and ``errors``.

    Never raises for a game's fault: a failing game is a row of ``errors`` with its seed.
    """
    setup, game, factories = prepared(setup_json)
    rows = _Rows()
    for gi in range(start, stop):
        try:
            result, order = play_one(setup, game, factories, gi)
            outcome = _outcome(game, result)
        except (Exception, SystemExit) as exc:  # recorded with its seed, never kills the run (Ctrl-C does)
            rows.add_failed(setup, gi, exc)
            continue
        rows.add_game(setup, gi, result, order, outcome)
    return start, stop, rows.tables()


def replay(setup: Setup, game: Any, game_index: int) -> tuple[list[str], GameResult | None]:
    """Replay one game of a run from its seed: ``(log lines, result)``; ``result`` is None when
    the game failed (the error and traceback end the log)."""
    add_module_folder(setup.module_folder)
    describe = getattr(game, "describe", None)
    chance, seat_rngs = game_streams(setup.seed, game_index, setup.players)
    order = seat_labels(setup, game_index)
    seated = [_Guard(make_strategy(*setup.strategies[k], setup.game, game=game), seat) for seat, k in enumerate(order)]
    lines = [f"seat {seat}: {setup.labels[k]}" for seat, k in enumerate(order)]
    narrate = getattr(game, "narrate", None)  # optional: what an action set off (payments, ...)
    state = game.new_initial_state()
    before = [copy.deepcopy(state)]

    def log(player: int, action: Any) -> None:
        if narrate is not None:
            lines.extend(narrate(before[0], state))
            before[0] = copy.deepcopy(state)
        who = "chance" if player == CHANCE else f"seat {player}"
        lines.append(describe(state, action) if describe else f"{who}: {action!r}")

    result = None
    try:
        result = play_game(game, seated, chance, seat_rngs, max_decisions=setup.max_decisions,
                           on_decision=log, state=state)
        if narrate is not None:
            lines.extend(narrate(before[0], state))
    except (Exception, SystemExit) as exc:
        lines.append(f"ERROR: {type(exc).__name__}: {exc}")
        lines.append(traceback.format_exc())
    return lines, result
