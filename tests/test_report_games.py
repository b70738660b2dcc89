"""Report generation for every registered game (small runs), and the components section."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess

import polars as pl
import pytest
from click.testing import CliRunner

from sim.analysis.report import build_report
from sim.cli import cli
from sim.config import load_config
from sim.registry import games
from sim.runs.fixed import run

SECTIONS = ["## Findings", "## Run", "## Whole-game balance (Ludii figures)", "## Win rate by seat",
            "## Win rate by strategy", "## Head to head", "## Ratings (openskill)", "## Final score by strategy",
            "## Final score by seat", "## Game length and summary figures", "## How games ended"]


@pytest.mark.integration
@pytest.mark.parametrize("name", list(games()))
def test_report_for_every_game(tmp_path, name):
    n = games()[name].info.min_players
    if "allow_two_players" in games()[name].Options.model_fields:
        n = max(n, 3)  # Forwarder of Xanadu: published for 3-5 players (RULINGS §6)
    seats = "".join(f"  - {{name: random, label: random_{chr(97 + i)}}}\n" for i in range(n))
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"game: {name}\nplayers: {n}\ngames: 12\nseed: 5\nstrategies:\n{seats}")
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "r"), "--quiet", "--min-sample", "5", "--figures", "always"])
    assert res.exit_code == 0, res.output
    out = tmp_path / "r"
    md, html = (out / "report.md").read_text(), (out / "report.html").read_text()
    complete = pl.read_parquet(out / "games.parquet").filter(~pl.col("failed") & ~pl.col("truncated")).height
    expected = SECTIONS if complete else ["## Findings", "## Run"]
    if n == 1 and complete:  # a solo game has no opponents to compare with: scores, not win rates
        expected = ["## Findings", "## Run", "## Final score by strategy", "## Game length and summary figures",
                    "## How games ended"]
        assert "## Win rate by seat" not in md and "## Whole-game balance" not in md
    for heading in expected:
        assert heading in md, heading
        assert f">{heading[3:]}</h2>" in html, heading
    # every PNG linked from report.md exists and is inline in report.html (self-contained, no external files)
    linked = re.findall(r"\]\((figures/[^)]+\.png)\)", md)
    assert linked and all((out / p).is_file() for p in linked)
    assert html.count("data:image/png;base64,") == len(linked)
    assert "src=\"figures/" not in html and "<link" not in html and "<script" not in html
    for b64 in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", html)[:2]:
        assert base64.b64decode(b64)[:8] == b"\x89PNG\r\n\x1a\n"
    comps = out / "components.parquet"
    if comps.is_file() and pl.read_parquet(comps).height and complete:
        assert "## Component distribution" in md
        assert ("## Components" in md) == (n > 1)  # win rate by component says nothing when nobody can lose


@pytest.mark.integration
def test_solo_title_bands_are_shown_as_a_distribution(tmp_path):
    """Issue 5: solo Alpenzian runs show the title bands as a distribution (shares add to 100%)."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: alpenzian\nplayers: 1\ngames: 10\nseed: 2\nstrategies:\n  - {name: alpenzian.flowers}\n")
    out = tmp_path / "r"
    run(load_config(cfg), out, progress=False)
    rep = build_report(out)
    dist = rep.tables["component_distribution"].filter(pl.col("kind") == "title")
    comps = pl.read_parquet(out / "components.parquet").filter(pl.col("kind") == "title")
    assert dist["count"].sum() == comps.height == 10  # one title per solo game
    assert dist["share"].sum() == pytest.approx(1.0)
    assert "## Component distribution" in (out / "report.md").read_text()


def _record_edit(out):
    """Record the tables as they are now in the run's manifest (what the merge records)."""
    from sim.integrity import table_record, write_json_atomic
    from sim.store import TABLES

    man = json.loads((out / "manifest.json").read_text())
    write_json_atomic(out / "manifest.json", {**man, "tables": table_record(out, TABLES)})


@pytest.mark.integration
def test_components_section_claims_only_with_enough_sample(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 3\ngames: 60\nseed: 4\nstrategies:\n"
                   "  - {name: osaka.trader}\n  - {name: osaka.shipper}\n  - {name: random}\n")
    out = tmp_path / "r"
    run(load_config(cfg), out, progress=False)  # tables only; the report is built below
    players = pl.read_parquet(out / "players.parquet")
    # a made-up component: every winner holds "crown"; 5 random seats hold "pebble"
    crown = players.filter(pl.col("won")).select("game_index", "seat", kind=pl.lit("token"), component=pl.lit("crown"))
    pebble = players.filter(pl.col("strategy") == "random").head(5).select(
        "game_index", "seat", kind=pl.lit("token"), component=pl.lit("pebble"))
    pl.concat([crown, pebble]).write_parquet(out / "components.parquet")
    _record_edit(out)  # a deliberate edit: record the new table, or the integrity check refuses it
    rep = build_report(out, min_sample=20)
    comp = rep.tables["components"]
    assert comp.filter(pl.col("component") == "crown")["claim"].item() is True
    assert comp.filter(pl.col("component") == "pebble")["enough"].item() is False
    assert any("'crown' (token) win 100.0%" in f for f in rep.findings)
    assert any("fewer than 20 seat-games" in f for f in rep.findings)
    md = (out / "report.md").read_text()
    assert "## Components" in md and "too few" in md and "figures/components_token.png" in md


@pytest.mark.integration
@pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
                    reason="headless Chromium not installed (apt-get install -y chromium)")
def test_report_html_renders_in_headless_chromium(tmp_path):
    """The documented look check, automated: render report.html offline and make sure the page has
    content down to its figures (a blank or broken page is mostly white)."""
    import matplotlib.image as mpimg
    import numpy as np

    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 3\ngames: 30\nseed: 4\nstrategies:\n"
                   "  - {name: osaka.trader}\n  - {name: osaka.shipper}\n  - {name: random}\n")
    out = tmp_path / "r"
    run(load_config(cfg), out, progress=False)
    build_report(out)
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    shot = tmp_path / "shot.png"
    subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,9000",
                    f"--screenshot={shot}", (out / "report.html").as_uri()], capture_output=True, timeout=120, check=True)
    img = mpimg.imread(shot)[:, :, :3]
    inked = np.where((img < 0.9).any(axis=(1, 2)))[0]
    assert img.shape[:2] == (9000, 1200)
    assert inked.max() > 4000  # tables and the inline figures reach far down the page
    assert (img < 0.9).any(axis=2).mean() > 0.02  # not a blank page


@pytest.mark.integration
def test_alpenzian_title_is_tabulated_as_a_band_of_the_score_and_never_claimed(tmp_path):
    """The title is the band of the final score (fresh-user finding 2, session 7): the best title
    goes with winning by definition, so the report makes no claim about it whatever its p-value."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: alpenzian\nplayers: 2\ngames: 40\nseed: 3\nstrategies:\n  - {name: alpenzian.flowers}\n"
                   "  - {name: random}\n")
    out = tmp_path / "r"
    run(load_config(cfg), out, progress=False)
    assert json.loads((out / "manifest.json").read_text())["outcome_components"] == ["title"]
    rep = build_report(out, min_sample=5)
    titles = rep.tables["components"].filter(pl.col("kind") == "title")
    assert titles.height and titles["outcome"].all() and not titles["claim"].any()
    assert not any("(title)" in f for f in rep.findings)  # no "Seats with '... mayor' (title) win" sentence
    assert any(f.startswith("The title is a band of the final score") for f in rep.findings)
    assert "title (band of the score)" in (out / "report.md").read_text()
