"""``search``: information-set Monte Carlo tree search, for every game with ``determinize``.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012). Each of ``iterations`` simulations:

1. **determinize**: ``game.determinize(obs, rng)`` deals what the seat cannot see (others' hands,
   the draw pile, secret scores) at random, consistently with its observation;
2. **select** down one tree shared by every determinization, keyed by ``(player, action)``:
   among the children legal in this determinization, the best by UCB1 where a child's count of
   trials is the number of times it was *available* (the ISMCTS rule); chance nodes are sampled
   and not stored (open loop);
3. **expand** one untried action, chosen at random;
4. **roll out** with the ``rollout`` strategy (any registered name; ``random`` by default) for at
   most ``max_depth`` decisions;
5. **back up** each seat's reward: the share of the other seats it beats (ties half) in
   ``(winner, score)`` at the end, or by score when the depth cap stops the rollout (the game's
   ``scores_if_ended(state)`` where it has one: the score if the game ended now); 1 means
   beating everyone whatever the number of players. A one-player game uses its score,
   normalised by the range seen during the search.

With ``portfolio`` (a list of strategies) the candidate moves at every tree node are only the
distinct moves those strategies would play there (portfolio greedy search, Churchill & Buro 2013);
where they agree the move is played without searching.

The move played is the root action simulated most often (equal counts: the best mean, then one
at random from the seat's ``rng``; equal UCB1 values in the tree likewise: never the first listed,
so no seat or list position wins ties, issue 17); the search stops early once no
remaining simulation could change which one that is (same move, fewer simulations). A decision
with a single legal action is not searched. The budget is a number of simulations, never a
time, and every random draw comes from the ``rng`` given to ``choose``, so a fixed seed gives
the same move on any machine.

The value backed up mixes the rank share with the score margin (score minus the best other
score, normalised by the range seen in this search) by ``score_weight``.

**The strategy never sees the true state.** It receives the seat's observation, like every
strategy; the game object it is bound to (``bind``, called by the runner through
``make_strategy(..., game=game)``) is the stateless forward model, used only to determinize
from that observation and to simulate.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sim.api import CHANCE, TERMINAL, ParamsError, SimError, close_view, sample_chance
from strategies.common import RandomStrategy, ScriptedStrategy


class _Node:
    """A tree node: the move ``(player, action)`` that reached it and its statistics."""

    __slots__ = ("player", "visits", "total", "margin", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.total = 0.0  # sum of ``player``'s rank rewards over the simulations through this node
        self.margin = 0.0  # sum of ``player``'s score margins over them
        self.avail = 0  # simulations in which this move was legal at its parent
        self.children: dict[tuple[int, Any], _Node] = {}


class _Spec(BaseModel):
    """A strategy of the portfolio: registry name or import string, and its params."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)  # .nan/.inf: config errors
    name: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)


class SearchStrategy(ScriptedStrategy):
    """ISMCTS: determinizes hidden information, then searches (any game with determinize)."""

    class Params(ScriptedStrategy.Params):
        iterations: int = Field(100, ge=1, description="simulations per decision (a budget in simulations, never in time)")
        exploration: float = Field(0.7, ge=0, description="UCB1 exploration constant c (mean + c * sqrt(ln(available) / visits))")
        rollout: str = Field("random", min_length=1, description="strategy playing every seat after the tree: a registry name or import string")
        rollout_params: dict[str, Any] = Field(default_factory=dict, description="params of the rollout strategy")
        max_depth: int | None = Field(16, ge=0, description="rollout depth cap in decisions (None: play to the end); scores decide then")
        score_weight: float = Field(0.5, ge=0, le=1, description="weight of the score margin (normalised) against the rank reward")
        portfolio: list[_Spec] = Field(default_factory=list, description="strategies whose moves are the only candidates at every tree node (portfolio search): names, import strings or {name, params}; empty: every legal move")

        @field_validator("rollout")
        @classmethod
        def _not_search(cls, v: str) -> str:
            if v == "search":
                raise ValueError("the rollout strategy cannot be 'search' itself")
            return v

        @field_validator("portfolio", mode="before")
        @classmethod
        def _specs(cls, v: Any) -> Any:
            if not isinstance(v, list):
                raise ValueError("must be a list of strategies, e.g. [xanadu.builder, xanadu.hoarder]")
            out = []
            for i, x in enumerate(v):
                if isinstance(x, str):
                    x = {"name": x}
                if not isinstance(x, dict):
                    raise ValueError(f"item {i} must be a strategy name or {{name, params}}, got {x!r}")
                if x.get("name") == "search":
                    raise ValueError("a portfolio strategy cannot be 'search' itself")
                out.append(x)
            return out

    requires = ("determinize",)  # methods the game must provide (checked by ``check_game``)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.game: Any = None
        self._rollout: Any = None
        self._portfolio: list[Any] = []
        self.simulations = 0  # simulations run so far by this instance (for benchmarks and tests)
        self._fast_random = False

    # ---------------------------------------------------------------- wiring
    def check_game(self, game_name: str, lookup: Any) -> None:
        """Raise ``SimError`` unless ``game_name`` has ``determinize`` and the rollout and portfolio
        strategies exist and play it. ``lookup``: the registry's functions, passed down by
        ``make_strategy`` (strategies sit below the registry and never import it)."""
        names = [("rollout", "rollout", self.p.rollout)]
        names += [(f"portfolio[{i}]", "portfolio", x.name) for i, x in enumerate(self.p.portfolio)]
        for role, key, name in names:  # an unknown name fails at config validation, not in a worker
            try:
                lookup.resolve_strategy(name)
            except SimError as exc:
                raise ParamsError(f"search: {role}: {exc}", key) from None
        self._helpers(game_name, lookup)

    def _helpers(self, game_name: str, lookup: Any, game: Any = None) -> tuple[Any, list[Any]]:
        """Check that the game has what search needs, then build the rollout strategy and the
        portfolio (bound to ``game`` when given); a ``ParamsError`` names which one is at fault."""
        missing = [m for m in self.requires if not hasattr(lookup.get_game(game_name), m)]
        if missing:
            raise SimError(f"strategy 'search' needs the game to provide {', '.join(missing)}(); "
                           f"'{game_name}' does not yet")

        def build(role: str, key: str, name: str, params: dict) -> Any:
            try:
                return lookup.make_strategy(name, params, game_name, game=game)
            except SimError as exc:
                raise ParamsError(f"search: {role}: {exc}", key) from None

        key = "rollout_params" if self.p.rollout_params else "rollout"
        rollout = build("rollout", key, self.p.rollout, self.p.rollout_params)
        return rollout, [build(f"portfolio[{i}]", "portfolio", x.name, x.params)
                         for i, x in enumerate(self.p.portfolio)]

    def bind(self, game: Any, lookup: Any) -> None:
        """Receive the forward model (the game object, never a state) and the registry's functions.
        Called by ``make_strategy`` with ``game=``, i.e. whenever a run builds the seat's strategy."""
        self._rollout, self._portfolio = self._helpers(game.info.name, lookup, game)
        self.game = game
        self._fast_random = type(self._rollout) is RandomStrategy  # same draws as its choose, no observe
        # at the depth cap: the score if the game ended now when the game can tell, else the score so far
        self._cap_scores = getattr(game, "scores_if_ended", game.scores)
        opts = getattr(game, "options", None)
        self._cap = getattr(opts, "max_decisions", 5000)

    # ---------------------------------------------------------------- search
    def choose(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        if self.game is None:
            raise SimError("strategy 'search' is not bound to a game: build it with "
                           "make_strategy(name, params, game_name, game=game) or call bind(game)")
        if self._portfolio:
            legal = self._candidates(obs, legal, rng)
            if len(legal) == 1:
                return legal[0]  # the portfolio agrees: nothing to search
        root = _Node(-1)
        bounds = [math.inf, -math.inf]  # range of score margins seen in this search
        budget = self.p.iterations
        for it in range(1, budget + 1):
            self._simulate(root, obs, legal, rng, bounds)
            self.simulations += 1
            if it >= len(legal) and self._decided(root, budget - it):
                break  # no remaining simulation can change the most visited move
        seat = next(iter(root.children))[0]
        best, key, ties = legal[0], (-1, -math.inf), 0
        for a in legal:  # most visited, then best mean, then at random (never by position or seat)
            child = root.children.get((seat, a))
            if child is None:
                continue
            k = (child.visits, child.total / child.visits)
            if k > key:
                best, key, ties = a, k, 1
            elif k == key:
                ties += 1
                if rng.random() * ties < 1:  # reservoir: each of the tied moves with probability 1/ties
                    best = a
        return best

    def _candidates(self, obs: Any, legal: Sequence[Any], rng: random.Random) -> list[Any]:
        """The distinct moves the portfolio's strategies would play, in portfolio order.

        Raises ``SimError`` naming the portfolio strategy that chose an illegal action."""
        out: list[Any] = []
        for i, strategy in enumerate(self._portfolio):
            a = strategy.choose(obs, legal, rng)
            if a not in legal:
                raise SimError(f"search: portfolio[{i}] ({self.p.portfolio[i].name}) chose illegal action {a!r}")
            if a not in out:
                out.append(a)
        return out

    @staticmethod
    def _decided(root: _Node, remaining: int) -> bool:
        """True when the most visited root move leads the next by more than ``remaining`` visits.

        Stopping then returns the move the full budget would return (fewer simulations, same move).
        """
        first = second = 0
        for child in root.children.values():
            v = child.visits
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        return first - second > remaining

    def _simulate(self, root: _Node, obs: Any, legal: Sequence[Any], rng: random.Random, bounds: list) -> None:
        game = self.game
        current, apply, legal_actions = game.current_player, game.apply_action, game.legal_actions
        state = game.determinize(obs, rng)
        node, path = root, []
        portfolio = self._portfolio
        c = self.p.exploration
        lo, hi = bounds
        scale = 0.0 if hi <= lo else 1.0 / (hi - lo)
        w = 1.0 if getattr(game, "num_players", 2) == 1 else self.p.score_weight
        while True:  # selection and expansion
            p = current(state)
            if p == TERMINAL:
                break
            if p == CHANCE:
                apply(state, sample_chance(game, state, rng))
                continue
            if node is root:
                acts = legal
            elif portfolio:
                obs = game.observe(state, p)
                acts = self._candidates(obs, legal_actions(state), rng)
                close_view(obs)
            else:
                acts = legal_actions(state)
            kids = node.children
            untried = []
            best, best_value, ties = None, -math.inf, 0
            for a in acts:
                child = kids.get((p, a))
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
                if untried:
                    continue
                mean = child.total / child.visits
                if w:
                    norm = (child.margin / child.visits - lo) * scale if scale else 0.5
                    mean = (1.0 - w) * mean + w * norm
                value = mean + c * math.sqrt(math.log(child.avail) / child.visits)
                if value > best_value:
                    best, best_value, ties = child, value, 1
                    best_action = a
                elif value == best_value:  # equal UCB values: one at random, not the first listed
                    ties += 1
                    if rng.random() * ties < 1:
                        best, best_action = child, a
            if untried:
                a = untried[int(rng.random() * len(untried))]
                child = kids[(p, a)] = _Node(p)
                child.avail = 1
                apply(state, a)
                path.append(child)
                break
            apply(state, best_action)
            path.append(best)
            node = best
        rank, margin = self._rollout_reward(state, rng)
        if w:
            bounds[0], bounds[1] = min(bounds[0], *margin), max(bounds[1], *margin)
        for child in path:
            child.visits += 1
            child.total += rank[child.player]
            child.margin += margin[child.player]

    def _rollout_reward(self, state: Any, rng: random.Random) -> tuple[list[float], list[float]]:
        """Play the rollout strategy from ``state``; each seat's ``rewards`` at the end or the cap."""
        game = self.game
        current, apply, legal_actions = game.current_player, game.apply_action, game.legal_actions
        cap = self.p.max_depth if self.p.max_depth is not None else self._cap
        fast, choose, observe = self._fast_random, self._rollout.choose, game.observe
        depth = 0
        while True:
            p = current(state)
            if p == TERMINAL:
                return self.rewards(game.scores(state), game.winners(state))
            if p == CHANCE:
                apply(state, sample_chance(game, state, rng))
                continue
            if depth >= cap:
                return self.rewards(self._cap_scores(state), None)
            acts = legal_actions(state)
            if fast:
                apply(state, acts[int(rng.random() * len(acts))])
            else:
                obs = observe(state, p)
                a = choose(obs, acts, rng)
                close_view(obs)  # a lazy view kept by the rollout strategy never shows a later state
                apply(state, a)
            depth += 1

    @staticmethod
    def rewards(scores: Sequence[float], winners: frozenset[int] | None) -> tuple[list[float], list[float]]:
        """Per seat ``(rank, margin)``. ``rank``: the share of other seats it beats in
        ``(winner, score)``, ties counting half, in [0, 1] for 2-6 players (1: beats everyone).
        ``margin``: its score minus the best other score. ``winners`` is ``None`` when the game
        has not ended (the depth cap): scores alone decide. One player: rank 0.5, margin = score.
        """
        n = len(scores)
        if n == 1:
            return [0.5], [float(scores[0])]
        keys = [(i in winners, scores[i]) for i in range(n)] if winners is not None else list(scores)
        rank, margin = [], []
        for i in range(n):
            k = keys[i]
            beat = sum(1.0 if keys[j] < k else 0.5 if keys[j] == k else 0.0 for j in range(n) if j != i)
            rank.append(beat / (n - 1))
            margin.append(float(scores[i]) - max(scores[j] for j in range(n) if j != i))
        return rank, margin


STRATEGIES = {"search": SearchStrategy}
