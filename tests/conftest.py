"""Shared test helpers."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from sim.api import CHANCE, TERMINAL, sample_chance
from sim.registry import build_any_count, games
from sim.seeding import game_streams

GAME_NAMES = list(games())

# A shell without job control starts background commands with SIGINT ignored, and an ignored
# signal stays ignored in every child: the tests that send SIGINT to a `sim` child would then see
# it finish normally. A handler (unlike SIG_IGN) is reset to the default in an exec'd child.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def player_counts(name: str) -> list[int]:
    info = games()[name].info
    return list(range(info.min_players, info.max_players + 1))


ALL_GAME_SEATS = [(g, n) for g in GAME_NAMES for n in player_counts(g)]


def random_walk(game, seed: int, check=None, max_steps: int = 200_000):
    """Play ``game`` with uniformly random legal actions (chance from its own stream).

    ``check(state, player)`` is called before every step. Returns ``(state, steps, ended)``.
    """
    chance, (rng, *_) = game_streams(seed, 0, 1)
    s = game.new_initial_state()
    cap = game.options.max_decisions
    decisions = 0
    for step in range(max_steps):
        p = game.current_player(s)
        if check is not None:
            check(s, p)
        if p == TERMINAL:
            return s, step, True
        if p == CHANCE:
            a = sample_chance(game, s, chance)
        else:
            if decisions >= cap:
                return s, step, False
            legal = game.legal_actions(s)
            assert legal, "a decision node must offer legal actions"
            a = legal[rng.randrange(len(legal))]
            decisions += 1
        game.apply_action(s, a)
    raise AssertionError("game neither ended nor reached its decision cap")


@pytest.fixture
def build():
    def _build(name: str, players: int, **options):
        return build_any_count(name, players, options)

    return _build


# The longest tests of `make test` (tens of seconds each: search games, a local Dask cluster, a
# killed and resumed run). Collected first, so that pytest-xdist hands them out at the start and the
# two processes end together instead of one waiting for the last of them.
LONGEST_FIRST = (
    "test_search_keeps_its_measured_strength_in_every_game",
    "test_search_beats_random_and_a_scripted_plan_in_every_game",
    "test_search_beats_random_and_a_scripted_plan",
    "test_dask_backend_gives_the_local_tables",
    "test_kill_9_then_resume_gives_the_uninterrupted_tables",
)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    def rank(item):
        name = getattr(item, "originalname", None) or item.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: every other test keeps its order
    for item in items:
        _group_if_it_shares_a_module_fixture(item)
    _leave_out_slow_unless_asked(config, items)


# A run without `-m` (a plain `pytest tests/test_x.py ...`) selects what `make test` selects: the
# `slow` tests (nightly, tens of CPU-minutes each at full power) only with `-m slow` (`make
# test-slow`) or when named by node id. Before session 9 a plain run played them too and looked
# like a hang: both workers busy from about 80% on, far past a 240-s timeout, with finished forked
# run workers shown as `<defunct>` children (docs/history.md "Development", "A test run that seemed to hang").
_LEFT_OUT = pytest.StashKey[int]()


def _leave_out_slow_unless_asked(config, items):
    if config.option.markexpr:
        return
    named = [_split(config, arg) for arg in config.args if "::" in arg]
    keep, slow = [], []
    for item in items:
        asked = any(item.path == path and _within(item.nodeid.split("::", 1)[1], sub) for path, sub in named)
        (slow if item.get_closest_marker("slow") and not asked else keep).append(item)
    config.stash[_LEFT_OUT] = len(slow)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep


def _split(config, arg: str) -> tuple[Path, str]:
    """``path::name[param]`` on the command line -> (the file, ``name[param]``)."""
    path, sub = arg.split("::", 1)
    return (config.invocation_params.dir / path).resolve(), sub


def _within(sub: str, named: str) -> bool:
    """Whether a test ``sub`` (``name[param]`` or ``Class::name``) is the one ``named`` or inside it."""
    return sub == named or sub.startswith((named + "[", named + "::"))


def pytest_terminal_summary(terminalreporter, config):
    if config.option.markexpr:
        return
    left = config.stash.get(_LEFT_OUT, None)  # None: pytest-xdist's main process (its workers collect)
    if left or (left is None and getattr(config.option, "numprocesses", None)):
        what = f"{left} slow test{'s' * (left != 1)}" if left else "any slow tests"
        terminalreporter.write_line(f"{what} left out: without -m only what `make test` runs;"
                                    " `-m slow` (make test-slow) or a node id runs them")


def _group_if_it_shares_a_module_fixture(item):
    """Tests that share a module-scoped fixture (a run played once for several claims) go to one
    pytest-xdist worker (`make test` uses `--dist loadgroup`); with plain `--dist load` each worker
    that got one of them played the run again."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None or item.get_closest_marker("xdist_group"):
        return
    shared = sorted(name for name, defs in info.name2fixturedefs.items() if defs[-1].scope == "module")
    if shared:
        item.add_marker(pytest.mark.xdist_group(f"{item.module.__name__}::{shared[0]}"))

