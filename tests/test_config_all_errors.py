"""Every mistake of a config is reported at once, each naming the file, the line and the key
(README "Configs"); a misspelt data-file key gets a "did you mean"; a config written from
command-line flags names keys, not lines of a file the user never saw. Exit status 2, no traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from sim.cli import cli

HEAD = """\
game: xanadu
players: 3
games: 10
seed: 1
strategies: [{name: random}]
"""


def validate(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    return res.exit_code, [line.removeprefix("error: ").replace(str(cfg), "c.yaml") for line in res.output.splitlines()]


def test_every_option_error_with_its_line_and_key(tmp_path):
    code, lines = validate(tmp_path, HEAD + 'options: {advanced: "yes", draw: forcd, hand_limit: "7"}\n')
    assert code == 2
    assert "c.yaml, line 6, key 'options.advanced': 'advanced' must be true or false, got 'yes'" in lines
    assert "c.yaml, line 6, key 'options.hand_limit': 'hand_limit' must be a whole number, got '7'" in lines
    assert any(line.startswith("c.yaml, line 6, key 'options.draw': ") and "'forced'" in line for line in lines)


def test_one_section_does_not_hide_the_others(tmp_path):
    text = HEAD.replace("random}", "randm}") + """\
data: {cardz: x.yaml}
options: {hand_limt: 7}
sweep: {options.hand_limt: [6, 7]}
checks: {max_seat_winrate: 0.6}
tune: {params: {options.dael: [1, 3]}, target: {seat_spread: min}}
"""
    code, lines = validate(tmp_path, text)
    assert code == 2
    want = [
        "c.yaml, line 5, key 'strategies.0.name': unknown strategy 'randm'",
        "c.yaml, line 7, key 'options.hand_limt': unknown key (did you mean 'hand_limit'?)",
        "c.yaml, line 8, key 'sweep.options.hand_limt': unknown option 'hand_limt' (did you mean 'hand_limit'?)",
        "c.yaml, line 9, key 'checks.max_seat_winrate': unknown key (did you mean 'max_seat_win_rate'?)",
        "c.yaml, line 10, key 'tune.params.options.dael': unknown option 'dael' (did you mean 'deal'?)",
        "c.yaml, line 6, key 'data.cardz': unknown data file key 'cardz'; did you mean 'cards'?",
    ]
    for start in want:
        assert sum(line.startswith(start) for line in lines) == 1, (start, lines)


def test_sweep_keys_and_checks_each_reported(tmp_path):
    text = HEAD + "sweep: {options.hand_limt: [6, 7], options.deal: [0]}\nchecks: {max_seat_win_rate: 1.6}\n"
    code, lines = validate(tmp_path, text)
    assert code == 2
    assert any(line.startswith("c.yaml, line 6, key 'sweep.options.hand_limt': unknown option") for line in lines)
    assert any(line.startswith("c.yaml, line 6, key 'sweep.options.deal.0': ") for line in lines)
    assert any(line.startswith("c.yaml, line 7, key 'checks.max_seat_win_rate': ") for line in lines)


def test_misspelt_data_key_is_not_a_missing_file(tmp_path):
    code, lines = validate(tmp_path, HEAD + "data: {cardz: x.yaml}\n")
    assert code == 2
    assert lines == ["c.yaml, line 6, key 'data.cardz': unknown data file key 'cardz'; did you mean 'cards'?"
                     " (Xanadu takes: cards)"]
    assert "not found" not in "\n".join(lines)


def test_command_line_config_names_keys_not_lines():
    res = CliRunner().invoke(cli, ["run", "--game", "taiwan_formosa", "--players", "9", "--games", "10",
                                   "--strategy", "taiwan.exprt"])
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    lines = [line.removeprefix("error: ") for line in res.output.splitlines()]
    assert "sim run --game, key 'players': Taiwan Formosa takes 2-5 players, not 9" in lines
    assert any(line.startswith("sim run --game, key 'strategies.0.name': unknown strategy 'taiwan.exprt'")
               and "(did you mean 'taiwan.expert'?)" in line for line in lines)
    assert "line " not in res.output


def test_a_bare_strategy_name_is_shorthand_for_its_name_key(tmp_path):
    """Fresh-user finding 6 (session 4): `strategies: [xanadu.expert, random]` named an internal
    class in its error; a bare name now means {name: NAME}, and a misspelt one is still caught."""
    import pytest

    from sim.api import SimError
    from sim.config import load_config

    good = tmp_path / "a.yaml"
    good.write_text("game: xanadu\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [xanadu.expert, random]\n")
    assert [s.name for s in load_config(good).strategies] == ["xanadu.expert", "random"]
    bad = tmp_path / "b.yaml"
    bad.write_text("game: xanadu\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [xanadu.expret, random]\n")
    with pytest.raises(SimError, match=r"line 5, key 'strategies.0.name'.*did you mean 'xanadu.expert'"):
        load_config(bad)


def test_a_misspelt_command_gets_did_you_mean():
    """Breaker finding 11 (session 4): `sim rn` said only "No such command"."""
    res = CliRunner().invoke(cli, ["rn", "x.yaml"])
    assert res.exit_code == 2 and "did you mean 'run'?" in res.output


def test_a_run_made_with_other_games_names_the_flag_that_fits(tmp_path):
    """Fresh-user finding 8 (session 4): `sim check CONFIG --run DIR` of a run made with
    `--games 6` now says to give `--games 6`."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 40\nseed: 1\nstrategies: [random]\n"
                   "checks:\n  max_seat_win_rate: 0.9\n")
    assert CliRunner().invoke(cli, ["run", str(cfg), "--games", "6", "--out", str(tmp_path / "r"), "--quiet",
                                    "--jobs", "1"]).exit_code == 0
    res = CliRunner().invoke(cli, ["check", str(cfg), "--run", str(tmp_path / "r")])
    assert res.exit_code == 2 and "give --games 6 to use it" in res.output


def test_check_of_another_games_run_says_which_game_each_names(tmp_path):
    """Fresh-user finding 9 (session 7): the run folder was made with one game and the config
    names another; neither file changed ("now says" implied one had)."""
    osaka, fwd = tmp_path / "o.yaml", tmp_path / "f.yaml"
    osaka.write_text("game: traders_of_osaka\nplayers: 3\ngames: 3\nseed: 1\nstrategies: [random]\n")
    fwd.write_text("game: forwarder_of_xanadu\nplayers: 3\ngames: 3\nseed: 1\nstrategies: [random]\n"
                   "checks:\n  max_seat_win_rate: 0.9\n")
    assert CliRunner().invoke(cli, ["run", str(osaka), "--out", str(tmp_path / "r"), "--quiet", "--jobs", "1",
                                    "--figures", "never"]).exit_code == 0
    res = CliRunner().invoke(cli, ["check", str(fwd), "--run", str(tmp_path / "r")])
    assert res.exit_code == 2
    assert "was made with game = 'traders_of_osaka', and " in res.output
    assert "names game = 'forwarder_of_xanadu'" in res.output and "now says" not in res.output


def test_bench_says_when_games_did_not_finish():
    """Fresh-user finding 10 (session 4): 2-player Xanadu mirrors of random_by_kind mostly stall
    (a whole round of idle turns ends the game), and `sim bench` said nothing about it."""
    res = CliRunner().invoke(cli, ["bench", "xanadu", "--players", "2", "--strategy", "random_by_kind",
                                   "--games", "20"])
    assert res.exit_code == 0, res.output
    assert "did not finish normally" in res.output
    stalled = int(res.output.split("did not finish normally: ")[1].split(" stalled")[0])
    assert f"note: {stalled} of 20 games" in res.output  # every short game here stalled (no cap at 20 games)
    res = CliRunner().invoke(cli, ["bench", "traders_of_osaka", "--players", "2", "--strategy", "osaka.trader",
                                   "--games", "5"])
    assert res.exit_code == 0 and "did not finish" not in res.output, res.output


def test_bench_names_games_capped_at_max_decisions(tmp_path):
    """A config whose decision cap (RULINGS §1.5, option ``max_decisions``) is 5: no four-player
    Osaka game ends in 5 decisions (the first round alone takes a decision per seat and more), so
    all 3 games are capped, and the note says so (fresh-user finding, session 11)."""
    cfg = tmp_path / "capped.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 4\ngames: 3\nseed: 1\noptions: {max_decisions: 5}\n"
                   "strategies:\n  - {name: random}\n")
    res = CliRunner().invoke(cli, ["bench", str(cfg), "--games", "3"])
    assert res.exit_code == 0, res.output
    assert "note: 3 of 3 games did not finish normally: 3 decision cap (max_decisions reached)" in res.output


def test_dominance_p_is_one_sided():
    """Fresh-user finding 5 (session 4): a win rate below the fair share got p = 0.003 next to
    "dominant means ... p < 0.05". 45 of 100 against a fair share of 0.529: one-sided p that it
    wins more is P(X >= 45) for X ~ Binomial(100, 0.529), about 0.96 (scipy's binomtest agrees)."""
    from scipy.stats import binom

    from sim.runs.discover import _p_above

    assert abs(_p_above(45, 100, 0.529) - binom.sf(44, 100, 0.529)) < 1e-12
    assert _p_above(45, 100, 0.529) > 0.9 and _p_above(70, 100, 0.529) < 0.001


def test_a_sweep_writes_where_the_config_output_says(tmp_path, monkeypatch):
    """Fresh-user finding 7 (session 4): `sim sweep` ignored `output:`."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sw.yaml").write_text("game: traders_of_osaka\nplayers: 2\ngames: 2\nseed: 1\nstrategies: [random]\n"
                                      "output: out/sw\nsweep: {options.end_tokens: [6, 8]}\n")
    res = CliRunner().invoke(cli, ["sweep", "sw.yaml", "--jobs", "1", "--quiet", "--figures", "never"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "out" / "sw" / "point-000").is_dir()


def test_choices_and_percentages_get_a_hint(tmp_path):
    """Fresh-user finding (session 4): no "did you mean" for `seating: rotaet`, nor for `confidence: 95`."""
    code, lines = validate(tmp_path, HEAD + "seating: rotaet\nconfidence: 95\n")
    assert code == 2
    assert any(x.startswith("c.yaml, line 6, key 'seating'") and x.endswith("(did you mean 'rotate'?)") for x in lines)
    assert any(x.startswith("c.yaml, line 7, key 'confidence'") and x.endswith("(a share: 95% is written 0.95)")
               for x in lines)


def test_a_player_count_out_of_range_is_said_once(tmp_path):
    code, lines = validate(tmp_path, HEAD.replace("players: 3", "players: 0"))
    assert code == 2 and lines == ["c.yaml, line 2, key 'players': Xanadu takes 2-6 players, not 0"]  # rulebook: 2 to 6 players


def test_one_bad_check_does_not_hide_another(tmp_path):
    """Closing note, session 4: an invalid check dropped the whole section, so a threshold above 1
    in another check went unreported until the first was mended."""
    code, lines = validate(tmp_path, HEAD + "checks:\n  max_seat_win_rate: 2\n  min_balance: -1\n")
    assert code == 2
    assert any("line 8, key 'checks.min_balance.threshold'" in x and "greater than or equal to 0" in x for x in lines)
    assert any("line 7, key 'checks.max_seat_win_rate': max_seat_win_rate is a proportion" in x for x in lines)


def test_a_misspelt_key_inside_a_data_file_gets_a_suggestion(tmp_path):
    src = Path(__file__).resolve().parents[1] / "sim" / "games" / "traders_of_osaka" / "data" / "cards.yaml"
    (tmp_path / "cards.yaml").write_text(src.read_text().replace("per_colour:", "per_colur:"))
    text = "game: traders_of_osaka\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [random]\ndata: {cards: cards.yaml}\n"
    code, lines = validate(tmp_path, text)
    assert code == 2 and any("key 'per_colur': unknown key (did you mean 'per_colour'?)" in x for x in lines)


def test_a_missing_run_folder_is_named_as_missing(tmp_path):
    """Closing note, session 4: `sim report NOPE` said "not a finished run folder (missing ...)"."""
    for args in (["report"], ["replay", "--game-index", "0"], ["compare", str(tmp_path)]):
        res = CliRunner().invoke(cli, [args[0], str(tmp_path / "nope"), *args[1:]])
        assert res.exit_code == 2 and f"'{tmp_path / 'nope'}' does not exist" in res.output, (args, res.output)


def test_an_option_the_file_does_not_set_is_named_at_the_key_it_conflicts_with(tmp_path):
    """Fresh-user finding 4 (session 5): a 2-player Forwarder config was told "line 1, key
    'options.allow_two_players'", a key not in the file; the player count is on line 2."""
    code, lines = validate(tmp_path, "game: forwarder_of_xanadu\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [random]\n")
    assert code == 2 and lines[0].startswith("c.yaml, line 2, key 'players': Forwarder of Xanadu is published for 3-5")
    assert "set allow_two_players: true (in options:, or --option allow_two_players=true)" in lines[0]
    code, _ = validate(tmp_path, "game: forwarder_of_xanadu\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [random]\n"
                                 "options: {allow_two_players: true}\n")
    assert code == 0


def test_checks_refuse_a_flag_a_nan_and_a_fraction_of_a_game(tmp_path):
    """Breaker finding 8 (session 5): `max_truncated_share: true` said "valid dictionary", a NaN
    threshold was unclear, `max_failed_games: 0.5` was accepted."""
    code, lines = validate(tmp_path, HEAD + "checks:\n  max_truncated_share: true\n  max_failed_games: 0.5\n"
                                            "  min_balance: .nan\n")
    assert code == 2
    assert "c.yaml, line 7, key 'checks.max_truncated_share': a check is a threshold (a number) or" in lines[0]
    assert any("key 'checks.min_balance.threshold': Input should be a finite number" in x for x in lines)
    assert any("key 'checks.max_failed_games': max_failed_games is a count of games, got 0.5" in x for x in lines)


def test_misspelt_keys_of_tune_and_discover_get_a_suggestion(tmp_path):
    """Fresh-user finding 3 (session 5): `tune.max_game` and `discover.param` got no "did you mean"."""
    code, lines = validate(tmp_path, HEAD + "tune:\n  params: {options.hand_limit: [6, 8]}\n"
                                            "  target: {metric: turns, value: 35}\n  max_game: 30\n")
    assert code == 2 and any("key 'tune.max_game': unknown key (did you mean 'max_games'?)" in x for x in lines)
    code, lines = validate(tmp_path, HEAD + "discover:\n  param: {options.hand_limit: [6, 8]}\n")
    assert code == 2 and any("key 'discover.param': unknown key (did you mean 'params'?)" in x for x in lines)


def test_a_partial_last_deal_is_warned_about_before_playing(tmp_path):
    """Fresh-user finding 6 (session 5): only the report said the last deal was partial. Two
    different strategies in 2 seats under permute: deals of 2! = 2 games, so 5 games leave 1 over."""
    text = "game: xanadu\nplayers: 2\ngames: 5\nseed: 1\nstrategies: [random, first_legal]\n"
    code, lines = validate(tmp_path, text)
    assert code == 0 and "warning: seating permute plays deals of 2 games" in "\n".join(lines)
    assert "5 games leave the last deal partial (1 of 2): 4 or 6 games keep every deal whole" in "\n".join(lines)
    code, lines = validate(tmp_path, text.replace("games: 5", "games: 6"))
    assert code == 0 and not any("warning" in x for x in lines)


def test_a_strategy_check_needs_two_strategies(tmp_path):
    # every seat plays random: its win rate is the seats' average, so the check could never fail
    code, lines = validate(tmp_path, HEAD + "checks:\n  max_strategy_win_rate: 0.6\n")
    assert code == 2
    assert lines[0].startswith("c.yaml, line 7, key 'checks.max_strategy_win_rate': max_strategy_win_rate"
                               " compares strategies, but every seat plays 'random'")
    two = HEAD.replace("[{name: random}]", "[{name: random}, {name: xanadu.hoarder}]")
    assert validate(tmp_path, two + "checks:\n  max_strategy_win_rate: 0.6\n")[0] == 0
    sweep = "sweep: {strategies.0.name: [random, xanadu.hoarder]}\nchecks:\n  min_strategy_win_rate: 0.1\n"
    assert validate(tmp_path, HEAD + sweep)[0] == 2  # one listed strategy fills every seat at every point
    pair = HEAD.replace("[{name: random}]", "[{name: random}, {name: random}]")
    assert validate(tmp_path, pair + sweep)[0] == 0  # the sweep makes the two listed ones differ


def test_control_characters_in_labels_and_output_are_refused_at_validation(tmp_path):
    """Breaker findings 9 and 10 (session 8): a label with U+0001 made the JUnit file invalid XML and
    an ESC was echoed raw to the terminal; `output: "\\0x"` validated and crashed `sim run`."""
    text = HEAD.replace("strategies: [{name: random}]", 'strategies: [{name: random, label: "a<b&c\\u0001"},'
                        ' {name: random, label: "\\u001b[31m"}]') + 'output: "\\0x"\n'
    code, lines = validate(tmp_path, text)
    assert code == 2
    assert ("c.yaml, line 5, key 'strategies.0.label': a label may not hold control characters; character 6 is"
            " U+0001 (got 'a<b&c\\x01')") in lines
    assert any("key 'strategies.1.label'" in line and "U+001B" in line for line in lines), lines
    assert any("key 'output': a folder name may not hold control characters; character 1 is U+0000" in line
               for line in lines), lines
    assert not any("\x1b" in line or "\x00" in line for line in lines)  # echoed escaped, never raw
    # invisible format and line-separator characters (breaker trial 2, session 8): a bidi override
    # would show a report's text reversed
    for ch, name in (("\\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"), ("\\u2028", "U+2028 (LINE SEPARATOR)"),
                     ("\\ufeff", "U+FEFF (ZERO WIDTH NO-BREAK SPACE)")):
        code, lines = validate(tmp_path, HEAD.replace("strategies: [{name: random}]",
                                                      f'strategies: [{{name: random, label: "ab{ch}c"}}]'))
        assert code == 2 and any("character 3 is " + name in line for line in lines), lines


def test_a_label_with_markup_characters_is_kept(tmp_path):
    code, _ = validate(tmp_path, HEAD.replace("[{name: random}]", '[{name: random, label: "a<b&\\"c]]>"}]'))
    assert code == 0


def test_bench_counts_games_whose_strategy_raises(tmp_path, monkeypatch):
    """Breaker, session 12: `sim bench GAME --strategy MODULE:Class` whose ``choose`` raises ended in
    a traceback; every one of its 5 games fails (the first decision raises), as `sim run` records it."""
    (tmp_path / "boom_bench.py").write_text(
        "class Boom:\n    def choose(self, obs, legal, rng):\n        raise RuntimeError('boom')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    res = CliRunner().invoke(cli, ["bench", "traders_of_osaka", "--players", "2", "--strategy", "boom_bench:Boom",
                                   "--games", "5"])
    assert res.exit_code == 0, res.output
    assert "note: 5 of 5 games did not finish normally: 5 failed" in res.output
