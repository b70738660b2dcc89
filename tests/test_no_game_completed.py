"""A run where no game completed says why (the cap and the option that sets it, stalls, failures)
and `sim check` of it exits 1 as `sim run` does (breaker findings 1 and 3, session 10)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from click.testing import CliRunner

from sim.analysis.report import no_game_note, no_game_why
from sim.cli import cli

TESTS = Path(__file__).resolve().parent


def _games(reasons: list[str]) -> pl.DataFrame:
    return pl.DataFrame({"end_reason": reasons, "failed": [r == "failed" for r in reasons],
                         "truncated": [r not in ("finished", "failed") for r in reasons]})


def test_every_game_at_the_decision_cap_names_the_cap_and_its_option():
    why = no_game_why(_games(["decision_cap"] * 10), {"game": "g", "options": {"max_decisions": 1}})
    assert why == ("all 10 games ended at the decision cap (the option max_decisions, 1 here: raise it, e.g."
                   " --option max_decisions=3000)")


def test_a_round_cap_names_its_option_when_the_game_has_one():
    why = no_game_why(_games(["round_cap"]), {"game": "g", "options": {"max_rounds": 12}})
    assert why == "the one game ended at the round cap (the option max_rounds, 12 here: raise it, e.g. --option max_rounds=120)"


def test_mixed_endings_most_frequent_first_and_a_round_cap_without_its_option():
    # by hand: 3 stalled, 2 at the round cap (the game names no max_rounds), 1 failed, in that order
    games = _games(["failed", "stalled", "round_cap", "stalled", "round_cap", "stalled"])
    why = no_game_why(games, {"game": "g", "options": {}})
    assert why.startswith("3 of 6 games stalled (no legal sequence")
    assert "; 2 of 6 games ended at the round cap (a safety option of the game; `sim list options g` names it);" in why
    assert why.endswith("; 1 of 6 games failed")
    assert no_game_note(games, {"options": {}}).endswith("1 of 6 games failed (the next finding names the errors).")


def test_sim_run_at_the_decision_cap_says_so_in_its_findings(tmp_path):
    res = CliRunner().invoke(cli, ["run", "--game", "traders_of_osaka", "--players", "2", "--games", "10", "--option",
                                   "max_decisions=1", "--quiet", "--out", str(tmp_path / "o")])
    assert res.exit_code == 1
    assert "all 10 games ended at the decision cap (the option max_decisions, 1 here" in res.output
    assert "error: no game completed (the findings above say why)" in res.output


def test_sim_check_exits_1_when_no_game_completed(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 3\ngames: 12\nseed: 5\nstrategies:\n  - {name: osaka.trader}\n"
                   "  - {name: 'bad_strategies:Cheater'}\n  - {name: random}\n"
                   "checks: {max_truncated_share: 0.5, max_stalled: 0.5}\n")
    res = CliRunner().invoke(cli, ["check", str(cfg), "--out", str(tmp_path / "o"), "--quiet",
                                   "--junit", str(tmp_path / "j.xml")])
    assert res.exit_code == 1, res.output
    assert "error: no game completed (all 12 games failed), so the run says nothing about balance" in res.output
    assert "IllegalActionError" in res.output and f"sim replay {tmp_path / 'o'} --game-index 0" in res.output
    xml = (tmp_path / "j.xml").read_text()
    assert 'errors="1"' in xml and 'name="games_completed"' in xml and 'type="NoGameCompleted"' in xml
    assert '<property name="complete_games" value="0" />' in xml


def test_until_decided_stops_after_a_batch_with_no_complete_game(tmp_path, monkeypatch):
    # every game fails: doubling the games would only add failures, so the first batch (12 games,
    # two whole deals of 6 under seating permute with 3 strategies) is the last
    monkeypatch.syspath_prepend(str(TESTS))
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 3\ngames: 12\nseed: 5\nstrategies:\n  - {name: osaka.trader}\n"
                   "  - {name: 'bad_strategies:Cheater'}\n  - {name: random}\n"
                   "checks: {max_truncated_share: 0.05}\n")
    res = CliRunner().invoke(cli, ["check", str(cfg), "--out", str(tmp_path / "o"), "--quiet", "--until-decided"])
    assert res.exit_code == 1, res.output
    assert "stopped: no game of the first 12 completed: more games would not decide max_truncated_share" in res.output
    assert "error: no game completed (all 12 games failed)" in res.output
