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
