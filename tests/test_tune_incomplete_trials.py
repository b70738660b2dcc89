"""`sim tune` / `sim discover` and trials whose games never finished (breaker finding 4, session 10:
tuning max_decisions over [1, 3] reported "Best: max_decisions = 1 ... mean rounds 1", every game at
the decision cap): such a trial is not eligible as best, a mostly incomplete one is flagged, and a
study with no complete game in any trial exits 1."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from sim.analysis.halving import Record
from sim.analysis.trial_completion import Completion, NoCompleteTrial
from sim.analysis.tune_report import incomplete_note, trials_table
from sim.cli import cli


def _games(done: int, capped: int) -> pl.DataFrame:
    reasons = ["finished"] * done + ["decision_cap"] * capped
    return pl.DataFrame({"end_reason": reasons, "failed": [False] * len(reasons),
                         "truncated": [r != "finished" for r in reasons]})


def _completion(tmp_path, plays: dict) -> Completion:
    seen = Completion()
    for x, (done, capped) in plays.items():
        seen.add({"options.max_decisions": x}, 10, _games(done, capped), {"game": "g", "options": {"max_decisions": x}})
    return seen


def test_no_complete_game_is_not_eligible_and_mostly_incomplete_is_flagged(tmp_path):
    # x=1: 0 of 10 complete (loss smallest, yet not eligible); x=2: 3 of 10 (< half: flagged); x=3: 10 of 10
    seen = _completion(tmp_path, {1: (0, 10), 2: (3, 7), 3: (10, 0)})
    recs = [Record(n, {"options.max_decisions": x}, {10: (loss, 1.0, 1.0, 1.0)})
            for n, (x, loss) in enumerate([(1, 0.5), (2, 1.0), (3, 2.0)])]
    ordered = seen.eligible_first(recs, "tune")
    assert [r.params["options.max_decisions"] for r in ordered] == [2, 3, 1]
    rows = seen.rows(ordered)
    assert (rows[0]["complete"], rows[0]["played"]) == (3, 10)
    assert rows[0]["why"].startswith("7 of 10 games ended at the decision cap (the option max_decisions, 2 here")
    assert "why" not in rows[1] and rows[2]["complete"] == 0
    table = trials_table(rows, "rounds", kind="metric")
    assert table["complete games"].to_list() == ["3 of 10 (flagged: mostly incomplete)", "10 of 10",
                                                 "0 of 10 (none: not eligible as best)"]
    note = incomplete_note({"trials": rows, "confirm": {"games": 40, "complete": 12}})
    assert note.startswith(" 2 of the 3 values tried had fewer than half of their games complete (flagged in the"
                           " Trials table; e.g. max_decisions=2: 7 of 10 games ended at the decision cap")
    assert "; 1 had no complete game and is not eligible as best." in note
    assert "Beware: the best value's own trial had 3 of 10 games complete" in note
    assert note.endswith(" Beware: 12 of the 40 confirmation games completed.")


def test_no_trial_with_a_complete_game_names_no_best(tmp_path):
    seen = _completion(tmp_path, {1: (0, 10)})
    with pytest.raises(NoCompleteTrial, match="no trial had a complete game, so no value can be named best: e.g."
                                              " max_decisions=1: all 10 games ended at the decision cap"):
        seen.eligible_first([Record(0, {"options.max_decisions": 1}, {10: (0.0, 1.0, 1.0, 1.0)})], "tune")


def test_sim_tune_where_every_game_hits_the_cap_exits_1(tmp_path):
    (tmp_path / "t.yaml").write_text(
        "game: traders_of_osaka\nplayers: 2\ngames: 6\nseed: 4\nstrategies: [osaka.expert, random]\n"
        "tune: {params: {options.max_decisions: [1, 3]}, target: {metric: rounds, value: 20}, max_games: 6}\n")
    res = CliRunner().invoke(cli, ["tune", str(tmp_path / "t.yaml"), "--out", str(tmp_path / "o")])
    assert res.exit_code == 1, res.output
    assert "warning: max_decisions=1 on 6 games: 0 complete (all 6 games ended at the decision cap" in res.output
    assert "error: no trial had a complete game, so no value can be named best" in res.output
    assert "Best:" not in res.output
