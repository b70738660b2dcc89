"""The one game loop (DESIGN principle 6) and what is built on it without files or configs:
playing one game of a run, a range of games with fault isolation, and a replay.

Everything here takes a ``Setup``: the plain, resolved description of a run (game, seats, options, seed,
seating). It knows no run folders and no config files; the ``runs`` layer builds a ``Setup`` from a config
and stores what ``play_range`` returns."""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

import polars as pl

from .api import CHANCE, Action, Game, IllegalActionError, SimError, Strategy, message_of, sample_chance
from .lazy import close_view
from .limits import GameTimeout, Interrupts, TimeLimit, WorkerDied, fewer_collections, harmless_output
from .registry import add_module_folder, make_strategy
from .setup import Setup, deal_index, deal_size, seat_labels, streams  # noqa: F401  (the play API)

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
    end_reason: str = "finished"  # finished | stalled | round_cap | decision_cap (see END_REASONS)


END_REASONS = ("finished", "stalled", "round_cap", "decision_cap", "failed")


def _end_reason(game: Game, state: Any) -> str:
    """Why a game at TERMINAL ended: the engine's optional ``end_reason(state)`` ("finished",
    "stalled" or "round_cap"), else "stalled" when its ``stalled(state)`` says so, else "finished"."""
    own = getattr(game, "end_reason", None)
    if own is not None:
        return str(own(state))
    stalled = getattr(game, "stalled", None)
    return "stalled" if stalled is not None and stalled(state) else "finished"


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
    guard: bool = False,
) -> GameResult:
    """Play one game to the end or to ``max_decisions`` player decisions (then ``truncated=True``).
    The one game loop (DESIGN principle 6): runs, benchmarks, replays and tests all call it.
    Raises ``IllegalActionError`` naming the seat when a strategy returns an illegal action;
    exceptions from engines and strategies propagate to the caller (``play_range`` records them).
    ``guard``: what a strategy's ``choose`` raises (``SystemExit`` included) becomes a
    ``StrategyError`` carrying its seat (runs and replays), without a wrapper call per decision.
    """
    if state is None:
        state = game.new_initial_state()
    # everything the loop calls is bound once (issue 20 item 1): no look-up or test per event
    current_player, apply_action = game.current_player, game.apply_action
    legal_actions, observe = game.legal_actions, game.observe
    chance = getattr(game, "sample_chance", None) or partial(sample_chance, game)
    lazy = getattr(game, "lazy_observations", False)  # LazyObservation views are closed after each decision
    chooses, sees, picks = _seats(strategies, seat_rngs)
    log: list[tuple[int, Action]] = []
    watch = record or on_decision is not None
    # ``chance_run(state, rng, limit)``: consecutive chance events in one call, drawn as one by one
    chance_run = None if watch else getattr(game, "chance_run", None)
    n = 0
    chance_cap = 100 * max_decisions + 100_000  # a game stuck in chance events is truncated too
    while True:
        p = current_player(state)
        if p >= 0:  # a seat decides (CHANCE and TERMINAL are negative)
            if n >= max_decisions:
                return GameResult(state, n, True, log, "decision_cap")
            legal = legal_actions(state)
            if (pick := picks[p]) is not None:  # drawn here from the seat's stream (``random``): an element of ``legal``
                try:  # an empty ``legal`` fails the seat as its ``choose`` would (IndexError)
                    action = legal[int(pick() * len(legal))]
                except BaseException as exc:
                    _blame(exc, p, guard)
                    raise
            else:
                obs = observe(state, p) if sees[p] else None
                try:  # free in CPython 3.11+ unless it raises
                    action = chooses[p](obs, legal, seat_rngs[p])
                except BaseException as exc:  # sys.exit() or any BaseException in a plugin fails its game
                    _blame(exc, p, guard)
                    raise  # a real Ctrl-C (a signal) stops the run; a time limit fails the game
                if lazy and obs is not None:
                    close_view(obs)
                # identity first (a loop of ``is``: 4x cheaper than ``map(id, legal)``), then equality
                for offered in legal:
                    if offered is action:
                        break
                else:
                    if action not in legal:
                        raise IllegalActionError(p, f"seat {p} ({type(strategies[p]).__name__}) chose illegal"
                                                    f" action {action!r}")
            n += 1
        elif p == CHANCE:
            if chance_run is not None and chance_cap > 0:
                chance_cap -= chance_run(state, chance_rng, chance_cap)
                continue
            chance_cap -= 1
            if chance_cap < 0:
                return GameResult(state, n, True, log, "decision_cap")
            action = chance(state, chance_rng)
        else:  # TERMINAL: an engine may end a game nobody can continue, reported as truncated
            reason = _end_reason(game, state)
            return GameResult(state, n, reason != "finished", log, reason)
        if watch:
            if record:
                log.append((p, action))
            if on_decision is not None:
                on_decision(p, action)
        apply_action(state, action)


def _seats(strategies: Sequence[Strategy], seat_rngs: Sequence[Any]) -> tuple[list, list, list]:
    """Per seat, what the loop uses: ``choose``; whether it reads its observation (a strategy that
    declares ``reads_observation = False``, ``random``, is handed None: no view is built); and the
    bound ``random`` of its stream when its ``choose`` declares ``uniform_choice = True`` (``random``:
    ``legal[int(rng.random() * len(legal))]``), else None: such a seat is drawn for by the loop."""
    owners = [_choose_owner(s) for s in strategies]
    return ([s.choose for s in strategies],
            [_said(owner, "reads_observation", True) is not False for owner in owners],
            [rng.random if _said(owner, "uniform_choice", False) is True else None
             for owner, rng in zip(owners, seat_rngs, strict=False)])


def _declares(strategy: Any, name: str, default: Any) -> Any:
    """What the class whose ``choose`` will be called declares as ``name`` in its own body (``default``:
    not declared, or an instance's own ``choose``): not inherited by a ``choose`` that replaces it."""
    return _said(_choose_owner(strategy), name, default)


def _said(owner: type | None, name: str, default: Any) -> Any:
    """``_declares`` for a known owner (``_choose_owner``): one MRO walk per seat serves both."""
    return default if owner is None else vars(owner).get(name, default)


def _blame(exc: BaseException, seat: int, guard: bool) -> None:
    """Under ``guard``, raise ``StrategyError`` for ``seat`` if ``exc`` is the strategy's fault."""
    if guard and _strategy_fault(exc):
        raise StrategyError(seat, f"{type(exc).__name__}: {message_of(exc)}") from exc


def _strategy_fault(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a strategy, is the strategy's fault (its game fails): anything
    but a real Ctrl-C or SIGTERM (``Interrupts.signalled``) and the game's time limit."""
    return not isinstance(exc, GameTimeout) and not (isinstance(exc, KeyboardInterrupt) and Interrupts.signalled)


def _choose_owner(strategy: Any) -> type | None:
    """The class whose ``choose`` will be called (None: the instance's own, or none at all)."""
    if "choose" in getattr(strategy, "__dict__", ()):
        return None
    for klass in type(strategy).__mro__:
        if "choose" in vars(klass):
            return klass
    return None


class StrategyError(RuntimeError):
    """A strategy raised or returned an illegal action; carries the seat."""

    def __init__(self, seat: int, message: str):
        super().__init__(message)
        self.seat = seat


@lru_cache(maxsize=4)
def prepared(setup_json: str) -> tuple[Setup, Any, list[Any]]:
    """Per process: the setup, its game and one strategy factory per configured strategy."""
    setup = Setup.from_json(setup_json)
    add_module_folder(setup.module_folder)
    game = setup.build_game()
    # game=game lets strategies that need the forward model (search) receive it via bind()
    factories = [partial(make_strategy, name, params, setup.game, game=game, plugins=setup.plugins)
                 for name, params in setup.strategies]
    return setup, game, factories


def play_one(setup: Setup, game: Any, factories: list[Any], game_index: int, record: bool = False):
    """Play game ``game_index`` of a run (same streams and seating as in the run): ``(result, order)``.

    Strategies are built afresh for every game and seat (DESIGN "Strategies"), so no state
    leaks from one game to the next.
    """
    chance, seat_rngs = streams(setup, game_index)
    order = seat_labels(setup, game_index)
    seated = [_built(factories[k], seat) for seat, k in enumerate(order)]
    result = play_game(game, seated, chance, seat_rngs, max_decisions=setup.max_decisions, record=record, guard=True)
    return result, order


def _built(factory: Any, seat: int) -> Any:
    """A seat's strategy object; what its construction raises (even ``KeyboardInterrupt`` or a
    custom ``BaseException``) fails the game as ``StrategyError`` naming the seat, unless it is
    a real interrupt or the time limit (breaker finding 3, session 4)."""
    try:
        return factory()
    except BaseException as exc:
        if _strategy_fault(exc) and not isinstance(exc, SimError):
            raise StrategyError(seat, f"{type(exc).__name__} while building the strategy: {message_of(exc)}") from exc
        raise


class Rows:
    """Column lists of the five tables a range of games yields."""

    def __init__(self) -> None:
        self.games: dict[str, list] = {k: [] for k in ("game_index", "n_decisions", "truncated", "failed",
                                                       "n_winners", "winners", "end_reason", "deal_index")}
        self.summary: dict[str, list] = {}
        self.players: dict[str, list] = {k: [] for k in ("game_index", "seat", "strategy", "score", "rank", "won")}
        self.metric_cols: dict[str, list] = {}
        self.metric_games: list[tuple[int, dict]] = []  # (game index, its metrics) in play order
        self.components: dict[str, list] = {k: [] for k in ("game_index", "seat", "kind", "component")}
        self.errors: list[dict] = []

    def add_failed(self, setup: Setup, gi: int, exc: BaseException) -> None:
        seat = getattr(exc, "seat", None)
        order = seat_labels(setup, gi)
        self.errors.append({
            "game_index": gi, "seat": -1 if seat is None else seat,
            "strategy": "" if seat is None else setup.labels[order[seat]],
            "exception": type(exc.__cause__ or exc).__name__, "message": message_of(exc),
            "traceback": traceback.format_exc() if exc.__traceback__ is not None else f"{type(exc).__name__}: {message_of(exc)}\n",
            "seed": setup.seed,
        })
        for k, v in (("game_index", gi), ("n_decisions", 0), ("truncated", False), ("failed", True),
                     ("n_winners", 0), ("winners", []), ("end_reason", "failed"), ("deal_index", deal_index(setup, gi))):
            self.games[k].append(v)
        for col in self.summary.values():
            col.append(None)

    def add_game(self, setup: Setup, gi: int, result: GameResult, order: list[int], outcome: dict) -> None:
        scores, winners = outcome["scores"], outcome["winners"]
        g = self.games
        g["game_index"].append(gi)
        g["n_decisions"].append(result.n_decisions)
        g["truncated"].append(result.truncated)
        g["failed"].append(False)
        g["n_winners"].append(len(winners))
        g["winners"].append(sorted(winners))
        g["end_reason"].append(result.end_reason)
        g["deal_index"].append(deal_index(setup, gi))
        for key, value in outcome["summary"].items():
            col = self.summary.get(key)
            if col is None:  # a key first seen now: None for the games before (no padding list built per game)
                col = self.summary[key] = [None] * (len(g["game_index"]) - 1)
            col.append(value)
        n, labels, p = setup.players, setup.labels, self.players
        keys = [(i in winners, scores[i]) for i in range(n)]
        p["game_index"].extend([gi] * n)
        p["seat"].extend(range(n))
        p["strategy"].extend([labels[k] for k in order])
        p["score"].extend([float(x) for x in scores[:n]])
        p["rank"].extend([1 + sum(k > mine for k in keys) for mine in keys])
        p["won"].extend([i in winners for i in range(n)])
        for kind, per_seat in outcome["components"].items():
            for seat, names in enumerate(per_seat):
                for name in names:
                    for k, v in (("game_index", gi), ("seat", seat), ("kind", kind), ("component", name)):
                        self.components[k].append(v)
        metrics = outcome["metrics"]
        for name, values in metrics.items():
            self.metric_cols.setdefault(name, []).extend(values)
        # the long metrics table is built per chunk in ``tables`` (vectorised when every game
        # reports the same metrics, as engines do)
        self.metric_games.append((gi, metrics))

    def _metrics_table(self) -> pl.DataFrame:
        """The long ``metrics`` table: per game, per metric (in the engine's order), per seat."""
        schema = {"game_index": pl.Int64, "seat": pl.Int64, "metric": pl.Utf8, "value": pl.Float64}
        names = {tuple(m) for _, m in self.metric_games}
        lens = {len(v) for _, m in self.metric_games for v in m.values()}
        if len(names) == 1 and len(lens) == 1:  # the usual case: one block per game, one layout
            (order,), (n,) = names, lens
            k, g = len(order), len(self.metric_games)
            if not k:
                return pl.DataFrame(schema=schema)
            gis = [gi for gi, _ in self.metric_games]
            values = [float(x) for _, m in self.metric_games for name in order for x in m[name]]
            return pl.DataFrame({
                "game_index": pl.Series([gi for gi in gis for _ in range(k * n)], dtype=pl.Int64),
                "seat": pl.Series(list(range(n)) * (k * g), dtype=pl.Int64),
                "metric": pl.Series([name for name in order for _ in range(n)] * g, dtype=pl.Utf8),
                "value": pl.Series(values, dtype=pl.Float64),
            }, schema=schema)
        cols: dict[str, list] = {k: [] for k in schema}
        for gi, m in self.metric_games:
            for name, values in m.items():
                for seat, value in enumerate(values):
                    for k, v in (("game_index", gi), ("seat", seat), ("metric", name), ("value", float(value))):
                        cols[k].append(v)
        return pl.DataFrame(cols, schema=schema)

    def tables(self) -> dict[str, pl.DataFrame]:
        games = pl.DataFrame(self.games, schema_overrides={"winners": pl.List(pl.Int64)}).with_columns(
            [pl.Series(k, v, dtype=pl.Float64) for k, v in self.summary.items()])
        players = pl.DataFrame(self.players).with_columns(
            [pl.Series(k, v, dtype=pl.Float64) for k, v in self.metric_cols.items()])
        return {
            "games": games,
            "players": players,
            "metrics": self._metrics_table(),
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


def play_rows(setup_json: str, start: int, stop: int, before_game: Callable[[], None] | None = None
              ) -> tuple[int, int, Rows]:
    """Play games ``start..stop-1`` of a run; return ``(start, stop, rows)``: plain column lists
    (picklable, no polars: a forked worker must not touch polars' thread pool), made into the
    tables by ``rows.tables()``. ``before_game``: called before each game (a worker's check that
    ``sim`` still runs).

    Never raises for a game's fault: a failing game, or one running over ``game_timeout_s``
    (``GameTimeout``), is a row of ``errors`` with its seed.
    """
    with harmless_output(quiet=json.loads(setup_json).get("quiet", False)):  # from the plugins' import on
        setup, game, factories = prepared(setup_json)
        return start, stop, _play_games(setup, game, factories, start, stop, before_game)


def _play_games(setup: Setup, game: Any, factories: list[Any], start: int, stop: int,
                before_game: Callable[[], None] | None) -> Rows:
    """``play_rows``'s loop: each game played under the time limit, a failure recorded as a row."""
    rows = Rows()
    with TimeLimit(setup.game_timeout_s) as limit, Interrupts(), fewer_collections():
        for gi in range(start, stop):
            if before_game is not None:
                before_game()
            try:
                limit.arm()
                try:
                    result, order = play_one(setup, game, factories, gi)
                    outcome = _outcome(game, result)
                finally:
                    limit.disarm()
            except (Exception, SystemExit, GameTimeout) as exc:  # recorded with its seed, never kills the run
                rows.add_failed(setup, gi, exc)
                continue
            rows.add_game(setup, gi, result, order, outcome)
    return rows


def play_range(setup_json: str, start: int, stop: int, before_game: Callable[[], None] | None = None
               ) -> tuple[int, int, dict[str, pl.DataFrame]]:
    """``play_rows`` with the rows made into the tables ``games``, ``players``, ``metrics``,
    ``components`` and ``errors``: ``(start, stop, tables)``."""
    start, stop, rows = play_rows(setup_json, start, stop, before_game)
    return start, stop, rows.tables()


def failed_range(setup_json: str, start: int, stop: int, reason: str) -> tuple[int, int, dict[str, pl.DataFrame]]:
    """The tables of games ``start..stop-1`` recorded as failed with ``reason`` (``WorkerDied``),
    without playing them: for games whose worker process died."""
    setup = Setup.from_json(setup_json)
    rows = Rows()
    for gi in range(start, stop):
        rows.add_failed(setup, gi, WorkerDied(reason))
    return start, stop, rows.tables()
