"""Config errors a designer meets first (fresh-user trial, session 6; fixed in session 7): an option
or strategy parameter of another game or strategy, a fixed-length list of the wrong length, a
strategy parameter out of its range, and rule options on the command line (``sim run --game ...
--option KEY=VALUE``). Every one exits 2 naming the file (or command line), line and key."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from sim.cli import cli
from sim.config.lists import fixed_length
from sim.registry import games, strategies

HEAD = "players: 3\ngames: 4\nseed: 1\nstrategies: [random]\n"


def validate(tmp_path: Path, text: str) -> tuple[int, str]:
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


# ------------------------------------------------------------------ A1: another game's option, another strategy's parameter

def test_an_option_of_another_game_names_that_game_and_where_to_look(tmp_path):
    # markers_per_player is a Taiwan option; Xanadu has nothing close to it
    code, out = validate(tmp_path, "game: xanadu\n" + HEAD + "options: {markers_per_player: 6}\n")
    assert code == 2
    assert "line 6, key 'options.markers_per_player': unknown key: an option of taiwan_formosa, not of xanadu;" \
           " see `sim list options xanadu`" in out


def test_another_games_option_gets_no_misleading_did_you_mean(tmp_path):
    # allow_two_players (Forwarder) is spelt a little like Taiwan's neutral_in_two_player: that is no misspelling
    code, out = validate(tmp_path, "game: taiwan_formosa\n" + HEAD + "options: {allow_two_players: true}\n")
    assert code == 2
    assert "an option of forwarder_of_xanadu, not of taiwan_formosa; see `sim list options taiwan_formosa`" in out
    assert "did you mean" not in out


def test_a_misspelt_option_of_this_game_still_gets_did_you_mean(tmp_path):
    code, out = validate(tmp_path, "game: forwarder_of_xanadu\n" + HEAD + "options: {allow_two_player: true}\n")
    assert code == 2 and "(did you mean 'allow_two_players'?)" in out and "an option of" not in out


def test_a_parameter_of_another_strategy_names_its_strategies(tmp_path):
    # keep_hand belongs to xanadu.saboteur and xanadu.expert (strategies/xanadu), not to the builder
    text = "game: xanadu\nplayers: 3\ngames: 4\nseed: 1\nstrategies:\n  - {name: xanadu.builder, params: {keep_hand: 3}}\n"
    code, out = validate(tmp_path, text)
    assert code == 2
    assert "key 'strategies.0.params.keep_hand'" in out
    assert "(a parameter of xanadu.expert, xanadu.saboteur, not of xanadu.builder)" in out


def test_a_rollout_parameter_is_judged_against_the_rollout_strategy_named_beside_it(tmp_path):
    """Designer finding 5 (session 8): `rollout_params: {nope: 1}` was built without its `rollout`
    (so against random's parameters) and then suggested 'rollout_params' itself. osaka.trader takes
    min_goods and insure_at (strategies/traders_of_osaka)."""
    head = "game: traders_of_osaka\nplayers: 2\ngames: 2\nseed: 1\nstrategies:\n  - name: search\n"
    code, out = validate(tmp_path, head + "    params: {rollout: osaka.trader, rollout_params: {nope: 1}}\n")
    assert code == 2 and "line 7, key 'strategies.0.params.rollout_params'" in out, out
    assert "strategy 'osaka.trader': bad params: 'nope': unknown parameter" in out and "'random'" not in out, out
    assert "did you mean" not in out, out  # nothing close to 'nope' among min_goods, insure_at
    code, out = validate(tmp_path, head + "    params: {rollout: osaka.trader, rollout_params: {min_good: 1}}\n")
    assert code == 2 and out.rstrip().endswith("(did you mean 'min_goods'?)"), out
    # the search strategy's own misspelt parameter still gets its own suggestion
    code, out = validate(tmp_path, head + "    params: {rolout_params: {min_goods: 1}}\n")
    assert code == 2 and "key 'strategies.0.params.rolout_params'" in out and "(did you mean 'rollout_params'?)" in out


# ------------------------------------------------------------------ A2: fixed-length list options

# every fixed-length list option (rulebook): Xanadu's sale bonus by the four colours ('5 vagy 6 személyes
# változat'); Forwarder's resources by action space 1-3 (RULINGS §6) and VP pairs by area mark 1-3
FIXED = {
    ("xanadu", "sale_bonus"): (4, "expects 4 integers (one per colour: brown, blue, yellow, green), got 3"),
    ("forwarder_of_xanadu", "space_resources"): (3, "expects 3 integers (one per action space 1, 2, 3), got 2"),
    ("forwarder_of_xanadu", "interim_vp"): (3, "expects 3 (1st, 2nd) VP pairs (one per area mark 1, 2, 3), got 2"),
    ("forwarder_of_xanadu", "final_vp"): (3, "expects 3 (1st, 2nd) VP pairs (one per area mark 1, 2, 3), got 2"),
}


def test_the_fixed_length_options_are_the_known_ones():
    found = {(g, k) for g, cls in games().items() for k, f in cls.Options.model_fields.items()
             if fixed_length(f.annotation) is not None}
    assert found == set(FIXED)


@pytest.mark.parametrize("game, key", sorted(FIXED))
def test_a_fixed_length_list_of_the_wrong_length_says_how_many(tmp_path, game, key):
    n, message = FIXED[(game, key)]
    item = [1, 0] if "vp" in key else 0
    code, out = validate(tmp_path, f"game: {game}\n" + HEAD + f"options: {{{key}: {[item] * (n - 1)}}}\n")
    assert code == 2
    assert f"line 6, key 'options.{key}': {message}" in out
    assert "required key is missing" not in out


def test_a_pair_of_the_wrong_length_inside_a_list_is_named_by_its_place(tmp_path):
    code, out = validate(tmp_path, "game: forwarder_of_xanadu\n" + HEAD + "options: {final_vp: [[3, 1], [6, 3], [9]]}\n")
    assert code == 2 and "key 'options.final_vp': item 3 expects 2 integers, got 1" in out


def test_list_options_says_the_length_and_what_each_item_is():
    res = CliRunner().invoke(cli, ["list", "options", "xanadu"])
    assert "allowed: 4 integers, one per colour: brown, blue, yellow, green" in res.output


# ------------------------------------------------------------------ A3: strategy parameters out of range

# numeric parameters that may be negative on purpose (a threshold or margin, not a count, share or weight)
SIGNED = {
    ("xanadu.expert", "end_margin"),     # behind by more than this: -20 means "even when 20 ahead"
    ("taiwan.expert", "min_value"), ("taiwan.landmarks", "min_value"), ("taiwan.economy", "min_value"),
    ("taiwan.tempo", "min_value"),     # value minus cost: a negative threshold buys at a small loss
    ("taiwan.expert", "charity_min"),  # a majority swing threshold
    *{(n, k) for n in ("forwarder.majority", "forwarder.quality", "forwarder.economy", "forwarder.expert")
      for k in ("upper_weight", "daily_weight")},  # extra VP for an order kind: negative avoids that kind
}
# Alpenzian plan weights: not audited this round (another helper changes strategies/alpenzian)
NOT_AUDITED = "alpenzian."


def _numeric_params():
    for name, factory in strategies().items():
        model = getattr(factory, "Params", None)
        for key, field in (model.model_fields.items() if model else ()):
            ann = field.annotation
            if ann in (int, float) or set(typing.get_args(ann)) in ({int, type(None)}, {float, type(None)}):
                yield name, key, field


def test_every_numeric_strategy_parameter_has_a_range_or_is_signed_on_purpose():
    unbounded = {(n, k) for n, k, f in _numeric_params() if not f.metadata and not n.startswith(NOT_AUDITED)}
    assert unbounded == SIGNED


def _bound(field):
    for m in field.metadata:
        for attr, step in (("ge", -1), ("gt", 0), ("le", 1), ("lt", 0)):
            if getattr(m, attr, None) is not None:
                yield getattr(m, attr) + step, attr


@pytest.mark.parametrize("name, key, field", [p for p in _numeric_params() if p[2].metadata],
                         ids=lambda p: p if isinstance(p, str) else "")
def test_a_parameter_just_outside_its_range_is_refused(name, key, field):
    from sim.api import SimError
    from sim.registry import make_strategy

    game = (getattr(strategies()[name], "games", None) or ["traders_of_osaka"])[0]
    for value, _ in _bound(field):
        with pytest.raises(SimError, match=key):
            make_strategy(name, {key: value}, game)


def test_a_negative_card_count_is_refused_with_its_line_key_and_range(tmp_path):
    text = ("game: xanadu\nplayers: 3\ngames: 4\nseed: 1\nstrategies:\n"
            "  - {name: xanadu.hoarder, params: {idle_refill: -3}}\n")
    code, out = validate(tmp_path, text)
    assert code == 2
    assert "line 6, key 'strategies.0.params.idle_refill'" in out and "greater than or equal to 0" in out


# ------------------------------------------------------------------ A4: sim run --game ... --option KEY=VALUE

def run_flags(tmp_path: Path, *args: str):
    return CliRunner().invoke(cli, ["run", "--game", "forwarder_of_xanadu", "--players", "2", "--games", "2",
                                    "--jobs", "1", "--quiet", "--figures", "never", "--out", str(tmp_path / "r"),
                                    *args])


def test_a_two_player_forwarder_run_starts_from_the_command_line(tmp_path):
    assert run_flags(tmp_path).exit_code == 2  # the published game takes 3-5 players (RULINGS §6)
    res = run_flags(tmp_path, "--option", "allow_two_players=true")
    assert res.exit_code == 0, res.output
    written = yaml.safe_load((tmp_path / "r" / "config.yaml").read_text())
    assert written["options"] == {"allow_two_players": True}  # rerunning config.yaml plays the same


def test_a_bad_option_value_gets_the_message_a_config_file_gets(tmp_path):
    res = CliRunner().invoke(cli, ["run", "--game", "xanadu", "--players", "3", "--games", "2",
                                   "--option", "draw=forcd", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "Traceback" not in res.output
    code, out = validate(tmp_path, "game: xanadu\n" + HEAD + "options: {draw: forcd}\n")
    after = "key 'options.draw': "
    assert res.output.split(after)[1] == out.split(after)[1]
    assert "'optional' or 'forced'" in res.output


def test_option_pairs_are_checked_before_anything_runs(tmp_path):
    for args in (["--option", "draw"], ["--option", "draw=forced", "--option", "draw=optional"]):
        res = CliRunner().invoke(cli, ["run", "--game", "xanadu", "--players", "3", *args])
        assert res.exit_code == 2 and "--option" in res.output
    res = CliRunner().invoke(cli, ["run", "c.yaml", "--players", "3"])
    assert res.exit_code == 2 and "go with --game" in res.output


# ------------------------------------------------------------------ fresh-user finding 4 (session 7): --option with a config file

OSAKA = ("game: traders_of_osaka\nplayers: 3\ngames: 3\nseed: 5\nstrategies: [random]\n"
         "options:\n  end_tokens: 8\n  start_player: lowest_hand\n")


def run_config(tmp_path: Path, text: str, *args: str):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    return CliRunner().invoke(cli, ["run", str(cfg), "--jobs", "1", "--quiet", "--figures", "never", *args])


def test_an_option_on_the_command_line_replaces_and_adds_to_the_config_files(tmp_path):
    res = run_config(tmp_path, OSAKA, "--option", "end_tokens=6", "--option", "vp_per=4", "--out", str(tmp_path / "r"))
    assert res.exit_code == 0, res.output
    played = yaml.safe_load((tmp_path / "r" / "config.json").read_text())["options"]
    assert (played["end_tokens"], played["vp_per"], played["start_player"]) == (6, 4, "lowest_hand")
    written = yaml.safe_load((tmp_path / "r" / "config.yaml").read_text())
    assert written["options"] == {"end_tokens": 6, "start_player": "lowest_hand", "vp_per": 4}
    assert (tmp_path / "c.yaml").read_text() == OSAKA  # the user's file is left as it was


def test_the_run_folders_config_yaml_replays_the_option(tmp_path):
    res = run_config(tmp_path, OSAKA, "--option", "end_tokens=6", "--games", "2", "--out", str(tmp_path / "r"))
    assert res.exit_code == 0, res.output
    again = CliRunner().invoke(cli, ["run", str(tmp_path / "r" / "config.yaml"), "--jobs", "1", "--quiet",
                                     "--figures", "never", "--out", str(tmp_path / "r2")])
    assert again.exit_code == 0, again.output
    first, second = (yaml.safe_load((tmp_path / r / "config.json").read_text()) for r in ("r", "r2"))
    assert first["options"] == second["options"] and first["seed"] == second["seed"] == 5
    assert first["games"] == second["games"] == 2  # --games is part of what was played


def test_a_bad_command_line_option_gets_the_config_files_message_naming_the_flag(tmp_path):
    res = run_config(tmp_path, OSAKA, "--option", "end_tokens=many", "--out", str(tmp_path / "r"))
    code, out = validate(tmp_path, OSAKA.replace("end_tokens: 8", "end_tokens: many"))
    after = "key 'options.end_tokens': "
    assert res.exit_code == code == 2 and "Traceback" not in res.output
    assert "c.yaml with --option end_tokens, " + after in res.output
    assert res.output.split(after)[1] == out.split(after)[1]
    assert not (tmp_path / "r").exists()  # refused before any game is played


def test_a_misspelt_command_line_option_gets_did_you_mean(tmp_path):
    res = run_config(tmp_path, OSAKA, "--option", "end_token=6", "--out", str(tmp_path / "r"))
    assert res.exit_code == 2
    assert "--option end_token, key 'options.end_token': unknown key (did you mean 'end_tokens'?)" in res.output


def test_check_and_sweep_take_option_as_run_does(tmp_path):
    """Designer finding 8 (session 8): `sim check` and `sim sweep` had no --option KEY=VALUE."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(OSAKA + "checks: {max_failed_games: 0}\n")
    res = CliRunner().invoke(cli, ["check", str(cfg), "--jobs", "1", "--quiet", "--figures", "never", "--option",
                                   "end_tokens=6", "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output  # no game fails: the one check passes
    assert yaml.safe_load((tmp_path / "c" / "config.json").read_text())["options"]["end_tokens"] == 6
    written = yaml.safe_load((tmp_path / "c" / "config.yaml").read_text())
    assert written["options"] == {"end_tokens": 6, "start_player": "lowest_hand"}
    (tmp_path / "s.yaml").write_text(OSAKA + "sweep: {players: [2, 3]}\n")
    res = CliRunner().invoke(cli, ["sweep", str(tmp_path / "s.yaml"), "--jobs", "1", "--quiet", "--figures", "never",
                                   "--no-point-reports", "--option", "end_tokens=6", "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    for point in ("point-000", "point-001"):  # every point plays the flag's value
        assert yaml.safe_load((tmp_path / "s" / point / "config.json").read_text())["options"]["end_tokens"] == 6
    for cmd in ("check", "sweep"):  # a misspelt one: the flag named, did you mean, nothing played
        res = CliRunner().invoke(cli, [cmd, str(cfg if cmd == "check" else tmp_path / "s.yaml"), "--option",
                                       "end_token=6", "--out", str(tmp_path / f"bad-{cmd}")])
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        assert "--option end_token, key 'options.end_token': unknown key (did you mean 'end_tokens'?)" in res.output
        assert not (tmp_path / f"bad-{cmd}").exists()
    res = CliRunner().invoke(cli, ["sweep", "--resume", str(tmp_path / "s"), "--option", "end_tokens=7"])
    assert res.exit_code == 2 and "--option" in res.output
    # an option the grid sweeps would be replaced at every point (breaker trial 2, session 8)
    (tmp_path / "t.yaml").write_text(OSAKA + "sweep: {options.end_tokens: [6, 8]}\n")
    res = CliRunner().invoke(cli, ["sweep", str(tmp_path / "t.yaml"), "--option", "end_tokens=5", "--out",
                                   str(tmp_path / "t")])
    assert res.exit_code == 2 and "sweeps options.end_tokens" in res.output and not (tmp_path / "t").exists()


def test_sweep_keys_and_values_get_the_same_help(tmp_path):
    text = ("game: xanadu\n" + HEAD + "sweep:\n  options.markers_per_player: [5, 6]\n"
            "  options.sale_bonus: [[0, 0, 1]]\n")
    code, out = validate(tmp_path, text)
    assert code == 2
    assert "key 'sweep.options.markers_per_player': unknown option 'markers_per_player': an option of" \
           " taiwan_formosa, not of xanadu" in out
    assert "key 'sweep.options.sale_bonus.0': expects 4 integers (one per colour: brown, blue, yellow, green)," \
           " got 3" in out


# ------------------------------------------------------------------ fresh-user finding 5 (session 7): one line per mistake, its own key

ALP = "game: alpenzian\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [random]\noptions:\n"


def test_a_bad_ranch_rule_is_one_line_naming_the_users_key_and_what_is_allowed(tmp_path):
    code, out = validate(tmp_path, ALP + "  ranch_rule: beginner\n")
    assert code == 2
    lines = [x for x in out.splitlines() if "ranch_rule" in x]
    assert len(lines) == 1, out
    assert "line 7, key 'options.ranch_rule': unknown ranch rule 'beginner'" in lines[0]
    assert "normal, beginner1, beginner2" in lines[0] and "literal" not in out.lower()


def test_a_sheet_error_names_its_own_key_and_line(tmp_path):
    code, out = validate(tmp_path, ALP + "  ranch_rule: normal\n  sheet: [A, B, F]\n")
    assert code == 2
    assert "line 8, key 'options.sheet': give one value or 2 (one per seat), got 3" in out


def test_a_sheet_in_the_wrong_case_gets_did_you_mean_and_random_is_listed(tmp_path):
    code, out = validate(tmp_path, ALP + "  sheet: a\n")
    assert code == 2
    assert "line 7, key 'options.sheet': unknown value 'a' (did you mean 'A'?)" in out
    assert "A, B, C, D, E, or random for everyone" in out  # the option's own description allows 'random'


def test_a_bad_sheet_is_reported_with_a_bad_ranch_rule_at_once(tmp_path):
    code, out = validate(tmp_path, ALP + "  sheet: G\n  ranch_rule: beginner\n")
    assert code == 2
    assert "key 'options.sheet': unknown value 'G'" in out and "key 'options.ranch_rule'" in out


def test_interim_round_error_names_its_own_key_and_line(tmp_path):
    text = "game: forwarder_of_xanadu\nplayers: 3\ngames: 4\nseed: 1\nstrategies: [random]\noptions:\n" \
           "  rounds: 4\n  interim_round: 5\n"
    code, out = validate(tmp_path, text)
    assert code == 2
    assert "line 8, key 'options.interim_round': interim_round must come before the last round (rounds: 4), got 5" \
        in out


def test_a_bad_check_value_is_reported_beside_a_misspelt_check(tmp_path):
    text = "game: traders_of_osaka\n" + HEAD + "checks:\n  max_seat_win_rat: 0.4\n  min_balance: 1.5\n"
    code, out = validate(tmp_path, text)
    assert code == 2
    assert "key 'checks.max_seat_win_rat': unknown key (did you mean 'max_seat_win_rate'?)" in out
    assert "key 'checks.min_balance': min_balance is a proportion in [0, 1]" in out


def test_a_parameter_of_another_games_strategy_says_whose_it_is(tmp_path):
    # keep_hand is a parameter of Xanadu's saboteur and expert; no Osaka strategy has it
    text = "game: traders_of_osaka\nplayers: 3\ngames: 4\nseed: 1\nstrategies:\n" \
           "  - {name: osaka.shipper, params: {keep_hand: 2}}\n"
    code, out = validate(tmp_path, text)
    assert code == 2
    assert "(a parameter of xanadu.expert, xanadu.saboteur, which play xanadu, not of osaka.shipper)" in out
    assert "did you mean" not in out


def test_an_unknown_strategy_lists_this_games_strategies_only(tmp_path):
    code, out = validate(tmp_path, "game: traders_of_osaka\n" + HEAD.replace("[random]", "[osaka.trder]"))
    assert code == 2
    assert "unknown strategy 'osaka.trder' (did you mean 'osaka.trader'?)" in out
    assert "osaka.shipper" in out and "random" in out
    assert "alpenzian." not in out and "forwarder." not in out and "xanadu." not in out


def test_an_unknown_strategy_close_to_another_games_says_so(tmp_path):
    code, out = validate(tmp_path, "game: traders_of_osaka\n" + HEAD.replace("[random]", "[alpenzian.expret]"))
    assert code == 2
    assert "(did you mean 'alpenzian.expert'? a strategy of alpenzian, not of traders_of_osaka)" in out
