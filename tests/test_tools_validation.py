"""Issue 21: ``sim validate`` (and ``sim tune``/``sim discover`` before their first game) refuses every
bad ``tune:``/``discover:`` section with the file, line and key, exit status 2; a misspelt game name
gets "did you mean ...?" on every command that takes one.

Line numbers are counted by hand in the texts below: the base config takes lines 1-8, so a
section starts on line 9 and its keys follow one per line.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sim.cli import cli

BASE = """\
game: traders_of_osaka
players: 3
games: 4
seed: 1
strategies:
  - {name: osaka.trader}
  - {name: random}
  - {name: osaka.shipper}
"""

TUNE = """\
tune:
  params:
    {key}: {range}
  target:
    {target}
"""

CASES = {
    # name: (section text, line, key, words the message must hold)
    "float range on an integer option": (
        TUNE.format(key="options.end_tokens", range="{float: [3, 12]}", target="{metric: n_decisions, value: 90}"),
        11, "tune.params.options.end_tokens", ["float range", "whole numbers"]),
    "float ends on an integer option": (
        TUNE.format(key="options.end_tokens", range="[3.0, 12.5]", target="{metric: n_decisions, value: 90}"),
        11, "tune.params.options.end_tokens", ["12.5", "whole number"]),
    "choice of words for a number": (
        TUNE.format(key="options.end_tokens", range="{choice: [few, many]}", target="{metric: n_decisions, value: 90}"),
        11, "tune.params.options.end_tokens", ["choice 'few'", "must be a whole number"]),
    "text column as metric": (
        TUNE.format(key="options.end_tokens", range="[3, 12]", target="{metric: end_reason, value: 1}"),
        13, "tune.target.metric", ["'end_reason'", "text", "n_decisions"]),
    "misspelt metric column": (
        TUNE.format(key="options.end_tokens", range="[3, 12]", target="{metric: n_decision, value: 90}"),
        13, "tune.target.metric", ["did you mean 'n_decisions'"]),
    "NaN target": (
        "tune:\n  params:\n    options.end_tokens: [3, 12]\n  target:\n    metric: n_decisions\n    value: .nan\n",
        14, "tune.target.value", ["finite number", "nan"]),
    "infinite target": (
        "tune:\n  params:\n    options.end_tokens: [3, 12]\n  target:\n    metric: n_decisions\n    value: .inf\n",
        14, "tune.target.value", ["finite number", "inf"]),
    "negative n_decisions": (
        "tune:\n  params:\n    options.end_tokens: [3, 12]\n  target:\n    metric: n_decisions\n    value: -5\n",
        14, "tune.target.value", ["at least 0", "-5"]),
    "share above 1": (
        "tune:\n  params:\n    options.end_tokens: [3, 12]\n  target:\n    metric: truncated\n    value: 1.5\n",
        14, "tune.target.value", ["between 0 and 1", "1.5"]),
    "first-player advantage beyond a win rate difference": (
        "tune:\n  params:\n    options.end_tokens: [3, 12]\n  target:\n    first_player_advantage: 2\n",
        13, "tune.target.first_player_advantage", ["between -0.666667 and 0.666667"]),  # ±(1 - 1/3), 3 players
    "unknown option path": (
        TUNE.format(key="options.end_tokenz", range="[3, 12]", target="{metric: n_decisions, value: 90}"),
        11, "tune.params.options.end_tokenz", ["did you mean 'end_tokens'"]),
    "unknown strategy parameter path": (
        TUNE.format(key="strategies.0.params.min_good", range="[1, 4]", target="{metric: n_decisions, value: 90}"),
        11, "tune.params.strategies.0.params.min_good", ["has no parameter 'min_good'"]),
    "discover on a strategy without parameters": (
        "discover:\n  seat: 1\n", 10, "discover.seat", ["'random'", "no numeric"]),
    "discover with an unknown parameter": (
        "discover:\n  seat: 0\n  params:\n    min_good: [1, 4]\n", 12, "discover.params.min_good",
        ["no documented parameter 'min_good'"]),
    "discover with a float range on an integer parameter": (
        "discover:\n  seat: 0\n  params:\n    min_goods: [1.5, 3.5]\n", 12, "discover.params.min_goods",
        ["1.5", "whole number"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_validate_names_file_line_and_key(tmp_path, case):
    section, line, key, words = CASES[case]
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE + section)
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 2, res.output
    assert f"c.yaml, line {line}, key '{key}'" in res.output, res.output
    for w in words:
        assert w in res.output, (w, res.output)
    assert "Traceback" not in res.output


@pytest.mark.parametrize("command", ["tune", "discover"])
def test_the_commands_refuse_before_any_game(tmp_path, command):
    section = CASES["text column as metric" if command == "tune" else "discover on a strategy without parameters"][0]
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE + section)
    res = CliRunner().invoke(cli, [command, str(cfg), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 2 and "c.yaml, line" in res.output, res.output
    assert not (tmp_path / "o").exists()  # nothing played, no folder


MISSPELT = "traders_of_osak"
HINT = "did you mean 'traders_of_osaka'?"


@pytest.mark.parametrize("args", [
    ["run", "--game", MISSPELT, "--games", "2"],
    ["bench", MISSPELT, "--games", "1"],
    ["skill", MISSPELT],
    ["list", "options", MISSPELT],
    ["init", MISSPELT],
])
def test_a_misspelt_game_name_on_the_command_line(tmp_path, args):
    res = CliRunner().invoke(cli, args + (["--out", str(tmp_path / "o")] if args[0] in ("skill",) else []))
    assert res.exit_code == 2, res.output
    assert f"unknown game '{MISSPELT}'" in res.output and HINT in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_a_misspelt_game_name_in_a_config(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(BASE.replace("traders_of_osaka", MISSPELT))
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 2 and "c.yaml, line 1, key 'game'" in res.output and HINT in res.output, res.output


@pytest.mark.parametrize("args", [
    ["bench", "xanadu", "--strategy", "xanadu.buildr", "--games", "1"],
    ["skill", "xanadu", "--strategy", "xanadu.buildr"],
    ["run", "--game", "xanadu", "--strategy", "xanadu.buildr", "--games", "2"],
])
def test_a_misspelt_strategy_name_on_the_command_line(tmp_path, args):
    """Every command that takes a strategy name suggests the closest registered one (difflib), once."""
    res = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "o")] if args[0] != "bench" else args)
    assert res.exit_code == 2, res.output
    assert "unknown strategy 'xanadu.buildr'" in res.output
    assert res.output.count("did you mean 'xanadu.builder'?") == 1
    assert res.exception is None or isinstance(res.exception, SystemExit)
