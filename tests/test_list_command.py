"""`sim list` (session 8, fresh-user finding 10): with no argument it says what can be listed (exit 0);
`sim list strategies GAME` lists the strategies that play GAME."""

from __future__ import annotations

from click.testing import CliRunner

from sim.cli import cli


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_list_alone_says_what_can_be_listed_and_names_the_games():
    res = invoke("list")
    assert res.exit_code == 0, res.output
    for usage in ("sim list games", "sim list strategies [GAME]", "sim list options GAME", "sim list data GAME"):
        assert usage in res.output
    # the five games README "Games" describes
    for game in ("alpenzian", "forwarder_of_xanadu", "taiwan_formosa", "traders_of_osaka", "xanadu"):
        assert game in res.output.splitlines()[-1]


def test_list_strategies_of_a_game_are_its_own_and_the_any_game_ones():
    res = invoke("list", "strategies", "xanadu")
    assert res.exit_code == 0, res.output
    names = {line.split()[0] for line in res.output.splitlines() if not line.startswith(" ")}
    # docs/xanadu.md's four plans; README: random, random_by_kind, first_legal and search play any game
    assert names == {"xanadu.builder", "xanadu.saboteur", "xanadu.hoarder", "xanadu.expert",
                     "random", "random_by_kind", "first_legal", "search"}


def test_list_refuses_bad_input_with_exit_2():
    cases = [(("list", "strategies", "xanad"), "did you mean 'xanadu'"),
             (("list", "games", "xanadu"), "`sim list strategies GAME`"),
             (("list", "options"), "`sim list games` lists them")]
    for args, words in cases:
        res = invoke(*args)
        assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output, (args, res.output)
