"""``--figures auto|always|never`` (issue 20 item 8): a report draws its figures from 100 complete
games by default, says in one line why they are missing below that, and does not import
matplotlib when it draws none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sim.analysis import figure_policy
from sim.cli import cli

# Two random players of Xanadu, seed 3: games 2 and 29 of this seed end truncated (the engine's
# stall rule), every other game completes, and a game's outcome depends only on the root seed and
# its index. So 101 games have 99 complete games and 102 games have 100: the two sides of `auto`.
# The test checks those counts from games.parquet before relying on them.
TINY = ("game: xanadu\nplayers: 2\ngames: 10\nseed: 3\nstrategies:\n"
        "  - {name: random, label: random_a}\n  - {name: random, label: random_b}\n")


def _run(tmp_path: Path, games: int, *flags: str) -> Path:
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(TINY)
    out = tmp_path / f"r{games}{''.join(flags)}"
    res = CliRunner().invoke(cli, ["run", str(cfg), "--games", str(games), "--jobs", "1", "--out", str(out),
                                   "--quiet", *flags], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return out


def _complete(out: Path) -> int:
    return pl.read_parquet(out / "games.parquet").filter(~pl.col("failed") & ~pl.col("truncated")).height


def _pngs(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "figures").glob("*.png")) if (out / "figures").is_dir() else []


def test_the_modes():
    assert not figure_policy.wanted("auto", 99) and figure_policy.wanted("auto", 100)
    assert figure_policy.wanted("always", 1) and not figure_policy.wanted("never", 10**6)
    assert not figure_policy.wanted("always", 0)  # no complete game: nothing to draw (breaker finding 6, session 5)
    with pytest.raises(ValueError, match="auto, always, never"):
        figure_policy.wanted("sometimes", 100)


@pytest.mark.integration
def test_auto_draws_from_100_complete_games_and_says_why_below(tmp_path):
    below, at = _run(tmp_path, 101), _run(tmp_path, 102)
    assert (_complete(below), _complete(at)) == (99, 100)
    assert _pngs(below) == [] and "figures/" not in (below / "report.md").read_text()
    md, html = (below / "report.md").read_text(), (below / "report.html").read_text()
    line = (f"not drawn: figures start at 100 complete games and this run has 99; draw them now with"
            f" `sim report {below} --figures always` (or run with `--figures always`)")
    assert line in md and "data:image/png" not in html
    pngs = _pngs(at)
    assert "win_rate_by_seat.png" in pngs and "not drawn" not in (at / "report.md").read_text()
    assert (at / "report.html").read_text().count("data:image/png;base64,") == len(pngs)


@pytest.mark.integration
def test_always_at_10_games_and_never_at_100(tmp_path):
    small = _run(tmp_path, 10, "--figures", "always")
    assert "win_rate_by_seat.png" in _pngs(small) and "not drawn" not in (small / "report.md").read_text()
    big = _run(tmp_path, 102, "--figures", "never")
    assert _complete(big) == 100 and _pngs(big) == []
    assert "not drawn (--figures never)" in (big / "report.md").read_text()
    # and `sim report` draws them later, as the note says
    res = CliRunner().invoke(cli, ["report", str(big), "--figures", "always"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "win_rate_by_seat.png" in _pngs(big) and "not drawn" not in (big / "report.md").read_text()
    # and `--figures never` again removes them: no figure its report does not show (closing note, session 4)
    (big / "figures" / "my_own.png").write_bytes(b"kept: not a chart of the report")
    res = CliRunner().invoke(cli, ["report", str(big), "--figures", "never"], catch_exceptions=False)
    assert res.exit_code == 0 and _pngs(big) == ["my_own.png"]


@pytest.mark.integration
@pytest.mark.parametrize("flags, imported", [((), False), (("--figures", "always"), True)])
def test_matplotlib_is_imported_only_to_draw(tmp_path, flags, imported):
    cfg = tmp_path / "tiny.yaml"
    cfg.write_text(TINY)
    code = ("import sys\nfrom sim.cli import cli\n"
            f"cli(['run', {str(cfg)!r}, '--jobs', '1', '--out', {str(tmp_path / 'r')!r}, '--quiet', *{list(flags)!r}],"
            " standalone_mode=False)\nprint('matplotlib' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == str(imported)


def test_no_figure_when_no_game_is_complete():
    """Breaker finding 6 (session 5): with every game cut short, `--figures always` drew empty axes."""
    from sim.analysis import figure_policy

    assert not figure_policy.wanted("always", 0) and not figure_policy.wanted("auto", 0)
    assert figure_policy.wanted("always", 1)
    assert "no game is complete" in figure_policy.note("always", 0, "R")
    assert "figures start at 100" in figure_policy.note("auto", 99, "R")
