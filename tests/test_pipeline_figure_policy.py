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
def test_auto_says_why_below_100_complete_games(tmp_path):
    """The run's own report at 101 games (99 complete): no figure, and one line saying why. That
    `auto` draws at 100 complete games is proven by `sim report` on the 102-game folder below: the run
    and `sim report` call the same `build_report(..., figures=mode)`, so one path per side suffices."""
    below = _run(tmp_path, 101)
    assert _complete(below) == 99
    assert _pngs(below) == [] and "figures/" not in (below / "report.md").read_text()
    md, html = (below / "report.md").read_text(), (below / "report.html").read_text()
    line = (f"not drawn: figures start at 100 complete games and this run has 99; draw them now with"
            f" `sim report {below} --figures always` (or run with `--figures always`)")
    assert line in md and "data:image/png" not in html


@pytest.mark.integration
def test_never_at_100_then_auto_draws_and_never_removes_them(tmp_path):
    """One 102-game run (100 complete) serves three claims, drawing once (each drawing of the 12
    charts costs about 6 CPU-s): `--figures never` draws nothing and says so; `sim report` with the
    default `auto` then draws them (auto at exactly 100 complete games, as the note promises);
    `--figures never` again removes them but keeps a file the report does not show."""
    big = _run(tmp_path, 102, "--figures", "never")
    assert _complete(big) == 100 and _pngs(big) == []
    assert "not drawn (--figures never)" in (big / "report.md").read_text()
    res = CliRunner().invoke(cli, ["report", str(big)], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    pngs = _pngs(big)
    assert "win_rate_by_seat.png" in pngs and "not drawn" not in (big / "report.md").read_text()
    assert (big / "report.html").read_text().count("data:image/png;base64,") == len(pngs)
    # and `--figures never` again removes them: no figure its report does not show (closing note, session 4)
    (big / "figures" / "my_own.png").write_bytes(b"kept: not a chart of the report")
    res = CliRunner().invoke(cli, ["report", str(big), "--figures", "never"], catch_exceptions=False)
    assert res.exit_code == 0 and _pngs(big) == ["my_own.png"]


@pytest.fixture(scope="module")
def ten_games_in_a_fresh_interpreter(tmp_path_factory):
    """One interpreter (import isolation needs a real process) runs 10 games with the default `auto`
    (nothing to draw), prints whether matplotlib is imported, then `sim report --figures always`
    and prints it again. Returns (run folder, the two printed lines)."""
    tmp = tmp_path_factory.mktemp("fresh")
    cfg, out = tmp / "tiny.yaml", tmp / "r"
    cfg.write_text(TINY)
    code = ("import sys\nfrom sim.cli import cli\n"
            f"cli(['run', {str(cfg)!r}, '--jobs', '1', '--out', {str(out)!r}, '--quiet'], standalone_mode=False)\n"
            "print('imported:', 'matplotlib' in sys.modules)\n"
            f"cli(['report', {str(out)!r}, '--figures', 'always'], standalone_mode=False)\n"
            "print('imported:', 'matplotlib' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out, [ln for ln in proc.stdout.splitlines() if ln.startswith("imported:")]


# the two tests share one fixture: `--dist loadgroup` (Makefile) keeps them on one xdist worker
@pytest.mark.integration
@pytest.mark.xdist_group("figure_policy_fresh")
def test_matplotlib_is_imported_only_to_draw(ten_games_in_a_fresh_interpreter):
    _, printed = ten_games_in_a_fresh_interpreter
    assert printed == ["imported: False", "imported: True"]


@pytest.mark.integration
@pytest.mark.xdist_group("figure_policy_fresh")
def test_always_draws_at_10_games(ten_games_in_a_fresh_interpreter):
    """`--figures always` at 10 complete-or-not games draws (through `sim report`, the same
    `build_report` the run calls)."""
    small, _ = ten_games_in_a_fresh_interpreter
    assert "win_rate_by_seat.png" in _pngs(small) and "not drawn" not in (small / "report.md").read_text()


def test_no_figure_when_no_game_is_complete():
    """Breaker finding 6 (session 5): with every game cut short, `--figures always` drew empty axes."""
    from sim.analysis import figure_policy

    assert not figure_policy.wanted("always", 0) and not figure_policy.wanted("auto", 0)
    assert figure_policy.wanted("always", 1)
    assert "no game is complete" in figure_policy.note("always", 0, "R")
    assert "figures start at 100" in figure_policy.note("auto", 99, "R")
