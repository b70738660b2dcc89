"""The scripted Osaka strategies play legal, different plans and beat random play."""

from __future__ import annotations

import polars as pl
import pytest

from sim.games.traders_of_osaka import TradersOfOsaka
from sim.play import play_game
from sim.registry import make_strategy
from sim.seeding import game_streams
from strategies.traders_of_osaka import best_payment

PLANS = ["osaka.trader", "osaka.hoarder", "osaka.shipper"]


def play(names, games=60, seed=1):
    g = TradersOfOsaka(len(names))
    rows = []
    for i in range(games):
        order = [(k + i) % len(names) for k in range(len(names))]
        strats = [make_strategy(names[k], {}, "traders_of_osaka") for k in order]
        chance, rngs = game_streams(seed, i, len(names))
        r = play_game(g, strats, chance, rngs, max_decisions=3000)
        m = g.metrics(r.state)
        for seat, k in enumerate(order):
            rows.append({"strategy": names[k], "won": seat in g.winners(r.state), "vp": r.state.vp[seat],
                         "bought": m["goods_bought"][seat], "purchases": m["purchases"][seat], "insured": m["goods_insured"][seat],
                         "hand": len(r.state.hands[seat])})
    return pl.DataFrame(rows)


@pytest.mark.parametrize("plan", PLANS)
def test_each_plan_beats_random_head_to_head(plan):
    df = play([plan, "random"], games=60)
    wins = df.filter(pl.col("strategy") == plan)["won"].sum()
    assert wins >= 45, f"{plan} won only {wins} of 60 against random"


def test_plans_are_recognisably_different():
    df = play(PLANS, games=60).group_by("strategy").agg(pl.col("bought", "purchases", "insured").sum()).sort("strategy")
    by = {r["strategy"]: r for r in df.iter_rows(named=True)}
    per = {k: v["bought"] / v["purchases"] for k, v in by.items()}
    # the hoarder saves for big Markets: the most goods per purchase, the fewest purchases
    assert per["osaka.hoarder"] > max(per["osaka.trader"], per["osaka.shipper"])
    assert by["osaka.hoarder"]["purchases"] < min(by["osaka.trader"]["purchases"], by["osaka.shipper"]["purchases"])
    # the trader buys whenever it can: the most purchases
    assert by["osaka.trader"]["purchases"] > by["osaka.shipper"]["purchases"]
    # the shipper insures whatever is exposed; the trader waits for two exposed goods
    assert by["osaka.shipper"]["insured"] > by["osaka.trader"]["insured"]


def test_best_payment_covers_with_least_overpay():
    from sim.games.traders_of_osaka.observation import Card, Observation

    cards = (Card(0, 0, 5, 0), Card(1, 0, 3, 1), Card(2, 1, 2, 2), Card(3, 1, 2, 2), Card(4, 2, 3, 1))
    obs = Observation(0, 2, "pay", 0, cards, ("r", "b", "g"), (), (), (), (), (0, 1, 2, 3, 4), (5, 0),
                      ((), ()), frozenset(), ((0, 0, 0), (0, 0, 0)), (0, 0, 0), 0, 0, (), 7, 0, (), (), 8)
    chosen = best_payment(obs, 7)  # 5 + 2 = 7 exactly (3 + 2 + 2 too, but with more cards)
    assert sorted(cards[c].value for c in chosen) == [2, 5]
    assert sum(cards[c].value for c in best_payment(obs, 14)) == 15  # 5+3+2+2+3 cannot make 14


# ---------------------------------------------------------------- issue 17: ties, stalls, parameters, expert

import random  # noqa: E402

from sim.api import TERMINAL, keep  # noqa: E402

ALL = ["osaka.trader", "osaka.hoarder", "osaka.shipper", "osaka.expert"]


def captured(name, games=4, per_prompt=25, seed=3, stride=3):
    """(obs, legal) pairs met by ``name`` in 2-player mirrors: every ``stride``-th decision of
    each prompt kind with a choice (spread over whole games), at most ``per_prompt`` per kind."""
    g = TradersOfOsaka(2)
    seen: dict[str, list] = {}
    met: dict[str, int] = {}

    class Spy:
        def __init__(self):
            self.inner = make_strategy(name, {}, "traders_of_osaka")

        def choose(self, obs, legal, rng):
            met[obs.prompt] = k = met.get(obs.prompt, -1) + 1
            if len(legal) > 1 and k % stride == 0 and len(seen.setdefault(obs.prompt, [])) < per_prompt:
                seen[obs.prompt].append((keep(obs), tuple(legal)))  # views close after their decision
            return self.inner.choose(obs, legal, rng)

    for i in range(games):
        chance, rngs = game_streams(seed, i, 2)
        play_game(g, [Spy(), Spy()], chance, rngs, max_decisions=3000)
    return [x for xs in seen.values() for x in xs]


@pytest.mark.parametrize("name", ALL)
def test_choices_do_not_depend_on_the_order_of_legal_actions(name):
    """Same decision, legal actions reversed: the set of choices over 100 rng seeds is the same
    (ties are drawn with the rng; a choice by list position would differ)."""
    strat = make_strategy(name, {}, "traders_of_osaka")
    for obs, legal in captured(name, games=2, per_prompt=3 if name == "osaka.expert" else 8):
        forward = {strat.choose(obs, legal, random.Random(k)) for k in range(100)}
        backward = {strat.choose(obs, legal[::-1], random.Random(k)) for k in range(100)}
        assert forward == backward, (obs.prompt, forward, backward)


def test_shipper_setup_token_ties_are_random():
    """All ships start in Osaka: the shipper's token preference is a tie among the four colours."""
    g = TradersOfOsaka(2)
    strat = make_strategy("osaka.shipper", {}, "traders_of_osaka")
    colours = set()
    for i in range(40):
        chance, _ = game_streams(i, 0, 2)
        s = g.new_initial_state()
        while g.current_player(s) < 0:
            g.apply_action(s, g.sample_chance(s, chance))
        colours.add(strat.choose(g.observe(s, 0), g.legal_actions(s), random.Random(i)).colour)
    assert colours == {0, 1, 2, 3}


def test_shipper_mirrors_do_not_stall():
    """Issue 17: 387 of 500 shipper mirrors used to end in a whole round of passes."""
    g = TradersOfOsaka(2)
    stalls = 0
    for i in range(100):
        chance, rngs = game_streams(2026, i, 2)
        strats = [make_strategy("osaka.shipper", {}, "traders_of_osaka") for _ in range(2)]
        r = play_game(g, strats, chance, rngs, max_decisions=3000)
        assert g.current_player(r.state) == TERMINAL
        stalls += g.stalled(r.state)
    assert stalls <= 1


FLIPS = {
    "osaka.trader": {"min_goods": 4, "insure_at": 1},
    "osaka.hoarder": {"min_goods": 6, "min_cost": 0, "reserve": False, "insure_at": 3},
    "osaka.shipper": {"min_set": 4, "min_goods": 1, "avoid_waves": False, "insure_at": 3},
    "osaka.expert": {"coin_value": 0.5, "hold_weight": 0.2, "wave_survival": 0.0, "route_survival": 0.2,
                     "horizon_tokens": 8.0, "reply_weight": 0.0,
                     "reserve_weight": 3.0, "focus": 10.0, "dry_cards": 108},
}


@pytest.mark.parametrize("name", ALL)
def test_every_parameter_changes_some_decision(name):
    from strategies.traders_of_osaka import STRATEGIES

    assert set(FLIPS[name]) == set(STRATEGIES[name].Params.model_fields), "flip every documented parameter"
    decisions = captured(name, games=4, per_prompt=40)
    base = make_strategy(name, {}, "traders_of_osaka")
    before = [base.choose(obs, legal, random.Random(k)) for k, (obs, legal) in enumerate(decisions)]
    for param, value in FLIPS[name].items():
        flipped = make_strategy(name, {param: value}, "traders_of_osaka")
        after = [flipped.choose(obs, legal, random.Random(k)) for k, (obs, legal) in enumerate(decisions)]
        assert after != before, f"{name}: {param}={value} changes no decision"
