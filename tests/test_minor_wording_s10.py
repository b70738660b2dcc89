"""Small wording findings (breaker finding 5, session 10): an exception whose __str__ raises, a
wrong strategy label in a check, one strategy in a Holm family, a flag where a count belongs."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.analysis.neighbour import holm_over
from sim.api import SimError, message_of
from sim.cli import cli
from sim.config import load_config

TESTS = Path(__file__).resolve().parent

BASE = """\
game: traders_of_osaka
players: 2
games: 10
seed: 1
strategies:
  - {name: osaka.trader}
  - {name: random}
"""


class Unprintable(Exception):
    def __str__(self):
        raise TypeError("str fails")


def test_an_unprintable_exception_keeps_its_type():
    assert message_of(Unprintable("secret")) == "<unprintable message>"
    assert message_of(ValueError("bad")) == "bad"


def test_a_failed_game_with_an_unprintable_exception_is_summarised_under_its_own_type(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE.replace("{name: random}", "{name: 'bad_strategies:Mute'}").replace("games: 10", "games: 4"))
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet", "--figures", "never"])
    assert res.exit_code == 1  # every game failed
    assert "4 game(s) failed: Unprintable: <unprintable message> (4 games)." in res.output, res.output
    assert "TypeError" not in res.output


def _errors(tmp_path, text: str) -> str:
    p = tmp_path / "c.yaml"
    p.write_text(BASE + text)
    with pytest.raises(SimError) as err:
        load_config(str(p))
    return str(err.value)


def test_a_number_as_a_check_label_gives_one_error(tmp_path):
    text = _errors(tmp_path, "checks:\n  max_strategy_win_rate: {threshold: 0.6, strategies: [3]}\n")
    assert "key 'checks.max_strategy_win_rate.strategies.0': Input should be a valid string (got 3)" in text
    assert "Tuple should have" not in text and text.count("\n") == 0, text


def test_an_empty_label_list_is_still_refused(tmp_path):
    text = _errors(tmp_path, "checks:\n  max_strategy_win_rate: {threshold: 0.6, exclude: []}\n")
    assert "key 'checks.max_strategy_win_rate.exclude': must list at least one strategy label of the line-up" in text


def test_one_strategy_is_not_a_holm_family():
    assert holm_over(1) == "one strategy tested, so unadjusted"
    assert holm_over(3) == "Holm-adjusted over the 3 strategies"


def test_a_flag_in_a_list_of_counts_is_named_as_written(tmp_path):
    p = tmp_path / "f.yaml"
    p.write_text("game: forwarder_of_xanadu\nplayers: 3\ngames: 10\nseed: 1\nstrategies: [random]\n"
                 "options: {growth: [true]}\n")
    with pytest.raises(SimError) as err:
        load_config(str(p))
    assert "key 'options.growth': 'growth' must be whole numbers, got true (item 0)" in str(err.value)


def test_permute_with_one_strategy_is_not_called_deals_of_1_games():
    # breaker trial 2 (session 10): "The games come in deals of 1 games"
    import polars as pl

    from sim.analysis.seating import seating_text

    games = pl.DataFrame({"game_index": range(5), "deal_index": range(5)})
    text = seating_text("permute", 4, 1, games, 1)
    assert "deals of 1 games" not in text and "each game is its own deal" in text


def test_five_players_get_a_balanced_set_not_every_assignment(tmp_path):
    # breaker trial 2 (session 10): the partial-deal warning said "every assignment" for 5 players (20, not 120)
    from sim.runs.fixed import partial_deal

    cfg = tmp_path / "x.yaml"
    cfg.write_text("game: xanadu\nplayers: 5\ngames: 30\nseed: 1\nseating: permute\nstrategies: [xanadu.builder, "
                   "xanadu.hoarder, xanadu.saboteur, random, first_legal]\n")
    said = partial_deal(load_config(cfg))
    assert said.startswith("seating permute plays deals of 20 games (a balanced set of assignments)"), said
