"""An engine's ``notes()`` (warnings about the option combination, e.g. a player count outside the
published range) reach the manifest, the report's run facts and its findings."""

from __future__ import annotations

import json

import pytest

from sim.analysis.report import build_report
from sim.config import load_config
from sim.runs.fixed import run


# build_report(..., figures="never"): notes and findings do not depend on the charts, whose
# drawing (build_report's default is "always") was most of these tests' CPU
@pytest.mark.integration
def test_forwarder_two_player_note_reaches_the_report(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: forwarder_of_xanadu\nplayers: 2\ngames: 2\nseed: 1\n"
                   "strategies: [{name: random}, {name: random}]\noptions: {allow_two_players: true}\n")
    run(load_config(cfg), tmp_path / "o", progress=False)
    note = "2 players is outside the published range of 3–5"
    assert any(note in n for n in json.loads((tmp_path / "o" / "manifest.json").read_text())["notes"])
    rep = build_report(tmp_path / "o", figures="never")
    assert any(note in f for f in rep.findings)
    assert note in (tmp_path / "o" / "report.md").read_text()


@pytest.mark.integration
def test_no_note_no_sentence(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: forwarder_of_xanadu\nplayers: 3\ngames: 2\nseed: 1\n"
                   "strategies: [{name: random}, {name: random}, {name: random}]\n")
    run(load_config(cfg), tmp_path / "o", progress=False)
    assert json.loads((tmp_path / "o" / "manifest.json").read_text())["notes"] == []
    assert not any("Rules note" in f for f in build_report(tmp_path / "o", figures="never").findings)
