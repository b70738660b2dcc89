"""The ``search`` strategy (ISMCTS) and the engines' ``determinize`` (issue 9)."""

from __future__ import annotations

import copy
import math
import pickle
import random
from pathlib import Path

import polars as pl
import pytest
from conftest import GAME_NAMES, random_walk
from scipy.stats import binom, binomtest

from sim import registry
from sim.api import CHANCE, TERMINAL, SimError, sample_chance
from sim.config import build_game, load_config
from sim.games.traders_of_osaka import TradersOfOsaka
from sim.play import play_game
from sim.registry import games, make_strategy
from sim.replay import replay
from sim.runs.fixed import run, setup_of
from sim.seeding import game_streams
from strategies.search import SearchStrategy

# ---------------------------------------------------------------- determinize, every game


def decision_points(game, seed: int, every: int = 7):
    """(true state copy, deciding seat) at every ``every``-th decision of a random game."""
    out = []
    count = [0]

    def check(s, p):
        if p >= 0:
            if count[0] % every == 0 and len(out) < 60:
                out.append((copy.deepcopy(s), p))
            count[0] += 1

    random_walk(game, seed, check)
    return out


@pytest.mark.parametrize("name", GAME_NAMES)
def test_determinize_is_consistent_with_the_observation(name, build):
    """``observe(determinize(obs, rng), seat) == obs``, the same seat decides with the same legal
    actions, and the state is a playable, picklable state (for every game)."""
    cls = games()[name]
    if not hasattr(cls, "determinize"):
        pytest.skip(f"{name} has no determinize(obs, rng) yet: search cannot play it")
    for players in sorted({cls.info.min_players, cls.info.max_players}):
        game = build(name, players)
        checked = 0
        for seed in range(3):
            for s, p in decision_points(game, seed):
                obs = game.observe(s, p)
                det = game.determinize(obs, random.Random(checked))
                checked += 1
                assert game.observe(det, p) == obs
                assert game.current_player(det) == p
                assert game.legal_actions(det) == game.legal_actions(s)
                assert pickle.loads(pickle.dumps(det)) == det
                again = game.determinize(obs, random.Random(checked - 1))
                assert again == det, "determinize depends only on the observation and the rng"
                # the determinized state plays on under the protocol
                rng = random.Random(seed)
                for _ in range(60):
                    q = game.current_player(det)
                    if q == TERMINAL:
                        break
                    if q == CHANCE:
                        game.apply_action(det, sample_chance(game, det, rng))
                    else:
                        legal = game.legal_actions(det)
                        assert legal
                        game.apply_action(det, legal[rng.randrange(len(legal))])
        assert checked > 10


@pytest.mark.parametrize("name", GAME_NAMES)
def test_scores_if_ended_leaves_the_state_alone_and_is_the_score_at_the_end(name, build):
    """``scores_if_ended`` (optional): one value per seat, the state unchanged, and at a terminal
    state exactly ``scores`` (the game has ended)."""
    game = build(name, 2)
    if not hasattr(game, "scores_if_ended"):
        pytest.skip(f"{name} scores as it goes: search values its depth cap with scores()")
    seen = []

    def check(s, p):
        before = copy.deepcopy(s)
        seen.append(len(game.scores_if_ended(s)))
        assert s == before

    final, _, ended = random_walk(game, 3, check)
    assert ended and set(seen) == {2}
    assert game.scores_if_ended(final) == game.scores(final)


def osaka_unseen(s, seat: int) -> list[int]:
    """Cards ``seat`` cannot see in state ``s``: the draw pile, other hands and the VP piles."""
    others = [c for i, h in enumerate(s.hands) if i != seat for c in h]
    return sorted(s.draw + others + [c for v in s.vp_cards for c in v])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_osaka_determinize_redraws_hidden_cards_from_the_truly_unseen(players):
    game = TradersOfOsaka(players)
    varied = 0
    for seed in range(4):
        for s, p in decision_points(game, seed, every=5):
            obs = game.observe(s, p)
            dets = [game.determinize(obs, random.Random(k)) for k in range(4)]
            for d in dets:
                # the hidden cards are the truly unseen ones, dealt to the same places
                assert osaka_unseen(d, p) == osaka_unseen(s, p)
                assert d.hands[p] == s.hands[p] and d.vp[p] == s.vp[p]
                assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
                assert len(d.draw) == len(s.draw)
                every = sorted(d.draw + d.discard + d.market + d.farm + [c for h in d.hands for c in h]
                               + [c for g in d.goods for c in g] + [c for v in d.vp_cards for c in v])
                assert every == list(range(len(game.cards)))  # every card exactly once
                # others' VP: at least one per payment scored (tokens beyond the setup one), and the
                # VP cards they hold add up to the VP cards not in the seat's own pile
                for i in range(players):
                    if i != p:
                        assert d.vp[i] >= max(0, sum(s.tokens[i]) - 1)
                        assert (d.vp[i] == 0) == (sum(s.tokens[i]) <= 1)
                assert sum(len(v) for v in d.vp_cards) == sum(len(v) for v in s.vp_cards)
            others = [tuple(tuple(h) for i, h in enumerate(d.hands) if i != p) + (tuple(d.draw),) for d in dets]
            varied += len(set(others)) > 1
    assert varied > 10, "hidden cards are redealt at random, not copied from the true state"


def test_osaka_determinize_refuses_observations_outside_decisions():
    game = TradersOfOsaka(2)
    s = game.new_initial_state()
    with pytest.raises(ValueError, match="at a decision"):
        game.determinize(game.observe(s, 0), random.Random(0))


# ---------------------------------------------------------------- search


def bound_search(game, **params):
    return make_strategy("search", params, game.info.name, game=game)


def test_search_is_registered_and_documented():
    assert registry.strategies()["search"] is SearchStrategy
    fields = SearchStrategy.Params.model_fields
    assert {"iterations", "exploration", "rollout", "rollout_params", "max_depth"} <= set(fields)
    assert all(f.description for f in fields.values())


def play_one(game, strategies, index: int, seed: int = 3):
    chance, rngs = game_streams(seed, index, game.num_players)
    return play_game(game, strategies, chance, rngs, max_decisions=3000, record=True)


def test_search_is_reproducible_for_a_fixed_seed():
    game = TradersOfOsaka(2)
    logs = []
    for _ in range(2):
        strategies = [bound_search(game, iterations=12, max_depth=12), make_strategy("random", {}, "traders_of_osaka")]
        logs.append(play_one(game, strategies, 0).log)
    assert logs[0] == logs[1]
    # and its choice at one decision depends on the rng only through the seed
    s, p = next((s, p) for s, p in decision_points(game, 1) if len(game.legal_actions(s)) > 3)
    search = bound_search(game, iterations=40, max_depth=20)
    picks = {search.choose(game.observe(s, p), game.legal_actions(s), random.Random(9)) for _ in range(3)}
    assert len(picks) == 1


class SpyGame:
    """The real game, recording every state handed to it and every observation determinized."""

    def __init__(self, game):
        self._game, self.states, self.determinized = game, [], []

    def __getattr__(self, name):
        attr = getattr(self._game, name)
        if not callable(attr) or name in ("determinize",):
            return attr

        def spy(*args, **kwargs):
            self.states.extend(a for a in args if type(a).__name__ == "State")
            return attr(*args, **kwargs)

        return spy

    def determinize(self, obs, rng):
        self.determinized.append(obs)
        state = self._game.determinize(obs, rng)
        self.states.append(state)
        return state


def test_search_never_sees_the_true_state():
    """Search gets observations only: the forward model it is bound to never receives the game's
    true state, and every state it simulates starts from ``determinize(obs)`` of the obs it got."""
    game = TradersOfOsaka(2)
    spy = SpyGame(game)
    search = make_strategy("search", {"iterations": 10, "max_depth": 10}, "traders_of_osaka", game=spy)
    seen_obs = []
    inner = search.choose

    def choose(obs, legal, rng):
        seen_obs.append(obs)
        return inner(obs, legal, rng)

    search.choose = choose
    true_state = game.new_initial_state()
    result = play_game(game, [search, make_strategy("random", {}, "traders_of_osaka")],
                       *game_streams(5, 0, 2), max_decisions=3000, state=true_state)
    assert result.state is true_state and game.current_player(true_state) == TERMINAL
    assert spy.states and all(st is not result.state for st in spy.states)
    assert spy.determinized and all(any(o is d for o in seen_obs) for d in spy.determinized)


def test_changing_hidden_information_does_not_change_the_choice():
    game = TradersOfOsaka(2)
    search = bound_search(game, iterations=30, max_depth=15)
    tried = 0
    for s, p in decision_points(game, 2, every=3):
        legal = game.legal_actions(s)
        other = 1 - p
        if len(legal) < 3 or not s.hands[other] or not s.draw:
            continue
        t = copy.deepcopy(s)  # swap the other hand with the draw pile's first cards: unseen by p
        k = min(len(t.hands[other]), len(t.draw))
        t.hands[other][:k], t.draw[:k] = t.draw[:k], t.hands[other][:k]
        t.hand_value[other] = sum(game.value[c] for c in t.hands[other])
        t.vp[other] += 3
        assert t != s and game.observe(t, p) == game.observe(s, p)
        a = search.choose(game.observe(s, p), legal, random.Random(tried))
        b = search.choose(game.observe(t, p), game.legal_actions(t), random.Random(tried))
        assert a == b
        tried += 1
        if tried == 4:
            break
    assert tried == 4


def test_search_rewards_work_for_two_to_six_players():
    assert SearchStrategy.rewards((3.0, 1.0), frozenset({0})) == ([1.0, 0.0], [2.0, -2.0])
    rank, _ = SearchStrategy.rewards((5.0, 5.0, 1.0), frozenset({0, 1}))
    assert rank == [0.75, 0.75, 0.0]
    for n in range(2, 7):
        scores = tuple(float(i) for i in range(n))
        rank, margin = SearchStrategy.rewards(scores, frozenset({n - 1}))
        assert rank[-1] == 1.0 and rank[0] == 0.0 and all(0 <= r <= 1 for r in rank)
        assert rank == sorted(rank) and margin[-1] == 1.0
    # the winner decides before the score (a tie-break may crown the lower score)
    assert SearchStrategy.rewards((4.0, 4.0), frozenset({1}))[0] == [0.0, 1.0]
    assert SearchStrategy.rewards((4.0, 4.0), None)[0] == [0.5, 0.5]  # depth cap: scores only


def test_search_parameter_errors_are_clear():
    with pytest.raises(SimError, match="iterations"):
        make_strategy("search", {"iterations": 0}, "traders_of_osaka")
    with pytest.raises(SimError, match="search: rollout: unknown strategy .nobody."):
        make_strategy("search", {"rollout": "nobody"}, "traders_of_osaka")
    with pytest.raises(SimError, match="cannot be 'search'"):
        make_strategy("search", {"rollout": "search"}, "traders_of_osaka")
    with pytest.raises(SimError, match="bad params"):
        make_strategy("search", {"rollout": "osaka.trader", "rollout_params": {"nope": 1}}, "traders_of_osaka")
    unbound = make_strategy("search", {}, "traders_of_osaka")
    game = TradersOfOsaka(2)
    s, p = next((s, p) for s, p in decision_points(game, 0) if len(game.legal_actions(s)) > 1)
    with pytest.raises(SimError, match="not bound to a game"):
        unbound.choose(game.observe(s, p), game.legal_actions(s), random.Random(0))


def test_portfolio_parameter_errors_are_clear():
    with pytest.raises(SimError, match=r"search: portfolio\[1\]: unknown strategy .nobody."):
        make_strategy("search", {"portfolio": ["osaka.trader", "nobody"]}, "traders_of_osaka")
    with pytest.raises(SimError, match="portfolio strategy cannot be 'search'"):
        make_strategy("search", {"portfolio": ["search"]}, "traders_of_osaka")
    with pytest.raises(SimError, match=r"search: portfolio\[0\]: strategy 'osaka.trader': bad params: 'nope'"):
        make_strategy("search", {"portfolio": [{"name": "osaka.trader", "params": {"nope": 1}}]}, "traders_of_osaka")
    with pytest.raises(SimError, match=r"search: portfolio\[0\]: .*xanadu"):  # a plan of another game
        make_strategy("search", {"portfolio": ["xanadu.builder"]}, "traders_of_osaka")
    with pytest.raises(SimError, match="search: rollout: .*xanadu"):
        make_strategy("search", {"rollout": "xanadu.builder"}, "traders_of_osaka")
    with pytest.raises(SimError, match="must be a list of strategies, e.g."):
        make_strategy("search", {"portfolio": "osaka.trader"}, "traders_of_osaka")
    with pytest.raises(SimError, match="item 0 must be a strategy name or"):
        make_strategy("search", {"portfolio": [3]}, "traders_of_osaka")


def test_a_portfolio_strategy_choosing_an_illegal_action_is_named():
    class Stubborn:
        def choose(self, obs, legal, rng):
            return "not a move"

    game = TradersOfOsaka(2)
    search = bound_search(game, iterations=4, portfolio=["osaka.trader", "osaka.hoarder"])
    search._portfolio[1] = Stubborn()
    s, p = next((s, p) for s, p in decision_points(game, 0) if len(game.legal_actions(s)) > 1)
    with pytest.raises(SimError, match=r"portfolio\[1\] \(osaka.hoarder\) chose illegal action 'not a move'"):
        search.choose(game.observe(s, p), game.legal_actions(s), random.Random(0))


@pytest.mark.parametrize("name,plans", [
    ("xanadu", ["xanadu.saboteur", "xanadu.builder", "xanadu.hoarder"]),
    ("taiwan_formosa", ["taiwan.landmarks", "taiwan.economy", "taiwan.tempo"]),
])
def test_portfolio_search_plays_only_moves_of_its_plans(name, plans):
    """With a portfolio, every move is one that a plan of the portfolio plays in that position,
    and where the plans agree no simulation is run."""
    game = registry.get_game(name).build(2)
    search = bound_search(game, iterations=6, max_depth=6, rollout=plans[0], portfolio=plans)
    agreed = disagreed = 0
    for s, p in decision_points(game, 5, every=3):
        obs, legal = game.observe(s, p), game.legal_actions(s)
        shared = random.Random(1)  # search asks its plans in portfolio order on one stream
        proposals = {make_strategy(x, {}, name, game=game).choose(obs, legal, shared) for x in plans}
        before = search.simulations
        move = search.choose(obs, legal, random.Random(1))
        assert move in proposals
        if len(proposals) == 1:
            agreed += 1
            assert search.simulations == before
        else:
            disagreed += 1
            assert search.simulations > before
    assert agreed and disagreed


def test_search_refuses_a_game_without_determinize(monkeypatch):
    class NoDeterminize:
        info = TradersOfOsaka.info

    monkeypatch.setattr(registry, "get_game", lambda name: NoDeterminize)
    with pytest.raises(SimError, match="needs the game to provide determinize"):
        make_strategy("search", {}, "traders_of_osaka")


@pytest.mark.integration
def test_search_config_runs_and_replays(tmp_path):
    """The runner binds the game (``make_strategy(..., game=game)``); replay gives the same game."""
    cfg = tmp_path / "s.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 2\nseed: 11\nstrategies:\n"
                   "  - {name: search, params: {iterations: 8, max_depth: 10}}\n  - {name: random}\n")
    rc = load_config(cfg)
    out = run(rc, tmp_path / "run", progress=False)
    assert out.failed == 0
    games_df = pl.read_parquet(tmp_path / "run" / "games.parquet")
    lines, result = replay(setup_of(rc), build_game(rc), 1)
    assert result is not None and result.n_decisions == games_df["n_decisions"][1]


def test_shipped_search_configs_are_valid():
    for path in sorted((Path(__file__).resolve().parents[1] / "configs").rglob("search*.yaml")):
        rc = load_config(path)
        assert any(s.name == "search" for s in rc.strategies)


# ---------------------------------------------------------------- strength


def head_to_head(game, a, b, games: int, seed: int) -> float:
    """Games won by ``a`` (shared wins count their share) over ``games`` games, seats alternating."""
    won = 0.0
    for i in range(games):
        seats = [a, b] if i % 2 == 0 else [b, a]
        r = play_one(game, seats, i, seed)
        w = game.winners(r.state)
        if seats.index(a) in w:
            won += 1 / len(w)
    return won


RANDOM_ROLLOUTS = {"iterations": 24, "max_depth": 24}
TRADER_ROLLOUTS = {"iterations": 12, "max_depth": 24, "rollout": "osaka.trader"}


@pytest.mark.parametrize("opponent,params,games", [
    pytest.param("random", RANDOM_ROLLOUTS, 12, marks=pytest.mark.integration),
    # 12 left no margin (10 of 12 needed): 9.5 of 12, 20 of 24 after the tie fix. Nightly: 24 games
    # of search with scripted rollouts are about 90 s of `make test` on a slow 2-core machine, and the
    # every-game check below catches a collapse of search in `make test`
    pytest.param("osaka.hoarder", TRADER_ROLLOUTS, 24, marks=pytest.mark.slow),
])
def test_search_beats_random_and_a_scripted_plan(opponent, params, games):
    """One-sided binomial test (p < 0.05) of search's wins against the null of equal strength
    (1/2), with a modest budget; the games are those of the matching configs
    (configs/traders_of_osaka/search_vs_random.yaml, search_trader_rollouts_vs_hoarder.yaml).
    Bigger measurements, and search with random rollouts against every scripted plan (it beats
    osaka.hoarder too, over 72 games): docs/strategies.md."""
    game = TradersOfOsaka(2)
    search = bound_search(game, **params)
    other = make_strategy(opponent, {}, "traders_of_osaka")
    wins = head_to_head(game, search, other, games, seed=2026)
    p = binomtest(math.floor(wins), games, 0.5, alternative="greater").pvalue
    assert p < 0.05, f"search won {wins}/{games} against {opponent} (p = {p:.3f})"


def search_wins(config: str, games: int, out: Path, opponent: str | None = None) -> tuple[float, int]:
    """Play the first ``games`` games of a shipped head-to-head config (2 jobs) through the runner,
    against its own second strategy or ``opponent``; search's wins (a shared win counts its
    share) and the number of games."""
    path = Path(__file__).resolve().parents[1] / "configs" / config
    overrides: dict = {"games": games, "jobs": 2}
    if opponent is not None:
        mine = next(s for s in load_config(path).strategies if s.name == "search")
        overrides["strategies"] = [mine.model_dump(exclude_none=True), {"name": opponent}]
    rc = load_config(path, overrides)
    assert run(rc, out, progress=False).failed == 0
    players = pl.read_parquet(out / "players.parquet").join(
        pl.read_parquet(out / "games.parquet").select("game_index", "n_winners"), on="game_index")
    mine = players.filter(pl.col("strategy") == "search")
    assert mine.height == games
    return mine.select(pl.when(pl.col("won")).then(1 / pl.col("n_winners")).otherwise(0.0).sum()).item(), games


def min_wins(n: int, rate: float, alpha: float = 0.01) -> int:
    """The fewest wins out of ``n`` that a one-sided binomial test at level ``alpha`` accepts as
    consistent with a true win rate ``rate``: the smallest k with P(X <= k) > alpha for
    X ~ Binomial(n, rate). Fewer than k wins would happen with probability at most ``alpha`` if
    search were still as strong as measured, so a test asserting ``wins >= min_wins(n, rate)``
    raises a false alarm at most 1% of the time (over seeds), and fails when the win rate fell."""
    k = 0
    while binom.cdf(k, n, rate) <= alpha:
        k += 1
    return k


# (config, win rate of search over the config's games against its plan (40; Forwarder of Xanadu 100:
# docs/search_results.md, re-measured on this code; the rates here were the figures before that
# re-measurement until session 8, designer finding 10; run again in session 8: Taiwan 34 and Xanadu 35
# of 40 as documented, Alpenzian 34 of 40, up from 31.5),
# games against the plan in `make test`, games against the plan at full power (nightly))
EVERY_GAME = [
    ("taiwan_formosa/search_portfolio.yaml", 34 / 40, 8, 40),
    ("xanadu/search_portfolio.yaml", 35 / 40, 8, 16),
    ("alpenzian/search_portfolio.yaml", 34 / 40, 4, 40),
    # against the economy plan retuned in session 4, search without a portfolio (search_vs_economy.yaml)
    # won 58.5 of 104 (p = 0.14); the portfolio config 75 of 100; 28 games give 86% power at 75%
    ("forwarder_of_xanadu/search_portfolio.yaml", 75 / 100, 6, 28),
]
# `make test` runs the quick check below only where it can catch a collapse (a search without its
# portfolio or rollouts passes it with probability 0.0004 in Taiwan Formosa and in Xanadu, but
# 0.40 in Alpenzian and 0.94 in Forwarder of Xanadu, where it cost 40-60 s for almost no power): those
# two run nightly, like the full-power test
QUICK = [pytest.param(*c[:3], id=c[0].split("/")[0], marks=pytest.mark.integration if c[0].startswith(("taiwan", "xanadu"))
                      else pytest.mark.slow) for c in EVERY_GAME]


@pytest.mark.parametrize("config,rate", [c[:2] for c in EVERY_GAME])
def test_the_rates_here_are_the_ones_docs_search_results_reports(config, rate):
    """Designer finding 10 (session 8): this file's Taiwan rate said 32/40 while the documented,
    measured figure was 34/40. Each rate above must be the wins over the games of the config's line
    in the portfolio table of docs/search_results.md (its first line naming the config)."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "search_results.md").read_text()
    row = re.search(rf"^\| `{re.escape(config)}`[^|]*\|[^|]*\|[^|]*\| (\d+) \| ([\d.]+) \|", text, re.M)
    assert row, f"no line for {config} in docs/search_results.md"
    assert rate == pytest.approx(float(row[2]) / int(row[1])), (config, row[0])


@pytest.mark.parametrize("config,rate,games", QUICK)
def test_search_keeps_its_measured_strength_in_every_game(config, rate, games, tmp_path):
    """The quick version of the next test, which runs nightly (``make test-slow``) at full
    power (in `make test` for Taiwan Formosa and Xanadu only: ``QUICK``). In every game search, with
    the shipped params, plays through the runner the first
    ``games`` games of the shipped config against its plan (search against ``random`` is the
    nightly test's: 8 games per game).

    The count must reach ``min_wins(n, rate)``: the one-sided binomial test at alpha 0.01 of "search
    is still as strong as measured", ``rate`` being its measured win rate against the plan over
    the config's 40 games (Forwarder of Xanadu: 100; docs/search_results.md). Worked out: Taiwan
    Formosa, 8 games at 85%: P(X <= 3) = 0.0029, P(X <= 4) = 0.0214 for X ~ Bin(8, 0.85), so 4 wins
    are needed; Xanadu 8 at 87.5%: 4; Alpenzian 4 at 85%: 1; Forwarder of Xanadu 6 at 75%: 2, since
    P(X <= 1) = 0.0046 and P(X <= 2) = 0.0376 for X ~ Bin(6, 0.75).
    So a search as strong as measured fails it at most 1% of the time over seeds, and a collapse
    is caught: search without its portfolio or scripted rollouts (0-5% in Taiwan Formosa and
    Xanadu, 12% in Alpenzian, 56% in Forwarder of Xanadu without the portfolio, docs/search_results.md)
    passes with probability 0.0004 (Taiwan and Xanadu, P(X >= 4), X ~ Bin(8, 0.05)), 0.40
    (Alpenzian) and 0.94 (Forwarder, P(X >= 2), X ~ Bin(6, 0.56): this check catches only a total
    collapse there). A small loss of strength is the nightly test's to find, and so is the
    proof that search *beats* the plans.
    The games are seeded, so each count is a deterministic check of the code: 5 of 8, 7 of 8, 3
    of 4 and 5 of 6 against the plans when the test was written (Forwarder: session 7)."""
    wins, n = search_wins(config, games, tmp_path / "plan")
    need = min_wins(n, rate)
    assert wins >= need, f"{config}: search won {wins}/{n} against its plan; at least {need} expected at {rate:.0%}"


@pytest.mark.slow
@pytest.mark.parametrize("config,games", [(c[0], c[3]) for c in EVERY_GAME])
def test_search_beats_random_and_a_scripted_plan_in_every_game(config, games, tmp_path):
    """Issue 9: in every game, with a modest budget, search beats ``random`` and a scripted plan:
    one-sided binomial test (p < 0.05) of its wins against the null of equal strength (1/2),
    over the first games of the shipped config (all 40: docs/search_results.md), then with the
    same search params over 8 games against ``random`` (7 of 8 needed). The number of games
    against the plan gives the test at least 80% power at the win rate measured over 40 games
    (100 in Forwarder of Xanadu): e.g. 71% in Alpenzian needed 40 games (85% since re-measured: more power); 75% in Forwarder of Xanadu
    28 (at least 19 wins needed, P(X >= 19) = 0.86 for X ~ Bin(28, 0.75); 80% or more for every
    count from 28 up, where 23-27 games dip below). Traders of Osaka:
    ``test_search_beats_random_and_a_scripted_plan`` above."""
    for opponent, n in ((None, games), ("random", 8)):
        wins, n = search_wins(config, n, tmp_path / (opponent or "plan"), opponent)
        p = binomtest(math.floor(wins), n, 0.5, alternative="greater").pvalue
        assert p < 0.05, f"{config}: search won {wins}/{n} against {opponent or 'its plan'} (p = {p:.3f})"
