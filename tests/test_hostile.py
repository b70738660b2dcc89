"""Hostile and wrong input beyond the config file itself: each gives one clear paragraph naming
the file, line or key and what was expected, exit status 2, no traceback, nothing overwritten.

(Config-file errors are in ``test_cli.py``; together they make the hostile-input suite.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import cli

BASE = """\
game: traders_of_osaka
players: 2
games: 4
seed: 1
strategies:
  - {name: random}
  - {name: random}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


# (label, files to create {name: text}, CLI args with {tmp} placeholders, expected message regex)
CASES = [
    ("players not an integer", {"c.yaml": BASE.replace("players: 2", "players: two")},
     ["validate", "{tmp}/c.yaml"], r"line 2, key 'players': Input should be a valid integer"),
    ("negative games", {"c.yaml": BASE.replace("games: 4", "games: -5")},
     ["validate", "{tmp}/c.yaml"], r"line 3, key 'games': Input should be greater than or equal to 1"),
    ("negative seed", {"c.yaml": BASE.replace("seed: 1", "seed: -1")},
     ["validate", "{tmp}/c.yaml"], r"line 4, key 'seed': Input should be greater than or equal to 0"),
    ("float seed", {"c.yaml": BASE.replace("seed: 1", "seed: 1.5")},
     ["validate", "{tmp}/c.yaml"], r"line 4, key 'seed': Input should be a valid integer"),
    ("strategies not a list", {"c.yaml": BASE.split("strategies:")[0] + "strategies: random\n"},
     ["validate", "{tmp}/c.yaml"], r"line 5, key 'strategies': Input should be a valid list"),
    ("strategy entry not a mapping", {"c.yaml": BASE.replace("  - {name: random}\n  - {name: random}", "  - random\n  - random")},
     ["validate", "{tmp}/c.yaml"], r"line 6, key 'strategies.0'"),
    ("strategy without name", {"c.yaml": BASE.replace("{name: random}\n  - {name: random}", "{name: random}\n  - {params: {}}")},
     ["validate", "{tmp}/c.yaml"], r"line 7, key 'strategies.1.name': required key is missing"),
    ("params not a mapping", {"c.yaml": BASE.replace("{name: random}\n", "{name: random, params: 3}\n", 1)},
     ["validate", "{tmp}/c.yaml"], r"line 6, key 'strategies.0.params': Input should be a valid dictionary"),
    ("random takes no params", {"c.yaml": BASE.replace("{name: random}\n", "{name: random, params: {depth: 3}}\n", 1)},
     ["validate", "{tmp}/c.yaml"], r"strategies.0.params.*.depth.: unknown parameter; it takes: no parameters"),
    ("seating invalid", {"c.yaml": BASE + "seating: shuffle\n"},
     ["validate", "{tmp}/c.yaml"], r"line 8, key 'seating': Input should be 'rotate' or 'fixed'"),
    ("jobs zero", {"c.yaml": BASE + "jobs: 0\n"},
     ["validate", "{tmp}/c.yaml"], r"line 8, key 'jobs': Input should be greater than or equal to 1"),
    ("unknown data key", {"c.yaml": BASE + "data:\n  board: b.yaml\n", "b.yaml": "spaces: []\n"},
     ["validate", "{tmp}/c.yaml"], r"key 'data'.*unknown data file key\(s\) \['board'\]"),
    ("data file YAML error", {"c.yaml": BASE + "data:\n  track: t.yaml\n", "t.yaml": "spaces: [\n"},
     ["validate", "{tmp}/c.yaml"], r"t.yaml, line \d+, column \d+: YAML syntax error"),
    ("data file missing key", {"c.yaml": BASE + "data:\n  cards: k.yaml\n", "k.yaml": "colours: [red]\n"},
     ["validate", "{tmp}/c.yaml"], r"k.yaml, line 1, key 'total_cards': required key is missing"),
    ("track without Edo", {"c.yaml": BASE + "data:\n  track: t.yaml\n",
                           "t.yaml": "spaces:\n  - {name: Osaka, kind: start}\n  - {name: Anori, kind: anchor}\n"},
     ["validate", "{tmp}/c.yaml"], r"t.yaml, line 1, key 'spaces'.*destination"),
    ("track with two anchors (dangling Anori)", {"c.yaml": BASE + "data:\n  track: t.yaml\n",
     "t.yaml": "spaces:\n  - {name: Osaka, kind: start}\n  - {name: A, kind: anchor}\n  - {name: B, kind: anchor}\n  - {name: Edo, kind: destination}\n"},
     ["validate", "{tmp}/c.yaml"], r"exactly one space must be of kind 'anchor'"),
    ("empty config", {"c.yaml": ""}, ["validate", "{tmp}/c.yaml"], r"key 'game': required key is missing"),
    ("config is a folder", {}, ["validate", "{tmp}"], r"(Is a directory|is a directory|cannot read)"),
    ("binary config", {"c.yaml": "\udcff"}, ["validate", "{tmp}/c.yaml"], r"c.yaml"),
    ("output inside a file", {"c.yaml": BASE, "f": "x"}, ["run", "{tmp}/c.yaml", "--out", "{tmp}/f/sub", "--quiet"],
     r"(cannot write to output folder|exists and is not a folder)"),
    ("output is a file", {"c.yaml": BASE, "f": "x"}, ["run", "{tmp}/c.yaml", "--out", "{tmp}/f", "--quiet"],
     r"(output '.*f' exists and is not a folder|'--out': Directory .* is a file)"),
    ("--jobs 0", {"c.yaml": BASE}, ["run", "{tmp}/c.yaml", "--jobs", "0", "--out", "{tmp}/o", "--quiet"],
     r"(--jobs must be at least 1|key 'jobs')"),
    ("--games 0", {"c.yaml": BASE}, ["run", "{tmp}/c.yaml", "--games", "0", "--out", "{tmp}/o", "--quiet"],
     r"command line --games 0: Input should be greater than or equal to 1"),
    ("--seed negative", {"c.yaml": BASE}, ["run", "{tmp}/c.yaml", "--seed", "-3", "--out", "{tmp}/o", "--quiet"],
     r"command line --seed -3: Input should be greater than or equal to 0"),
    ("config and --resume together", {"c.yaml": BASE}, ["run", "{tmp}/c.yaml", "--resume", "{tmp}"],
     r"either CONFIG or --resume"),
    ("--scheduler without dask", {"c.yaml": BASE}, ["run", "{tmp}/c.yaml", "--scheduler", "tcp://x:1"],
     r"--scheduler needs --backend dask"),
    ("resume a folder that is not a run", {}, ["run", "--resume", "{tmp}"], r"is not a run folder \(no config.json\)"),
    ("report of a folder that is not a run", {}, ["report", "{tmp}"], r"is not a finished run folder"),
    ("replay of a folder that is not a run", {}, ["replay", "{tmp}", "--game-index", "0"], r"is not a run folder"),
    ("bench unknown game", {}, ["bench", "chess"], r"unknown game 'chess'; known games: .*traders_of_osaka"),
    ("bench players out of range", {}, ["bench", "traders_of_osaka", "--players", "7"], r"takes 2-4 players, not 7"),
    ("run without config", {}, ["run"], r"missing CONFIG"),
]


@pytest.mark.parametrize("label,files,args,message", CASES, ids=[c[0] for c in CASES])
def test_hostile_input_exit_2_with_a_clear_message(tmp_path, label, files, args, message):
    for name, text in files.items():
        if "\udcff" in text:
            (tmp_path / name).write_bytes(b"\xff\xfe\x00bad")
        else:
            _write(tmp_path, name, text)
    res = CliRunner().invoke(cli, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert re.search(message, res.output), res.output
    assert len(res.output.strip().splitlines()) <= 6  # one short paragraph


def test_replay_game_index_out_of_range(tmp_path):
    cfg = _write(tmp_path, "c.yaml", BASE)
    assert CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"]).exit_code == 0
    res = CliRunner().invoke(cli, ["replay", str(tmp_path / "o"), "--game-index", "4"])
    assert res.exit_code == 2 and "--game-index must be in 0..3, got 4" in res.output


def test_yaml_is_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    text = BASE + f"output: !!python/object/apply:os.system ['touch {marker}']\n"
    res = CliRunner().invoke(cli, ["validate", str(_write(tmp_path, "c.yaml", text))])
    assert res.exit_code == 2 and not marker.exists()


def test_a_bad_command_line_value_is_blamed_on_the_flag(tmp_path):
    cfg = _write(tmp_path, "c.yaml", BASE)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--games", "0", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "command line --games 0: Input should be greater than or equal to 1" in res.output


def test_import_strings_find_modules_next_to_the_config(tmp_path):
    (tmp_path / "mystrats.py").write_text(
        "class Last:\n    def __init__(self, **params):\n        pass\n\n"
        "    def choose(self, obs, legal, rng):\n        return legal[0]\n"
    )
    cfg = _write(tmp_path, "c.yaml", BASE.replace("{name: random}\n", "{name: 'mystrats:Last'}\n", 1))
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "mystrats:Last" in res.output
