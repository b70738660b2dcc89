"""Conformance tests every game gets (DESIGN "Tests that every game gets")."""

from __future__ import annotations

import ast
import copy
import math
import pickle
from pathlib import Path

import pytest
from conftest import ALL_GAME_SEATS, GAME_NAMES, random_walk

from sim.api import CHANCE, TERMINAL, BaseOptions, Game
from sim.registry import games

SEEDS = range(12)


@pytest.mark.parametrize("name,players", ALL_GAME_SEATS)
def test_random_playouts_keep_the_protocol(name, players, build):
    game = build(name, players)
    assert isinstance(game, Game)
    for seed in SEEDS:
        def check(s, p):
            game.check_invariants(s)  # conservation laws after every action (every engine has them)
            if p == CHANCE:
                outcomes = game.chance_outcomes(s)
                assert outcomes
                assert math.isclose(sum(pr for _, pr in outcomes), 1.0, rel_tol=1e-9)
                assert all(pr > 0 for _, pr in outcomes)
            elif p != TERMINAL:
                assert 0 <= p < players
                legal = game.legal_actions(s)
                assert legal and len(set(legal)) == len(legal), "legal actions non-empty and distinct"
                hash(game.observe(s, p))  # observations are frozen
        s, _, _ = random_walk(game, seed, check)
        scores = game.scores(s)
        assert len(scores) == players
        winners = game.winners(s)
        assert winners <= set(range(players))
        if game.end_reason(s) == "finished":  # a stalled game may have no winner (the tables record none)
            assert winners


@pytest.mark.parametrize("name", GAME_NAMES)
def test_states_survive_pickling_and_cloning(name, build):
    info = games()[name].info
    game = build(name, info.max_players)
    steps = []
    s, n, _ = random_walk(game, 3, lambda s, p: steps.append(pickle.dumps(s)) if len(steps) < 400 else None)
    for blob in steps[::37]:
        st = pickle.loads(blob)
        cl = copy.deepcopy(st)
        assert cl == st and pickle.loads(pickle.dumps(cl)) == st
        if game.current_player(st) >= 0:
            assert game.legal_actions(st) == game.legal_actions(cl)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_fast_sampler_agrees_with_chance_outcomes(name, build):
    """Where a game has ``sample_chance`` it only returns listed outcomes, at their frequencies."""
    import random
    from collections import Counter

    game = build(name, games()[name].info.min_players)
    if not hasattr(game, "sample_chance"):
        pytest.skip("no fast sampler")
    s = game.new_initial_state()
    assert game.current_player(s) == CHANCE, "every game starts with a chance node (shuffles, dice)"
    outcomes = dict(game.chance_outcomes(s))
    rng = random.Random(5)
    counts = Counter(game.sample_chance(s, rng) for _ in range(20000))
    assert set(counts) <= set(outcomes)
    from scipy.stats import chisquare

    keys = list(outcomes)
    observed = [counts.get(k, 0) for k in keys]
    expected = [outcomes[k] * 20000 for k in keys]
    assert chisquare(observed, expected).pvalue > 1e-4


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_declares_info_and_options(name):
    cls = games()[name]
    assert cls.info.name == name and cls.info.min_players <= cls.info.max_players
    assert issubclass(cls.Options, BaseOptions)
    assert cls.Options().max_decisions >= 1


def test_strategies_import_only_public_surface():
    """DESIGN: strategies import a game's actions and observation, never its state or engine."""
    root = Path(__file__).resolve().parents[1] / "strategies"
    bad = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for mod in names:
                if mod.startswith("sim.games.") and mod.split(".")[-1] not in ("actions", "observation"):
                    bad.append(f"{path.name}: {mod}")
                if mod.startswith("sim.games.") and mod.count(".") < 3:
                    bad.append(f"{path.name}: {mod} (import .actions or .observation)")
    assert not bad, bad


def test_strategies_use_no_global_random():
    root = Path(__file__).resolve().parents[1] / "strategies"
    for path in root.rglob("*.py"):
        text = path.read_text()
        for bad in ("random.random()", "random.choice(", "random.shuffle(", "np.random."):
            assert bad not in text.replace("rng.", "§"), f"{path}: uses global randomness ({bad})"


@pytest.mark.integration
@pytest.mark.parametrize("name", GAME_NAMES)
def test_jobs_1_and_2_give_identical_tables_for_every_game(name, tmp_path):
    """DESIGN 'Determinism': the tables do not depend on the number of workers or the chunking."""
    import polars as pl

    from sim.config import resolve
    from sim.data import Located
    from sim.runs.fixed import run

    n = games()[name].info.max_players if games()[name].info.max_players <= 4 else 4
    raw = {"game": name, "players": n, "games": 6, "seed": 3, "strategies": [{"name": "random"}] * n}
    tables = []
    for jobs, chunk in ((1, None), (2, 2)):
        rc = resolve(Located(dict(raw, jobs=jobs, chunk_size=chunk), "", {}))
        run(rc, tmp_path / f"j{jobs}", progress=False)
        tables.append({t: pl.read_parquet(tmp_path / f"j{jobs}" / f"{t}.parquet") for t in ("games", "players", "metrics")})
    for t in ("games", "players", "metrics"):
        assert tables[0][t].equals(tables[1][t]), t


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_engine_checks_its_invariants_and_says_why_a_game_ended(name, build):
    """Issue 16: every engine has ``check_invariants``; issue 18: every engine reports ``end_reason``."""
    game = build(name, games()[name].info.max_players)
    assert callable(getattr(game, "check_invariants", None)) and callable(getattr(game, "end_reason", None))
    s, _, ended = random_walk(game, 1)
    if ended:
        assert game.end_reason(s) in ("finished", "stalled", "round_cap")
