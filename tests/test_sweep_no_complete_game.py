"""A sweep point where no game completed is marked in the combined report and left out of the
comparisons; `sim sweep` exits 1, `sim report` rewrites the report (breaker finding 2, session 10:
exit 2, "nothing to compare", no report)."""

from __future__ import annotations

from click.testing import CliRunner

from sim.cli import cli

CFG = """\
game: traders_of_osaka
players: 2
games: 6
seed: 3
strategies:
  - {{name: osaka.expert}}
  - {{name: random}}
sweep: {{options.max_decisions: [3000, 1, 2000]}}
{extra}"""


def _sweep(tmp_path, extra=""):
    cfg = tmp_path / "s.yaml"
    cfg.write_text(CFG.format(extra=extra))
    out = tmp_path / "sw"
    res = CliRunner().invoke(cli, ["sweep", str(cfg), "--out", str(out), "--quiet", "--figures", "never"])
    return res, out


def test_a_point_with_no_complete_game_is_marked_and_left_out(tmp_path):
    res, out = _sweep(tmp_path)
    assert res.exit_code == 1, res.output
    assert "error: no game completed at point 1 (max_decisions=1)" in res.output
    md = (out / "report.md").read_text()
    assert "| 1 | max_decisions=1 | point-001/report.html | 0 of 6 (no complete game) |" in md
    # max_decisions=1: each game stops at the first decision -> every one of the 6 at the cap
    assert ("Point max_decisions=1 has no complete game: all 6 games ended at the decision cap (the option"
            " max_decisions, 1 here") in md and "it is left out of the comparisons." in md
    assert "max_decisions=2000" in md.split("## Against the baseline")[1]  # the other point is still compared
    again = CliRunner().invoke(cli, ["report", str(out), "--figures", "never"])
    assert again.exit_code == 0 and "it is left out of the comparisons" in again.output
    resumed = CliRunner().invoke(cli, ["sweep", "--resume", str(out), "--quiet", "--figures", "never"])
    assert resumed.exit_code == 1 and "error: no game completed at point 1" in resumed.output


def test_a_baseline_with_no_complete_game_compares_nothing(tmp_path):
    res, out = _sweep(tmp_path, "sweep_baseline: 1\n")
    assert res.exit_code == 1, res.output
    md = (out / "report.md").read_text()
    assert "The baseline point max_decisions=1 has no complete game (all 6 games ended at the decision cap" in md
    assert "so no point is compared with it" in md and "point − baseline" not in md
