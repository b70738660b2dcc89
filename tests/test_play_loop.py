"""The game loop's shortcuts (issue 20 item 1) change nothing but speed: a strategy declaring
``reads_observation = False`` is handed ``None`` and no view is built; a seat whose ``choose``
declares ``uniform_choice = True`` (``random``) is drawn for by the loop; an engine's ``chance_run``
plays chance events exactly as ``sample_chance`` + ``apply_action`` one at a time would."""

from __future__ import annotations

import random

import pytest

from sim.api import CHANCE
from sim.games.traders_of_osaka.engine import TradersOfOsaka
from sim.play import play_game, sample_chance
from sim.seeding import game_streams
from strategies.common import FirstLegalStrategy, RandomByKindStrategy, RandomStrategy, ScriptedStrategy


class _Counting(TradersOfOsaka):
    """Osaka counting the views it builds."""

    built = 0

    def observe(self, s, seat):
        type(self).built += 1
        return super().observe(s, seat)


class _Reader(RandomStrategy):
    """A subclass with its own ``choose`` that reads its observation (as a plugin may)."""

    def choose(self, obs, legal, rng):
        assert obs is not None and obs.seat >= 0
        return super().choose(obs, legal, rng)


def test_blind_strategies_declare_it_and_subclasses_that_read_do_not_inherit_it():
    assert RandomStrategy.reads_observation is False
    assert FirstLegalStrategy.reads_observation is False and RandomByKindStrategy.reads_observation is False
    assert ScriptedStrategy.reads_observation is True
    assert _Reader.reads_observation is True  # its own choose: reads unless it says otherwise


def test_no_view_is_built_for_a_blind_seat_and_one_per_decision_for_a_reader():
    g = _Counting(2)
    chance, seats = game_streams(3, 0, 2)
    _Counting.built = 0
    r = play_game(g, [RandomStrategy(), RandomStrategy()], chance, seats, max_decisions=40)
    assert r.n_decisions == 40 and _Counting.built == 0
    chance, seats = game_streams(3, 0, 2)
    r2 = play_game(g, [_Reader(), RandomStrategy()], chance, seats, max_decisions=40)
    # same moves (the reader draws like random); one view per decision of seat 0 only
    assert r2.state == r.state
    assert 0 < _Counting.built < 40


class _Called(RandomStrategy):
    """Random through its own ``choose`` (so the loop calls it): counts the calls."""

    reads_observation = False
    calls = 0

    def choose(self, obs, legal, rng):
        type(self).calls += 1
        return legal[int(rng.random() * len(legal))]


def test_uniform_choice_is_declared_by_random_only_and_not_inherited_by_an_own_choose():
    from sim.play import _declares

    assert _declares(RandomStrategy(), "uniform_choice", False) is True
    for other in (FirstLegalStrategy(), RandomByKindStrategy(), _Reader(), _Called()):
        assert _declares(other, "uniform_choice", False) is False
    own = RandomStrategy()
    own.choose = lambda obs, legal, rng: legal[0]  # an instance's own choose is called, never drawn for
    assert _declares(own, "uniform_choice", False) is False


def test_a_seat_drawn_for_by_the_loop_plays_what_its_choose_would():
    """Seats of ``random`` are drawn for by the loop (``uniform_choice``), ``_Called`` seats are
    asked: same streams, so the same game, decision for decision (the action logs compared)."""
    g = TradersOfOsaka(4)
    for gi in range(4):
        logs = []
        for cls in (RandomStrategy, _Called):
            _Called.calls = 0
            chance, seats = game_streams(5, gi, 4)
            r = play_game(g, [cls() for _ in range(4)], chance, seats, max_decisions=10_000, record=True)
            logs.append((r.log, r.state, [s.random() for s in seats]))
        assert logs[0] == logs[1]
        assert _Called.calls == sum(1 for p, _ in logs[1][0] if p >= 0) > 100


def test_a_drawn_for_seat_offered_nothing_fails_as_its_strategy_would():
    import pytest

    from sim.play import StrategyError

    class _Empty(TradersOfOsaka):
        def legal_actions(self, s):
            return () if self.current_player(s) >= 0 else super().legal_actions(s)

    chance, seats = game_streams(1, 0, 2)
    with pytest.raises(StrategyError, match="IndexError") as err:
        play_game(_Empty(2), [RandomStrategy(), RandomStrategy()], chance, seats, max_decisions=50, guard=True)
    assert err.value.seat in (0, 1)


def test_chance_run_draws_as_one_event_at_a_time():
    g = TradersOfOsaka(4)
    for seed in range(5):
        one, run = g.new_initial_state(), g.new_initial_state()
        r1, r2 = random.Random(seed), random.Random(seed)
        pick = random.Random(100 + seed)
        for _ in range(300):
            if g.current_player(one) < CHANCE:  # TERMINAL
                break
            if g.current_player(one) == CHANCE:
                n = 0
                while g.current_player(one) == CHANCE and n < 7:
                    g.apply_action(one, sample_chance(g, one, r1))
                    n += 1
                assert g.chance_run(run, r2, 7) == n
            else:
                a = pick.choice(g.legal_actions(one))
                g.apply_action(one, a)
                g.apply_action(run, a)
            assert run == one and r1.getstate() == r2.getstate()


def test_a_watched_game_and_an_unwatched_one_end_alike():
    g = TradersOfOsaka(3)
    results = []
    for record in (False, True):
        chance, seats = game_streams(9, 4, 3)
        results.append(play_game(g, [RandomStrategy() for _ in range(3)], chance, seats,
                                 max_decisions=10_000, record=record))
    plain, watched = results
    assert plain.state == watched.state and plain.n_decisions == watched.n_decisions


def test_stream_seeds_are_numpys_seed_sequence_states():
    import numpy as np

    from sim.seeding import stream_seeds

    def numpy_seed(seed, gi, k):  # the reference: numpy's own SeedSequence
        state = np.random.SeedSequence(seed, spawn_key=(gi, k)).generate_state(4, np.uint32)
        return int.from_bytes(state.tobytes(), "little")

    r = random.Random(4)
    cases = [(0, 0), (1, 0), (1, 19_999), (2**32, 2**32), (2**127 + 5, 3), (2**300, 1)]
    cases += [(r.getrandbits(r.choice([8, 31, 64, 100])), r.getrandbits(r.choice([1, 20, 40]))) for _ in range(40)]
    for seed, gi in cases:
        assert stream_seeds(seed, gi, range(6)) == [numpy_seed(seed, gi, k) for k in range(6)], (seed, gi)
    assert stream_seeds(7, 3, (2**33,)) == [numpy_seed(7, 3, 2**33)]
    # the one-word stream indexes take the cached fast path, two words the general mix: both edges
    # of the boundary, and one cached index met again after a game index of another word count
    for gi in (5, 2**40, 5):
        ks = (2**32 - 1, 2**32, 3)
        assert stream_seeds(11, gi, ks) == [numpy_seed(11, gi, k) for k in ks], gi


@pytest.mark.parametrize("args", [(1, -1, (0,)), (-1, 0, (0,)), (1, 0, (0, -2))])
def test_stream_seeds_refuse_negative_numbers_as_numpy_does(args):
    """A negative seed, game index or stream index: numpy's ``ValueError`` (before, a negative game
    index looped forever in ``_words``)."""
    import numpy as np

    from sim.seeding import stream_seeds

    with pytest.raises(ValueError, match="non-negative"):
        np.random.SeedSequence(args[0], spawn_key=(args[1], min(args[2])))
    with pytest.raises(ValueError, match="non-negative"):
        stream_seeds(*args)


def test_bench_streams_are_the_runs_and_numpys_streams():
    """``sim bench`` seeds its games through ``streams_of``: the same draws as numpy's
    ``SeedSequence.spawn`` (``game_streams``, the reference) for every stream of the game."""
    import pytest

    from sim.seeding import streams_of

    for seed, gi, n in [(0, 0, 4), (1, 19_999, 4), (2**40 + 3, 7, 2), (5, 2**33, 3)]:
        chance, seats = streams_of(seed, gi, n)
        ref_chance, ref_seats = game_streams(seed, gi, n)
        assert len(seats) == n
        for mine, ref in zip([chance, *seats], [ref_chance, *ref_seats], strict=True):
            assert [mine.random() for _ in range(3)] == [ref.random() for _ in range(3)], (seed, gi)
    with pytest.raises(ValueError):
        streams_of(-1, 0, 4)


def test_a_summary_figure_first_reported_by_a_later_game_is_none_for_the_earlier_ones():
    from sim.play import GameResult, Rows
    from sim.setup import Setup

    setup = Setup("traders_of_osaka", 2, 1, {"max_decisions": 10}, {}, (("random", {}), ("random", {})), ("a", "b"))
    rows = Rows()
    for gi, summary in enumerate([{"x": 1.0}, {"x": 2.0, "y": 5.0}, {"x": 3.0, "y": 6.0}]):
        outcome = {"scores": (1.0, 2.0), "winners": frozenset({1}), "metrics": {}, "summary": summary, "components": {}}
        rows.add_game(setup, gi, GameResult(None, 4, False), [0, 1], outcome)
    assert rows.summary == {"x": [1.0, 2.0, 3.0], "y": [None, 5.0, 6.0]}
    assert rows.players["rank"] == [2, 1] * 3
