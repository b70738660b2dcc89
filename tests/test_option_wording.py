"""What `sim list options` and `sim init` say is allowed, and errors that say the value once
(fresh-user finding 8, session 10)."""

from __future__ import annotations

from click.testing import CliRunner

from sim.cli import cli
from sim.config.starter import option_rows


def _allowed(game: str, key: str) -> str:
    return next(r["allowed"] for r in option_rows(game) if r["name"] == key)


def test_validated_options_say_what_is_allowed_not_any():
    sheet = _allowed("alpenzian", "sheet")
    assert "'A'-'E'" in sheet and "'random'" in sheet and "one type per seat" in sheet
    assert _allowed("forwarder_of_xanadu", "growth").startswith("a list of whole numbers >= 0")
    assert _allowed("taiwan_formosa", "uncompleted_penalty") == "a list of at least 1 value"  # min_length=1
    assert _allowed("traders_of_osaka", "end_tokens") == ">= 1"  # the constraints' text is unchanged
    # a per-seat list is accepted (rulebook section 8): the allowed text says so (fresh-user finding 10)
    assert _allowed("alpenzian", "ranch_rule").endswith("or a list of them, one per seat")


def test_init_copies_the_allowed_text_into_the_comment(tmp_path):
    out = tmp_path / "f.yaml"
    assert CliRunner().invoke(cli, ["init", "forwarder_of_xanadu", str(out)]).exit_code == 0
    line = next(x for x in out.read_text().splitlines() if x.strip().startswith("growth:"))
    assert "# a list of whole numbers >= 0, the unlocks after round 1, 2, ..." in line and "# any" not in line


def test_a_growth_error_names_the_value_once(tmp_path):
    res = CliRunner().invoke(cli, ["run", "--game", "forwarder_of_xanadu", "--players", "3", "--games", "2",
                              "--option", "growth=[-1, 99]", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2, res.output
    assert "key 'options.growth': every value of growth must be >= 0, got [-1, 99]\n" in res.output, res.output
    assert res.output.count("[-1, 99]") == 1


def test_a_config_file_error_with_its_own_got_is_not_suffixed_again(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: forwarder_of_xanadu\nplayers: 3\ngames: 2\nseed: 1\nstrategies: [{name: random}]\n"
                   "options:\n  growth: [1, -2]\n  rounds: 'x'\n  space_resources: 5\n")
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 2
    assert "line 7, key 'options.growth': every value of growth must be >= 0, got [1, -2]\n" in res.output, res.output
    assert "key 'options.rounds': 'rounds' must be a whole number, got 'x'\n" in res.output, res.output  # was "... (got 'x')"
    assert "key 'options.space_resources': Input should be a valid tuple (got 5)" in res.output  # pydantic's own: kept
