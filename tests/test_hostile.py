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
    p.parent.mkdir(parents=True, exist_ok=True)
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
    # a bare name is shorthand for {name: NAME}; a number is neither
    ("strategy entry not a mapping", {"c.yaml": BASE.replace("  - {name: random}\n  - {name: random}", "  - 5\n  - random")},
     ["validate", "{tmp}/c.yaml"], r"line 6, key 'strategies.0'"),
    ("strategy without name", {"c.yaml": BASE.replace("{name: random}\n  - {name: random}", "{name: random}\n  - {params: {}}")},
     ["validate", "{tmp}/c.yaml"], r"line 7, key 'strategies.1.name': required key is missing"),
    ("params not a mapping", {"c.yaml": BASE.replace("{name: random}\n", "{name: random, params: 3}\n", 1)},
     ["validate", "{tmp}/c.yaml"], r"line 6, key 'strategies.0.params': Input should be a valid dictionary"),
    ("random takes no params", {"c.yaml": BASE.replace("{name: random}\n", "{name: random, params: {depth: 3}}\n", 1)},
     ["validate", "{tmp}/c.yaml"], r"strategies.0.params.*.depth.: unknown parameter; it takes: no parameters"),
    ("seating invalid", {"c.yaml": BASE + "seating: shuffle\n"},
     ["validate", "{tmp}/c.yaml"], r"line 8, key 'seating': Input should be 'rotate', 'fixed' or 'permute'"),
    ("jobs zero", {"c.yaml": BASE + "jobs: 0\n"},
     ["validate", "{tmp}/c.yaml"], r"line 8, key 'jobs': Input should be greater than or equal to 1"),
    ("unknown data key", {"c.yaml": BASE + "data:\n  board: b.yaml\n", "b.yaml": "spaces: []\n"},
     ["validate", "{tmp}/c.yaml"], r"line 9, key 'data.board': unknown data file key 'board'.*\(Traders of Osaka takes: cards, track\)"),
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
    ("--min-sample negative", {"c.yaml": BASE}, ["run", "{tmp}/c.yaml", "--min-sample", "-5", "--out", "{tmp}/o"],
     r"Invalid value for '--min-sample': -5 is not in the range x>=0"),
    ("--out empty", {"c.yaml": BASE}, ["run", "{tmp}/c.yaml", "--out", "", "--quiet"], r"--out needs a folder name"),
    ("sweep --out empty", {"c.yaml": BASE}, ["sweep", "{tmp}/c.yaml", "--out", ""], r"--out needs a folder name"),
    ("--out a folder of other files", {"c.yaml": BASE, "mine/notes.txt": "x"},
     ["run", "{tmp}/c.yaml", "--out", "{tmp}/mine", "--quiet"],
     r"^error: output folder '.*mine' is not empty and it holds other files \(notes.txt\); use --out for another\n$"),
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


@pytest.mark.integration
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


@pytest.mark.integration
def test_import_strings_find_modules_next_to_the_config(tmp_path):
    (tmp_path / "mystrats.py").write_text(
        "class Last:\n    def __init__(self, **params):\n        pass\n\n"
        "    def choose(self, obs, legal, rng):\n        return legal[0]\n"
    )
    cfg = _write(tmp_path, "c.yaml", BASE.replace("{name: random}\n", "{name: 'mystrats:Last'}\n", 1))
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "mystrats:Last" in res.output


BREAKERS = [
    ("duplicate labels", BASE.replace("  - {name: random}\n  - {name: random}",
                                      "  - {name: random, label: x}\n  - {name: first_legal, label: x}"),
     r"label 'x' names two different strategies"),
    ("not a strategy", BASE.replace("{name: random}\n", "{name: 'builtins:int'}\n", 1),
     r"standard-library module 'builtins'"),
    ("boolean option", BASE + "options:\n  end_tokens: true\n", r"line 9, key 'options.end_tokens': 'end_tokens' must be a whole number, got true"),
    ("string option", BASE + "options:\n  market_size: '5'\n", r"'market_size' must be a whole number, got '5'"),
    ("boolean param", BASE.replace("{name: random}\n", "{name: osaka.trader, params: {min_goods: true}}\n", 1),
     r"key 'strategies.0.params.min_goods': .*'min_goods': must be a whole number"),
    ("unreachable hand threshold", BASE + "options:\n  hand_threshold: 100000\n", r"key 'options.hand_threshold': .*starting hands could not be drawn"),
    ("market bigger than the deck", BASE + "options:\n  market_size: 200\n", r"too few of the 108 cards"),
    ("games beyond a billion", BASE.replace("games: 4", "games: 99999999999999999999"), r"key 'games': Input should be less than or equal to 1000000000"),
    ("alias bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                   "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                   "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
     r"too large once aliases are expanded"),
]


@pytest.mark.parametrize("label,text,message", BREAKERS, ids=[b[0] for b in BREAKERS])
def test_subtle_bad_configs(tmp_path, label, text, message):
    res = CliRunner().invoke(cli, ["validate", str(_write(tmp_path, "c.yaml", text))])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert re.search(message, res.output), res.output


@pytest.mark.integration
def test_force_never_deletes_a_folder_that_is_not_a_run(tmp_path, monkeypatch):
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("precious")
    cfg = _write(keep, "c.yaml", BASE)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(keep), "--force", "--quiet"])
    assert res.exit_code == 2 and "--force replaces only a run folder" in res.output
    assert (keep / "notes.txt").read_text() == "precious" and cfg.is_file()
    monkeypatch.chdir(keep)
    res = CliRunner().invoke(cli, ["run", "c.yaml", "--out", ".", "--force", "--quiet"])
    assert res.exit_code == 2 and (keep / "notes.txt").is_file()


def test_a_second_run_on_a_new_folder_being_written_is_told_it_is_in_use(tmp_path):
    """Designer finding 4 (session 8): two runs started on one new folder at once; the second found
    the first one's files half written and blamed them (manifest.json.tmp, or "not empty, --resume
    it"). The folder as the first run leaves it a moment after starting: locked by a live process,
    config.json written, manifest.json.tmp being written, chunks/ empty. Nothing is played or removed."""
    import subprocess

    cfg = _write(tmp_path, "c.yaml", BASE)
    out = tmp_path / "new"
    (out / "chunks").mkdir(parents=True)
    (out / "config.json").write_text("{}")
    (out / "manifest.json.tmp").write_text("{")
    sleeper = subprocess.Popen(["sleep", "30"])  # the first run, alive
    try:
        (out / ".lock").write_text(str(sleeper.pid))
        for extra in ([], ["--force"]):
            res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--quiet", *extra])
            assert res.exit_code == 2 and f"'{out}' is in use by another sim process (pid {sleeper.pid})" in res.output
            assert "manifest.json.tmp" not in res.output and "not empty" not in res.output, res.output
            assert sorted(p.name for p in out.iterdir()) == [".lock", "chunks", "config.json", "manifest.json.tmp"]
            assert (out / ".lock").read_text() == str(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.mark.integration
def test_a_run_folder_in_use_is_refused(tmp_path):
    import os
    import subprocess

    cfg = _write(tmp_path, "c.yaml", BASE)
    out = tmp_path / "o"
    assert CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--quiet"]).exit_code == 0
    sleeper = subprocess.Popen(["sleep", "30"])  # a live process "holding" the folder
    try:
        (out / ".lock").write_text(str(sleeper.pid))
        res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--force", "--quiet"])
        assert res.exit_code == 2 and f"in use by another sim process (pid {sleeper.pid})" in res.output
        assert (out / "games.parquet").is_file()
    finally:
        sleeper.kill()
        sleeper.wait()
    (out / ".lock").write_text("999999999")  # left by a dead process: taken over
    assert CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--force", "--quiet"]).exit_code == 0
    assert not (out / ".lock").exists() and os.listdir(out)


@pytest.mark.integration
def test_resume_and_replay_refuse_changed_data_files(tmp_path):
    from sim.config import build_game, load_config
    from sim.runs.fixed import write_run_files
    from sim.store import prepare_output

    src = Path(__file__).resolve().parents[1] / "sim" / "games" / "traders_of_osaka" / "data" / "track.yaml"
    track = tmp_path / "track.yaml"
    track.write_text(src.read_text())
    cfg = _write(tmp_path, "c.yaml", BASE + "data:\n  track: track.yaml\n")
    rc = load_config(cfg)
    part = tmp_path / "part"
    prepare_output(part, False)
    write_run_files(rc, part, build_game(rc))
    track.write_text(src.read_text().replace("  - {name: Oshima, kind: sea}\n", ""))  # a shorter route
    res = CliRunner().invoke(cli, ["replay", str(part), "--game-index", "0"])
    assert res.exit_code == 0, res.output  # replayed from the copy the run keeps (fresh-user finding 4, s8)
    # (resume reads that copy too: tests/test_data_files.py)
    (part / "data" / "track.yaml").unlink()  # a run folder from before the copies were kept
    res = CliRunner().invoke(cli, ["run", "--resume", str(part), "--quiet"])
    assert res.exit_code == 2 and "other contents of data file(s) track" in res.output
    res = CliRunner().invoke(cli, ["replay", str(part), "--game-index", "0"])
    assert res.exit_code == 2 and "cannot be replayed" in res.output


@pytest.mark.integration
def test_a_damaged_table_is_named(tmp_path):
    cfg = _write(tmp_path, "c.yaml", BASE)
    out = tmp_path / "o"
    assert CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--quiet"]).exit_code == 0
    (out / "games.parquet").write_text("garbage")
    res = CliRunner().invoke(cli, ["report", str(out)])
    assert res.exit_code == 2 and "games.parquet is not a readable Parquet table" in res.output


def _game_config(game: str, extra: str = "") -> str:
    return BASE.replace("traders_of_osaka", game) + extra


COERCIONS = [  # pydantic would silently turn these into other numbers or flags
    ("xanadu deal true", _game_config("xanadu", "options: {deal: true}\n"), r"key 'options.deal': 'deal' must be a whole number, got true"),
    ("xanadu deal '5'", _game_config("xanadu", "options: {deal: '5'}\n"), r"key 'options.deal': 'deal' must be a whole number, got '5'"),
    ("xanadu sale_bonus items", _game_config("xanadu", "options: {sale_bonus: ['1', true, 0, 0]}\n"),
     r"'sale_bonus' must be whole numbers, got '1' \(item 0\)"),
    ("forwarder growth items", _game_config("forwarder_of_xanadu", "options: {growth: [1, true]}\n"),
     r"'growth' must be whole numbers, got true \(item 1\)"),
    ("forwarder space_resources", _game_config("forwarder_of_xanadu", "options: {space_resources: ['2', 1, 0]}\n"),
     r"'space_resources' must be whole numbers, got '2' \(item 0\)"),
    ("check strict 'no'", BASE + "checks: {max_seat_win_rate: {threshold: 0.5, strict: 'no'}}\n",
     r"key 'checks.max_seat_win_rate.strict': 'strict' must be true or false, got 'no'"),
    ("check threshold '0.5'", BASE + "checks: {max_seat_win_rate: {threshold: '0.5'}}\n",
     r"'threshold' must be a number, got '0.5'"),
    ("1e12 is text in YAML", BASE.replace("seed: 1", "seed: 1e12"),
     r"key 'seed'.*YAML reads 1e12 as text: write 1000000000000$"),
    ("1e3 option", BASE + "options: {hand_threshold: 1e3}\n", r"YAML reads 1e3 as text: write 1000$"),
    ("game_timeout_s as text", BASE + "game_timeout_s: 2.5e1x\n", r"key 'game_timeout_s'"),
    ("game_timeout_s true", BASE + "game_timeout_s: true\n", r"key 'game_timeout_s'.*valid number \(got True\)"),
    ("game_timeout_s tiny", BASE + "game_timeout_s: 1.0e-320\n", r"key 'game_timeout_s'.*greater than or equal to 0.01"),
]


@pytest.mark.parametrize("label,text,message", COERCIONS, ids=[c[0] for c in COERCIONS])
def test_no_silent_coercion_in_options_and_checks(tmp_path, label, text, message):
    res = CliRunner().invoke(cli, ["validate", str(_write(tmp_path, "c.yaml", text))])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert re.search(message, res.output), res.output


def test_no_silent_coercion_in_data_files(tmp_path):
    _write(tmp_path, "k.yaml", "colours: [red, blue]\ntotal_cards: 40\n"
                               "per_colour: [{value: '2', count: 20, insurance: 1}]\nachievement_tokens_per_colour: 3\n")
    res = CliRunner().invoke(cli, ["validate", str(_write(tmp_path, "c.yaml", BASE + "data: {cards: k.yaml}\n"))])
    assert res.exit_code == 2
    assert re.search(r"k.yaml, line 3, key 'per_colour.0.value': 'value' must be a whole number, got '2'", res.output), res.output


def _seats(n: int) -> str:
    return "strategies:\n" + "  - {name: random}\n" * n


UNPLAYABLE = [  # values that used to pass validation and then fail every game or exhaust memory
    ("forwarder", 5, "{dealt_cards: 5}", r"'options.dealt_cards': dealt_cards is at most 4 with 5 players"),
    ("forwarder", 2, "{dealt_cards: 100}", r"'options.dealt_cards': dealt_cards is at most 16 with 2 players"),
    ("forwarder", 5, "{style: custom, draft_cards: 50}", r"'options.draft_cards': draft_cards is at most 8 with 5 players"),
    ("forwarder", 2, "{market_lower: 1000000000}", r"'options.market_lower': market_lower is at most 30"),
    ("forwarder", 2, "{market_upper: 1000000000}", r"'options.market_upper': market_upper is at most 30"),
    ("forwarder", 2, "{company_cards: 5}", r"'options.company_cards': company_cards is at most 4"),
    ("xanadu", 6, "{deal: 1000000000}", r"'options.deal': deal is at most 11 with 6 players \(the deck has 70 cards\)"),
    ("taiwan_formosa", 4, "{max_dice: 100}", r"'options.max_dice': Input should be less than or equal to 12"),
]


@pytest.mark.parametrize("game,players,options,message", UNPLAYABLE, ids=[f"{u[0]}-{u[2]}" for u in UNPLAYABLE])
def test_card_counts_the_decks_cannot_supply_are_refused(tmp_path, game, players, options, message):
    game = "forwarder_of_xanadu" if game == "forwarder" else game
    text = f"game: {game}\nplayers: {players}\ngames: 2\nseed: 1\n{_seats(players)}options: {options}\n"
    cfg = _write(tmp_path, "c.yaml", text)
    for args in (["validate", str(cfg)], ["run", str(cfg), "--out", str(tmp_path / "o"), "--quiet"]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 2 and "Traceback" not in res.output
        assert re.search(message, res.output), res.output
    assert not (tmp_path / "o").exists()


def test_the_largest_allowed_counts_play():
    """The bounds are the decks: 5 Forwarder players split the 20 skill cards of the companies not
    chosen (40 - 5 x 4) into 4 each, or draft 40 // 5 = 8 each; 6 Xanadu players get 70 // 6 = 11."""
    from sim.play import play_game
    from sim.registry import get_game, make_strategy
    from sim.seeding import game_streams

    for game, n, opts in (("forwarder_of_xanadu", 5, {"dealt_cards": 4}),
                          ("forwarder_of_xanadu", 5, {"style": "custom", "draft_cards": 8}),
                          ("xanadu", 6, {"deal": 11})):
        g = get_game(game).build(n, opts)
        chance, rngs = game_streams(1, 0, n)
        play_game(g, [make_strategy("random", {}, game, game=g)] * n, chance, rngs, max_decisions=g.options.max_decisions)


@pytest.mark.integration
@pytest.mark.parametrize("name,text,message", [
    ("manifest.json", "{", r"manifest.json is damaged: not valid JSON"),
    ("config.json", "[]", r"config.json is damaged: expected a JSON object \{\.\.\.\} as sim writes it, got list"),
    ("config.json", '{"game": "traders_of_osaka"}', r"config.json: not a valid run config"),
])
def test_a_damaged_run_folder_json_file_is_named(tmp_path, name, text, message):
    from sim.config import build_game, load_config
    from sim.runs.fixed import write_run_files
    from sim.store import prepare_output

    cfg = _write(tmp_path, "c.yaml", BASE)
    done, part = tmp_path / "done", tmp_path / "part"
    assert CliRunner().invoke(cli, ["run", str(cfg), "--out", str(done), "--quiet"]).exit_code == 0
    rc = load_config(cfg)
    prepare_output(part, False)
    write_run_files(rc, part, build_game(rc))  # an interrupted run: nothing played yet
    for folder in (done, part):
        (folder / name).write_text(text)
    for args in (["report", str(done)], ["replay", str(done), "--game-index", "0"], ["run", "--resume", str(part)]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 2 and "Traceback" not in res.output, (args, res.output)
        assert re.search(message, res.output), (args, res.output)
