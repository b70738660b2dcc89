"""A designer's data variant (README "Configs", `data:`): `sim list data GAME` names the reference
files, `--copy DIR` copies them to edit (session 8, designer finding 1), and a folder given where a
data file is expected is called a folder, not "not found" (finding 3)."""

from __future__ import annotations

import os
from importlib import resources

from click.testing import CliRunner

from sim.cli import cli

CONFIG = """\
game: traders_of_osaka
players: 2
games: 2
seed: 1
strategies: [osaka.trader, random]
data:
  cards: {cards}
"""


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def reference(name: str) -> bytes:
    """The packaged file, read independently of the command (docs/traders_of_osaka.md names them)."""
    return resources.files("sim.games.traders_of_osaka.data").joinpath(name).read_bytes()


def test_list_data_prints_each_key_with_its_reference_file():
    res = invoke("list", "data", "traders_of_osaka")
    assert res.exit_code == 0, res.output
    rows = dict(line.split(None, 1) for line in res.output.splitlines())
    assert sorted(rows) == ["cards", "track"]  # the game's two data files (docs/traders_of_osaka.md)
    for key in rows:
        with open(rows[key], "rb") as fh:
            assert fh.read() == reference(f"{key}.yaml")


def test_copy_writes_the_files_a_config_can_name_and_never_replaces_an_edited_copy(tmp_path):
    dest = tmp_path / "variant"
    res = invoke("list", "data", "traders_of_osaka", "--copy", dest)
    assert res.exit_code == 0, res.output
    assert (dest / "cards.yaml").read_bytes() == reference("cards.yaml")
    assert (dest / "track.yaml").read_bytes() == reference("track.yaml")
    # the hint's paths are absolute: a config anywhere reads them (a relative one is read from the config's folder)
    assert f"data: {{cards: {(dest / 'cards.yaml').resolve()}, track: {(dest / 'track.yaml').resolve()}}}" in res.output
    cfg = tmp_path / "v.yaml"
    cfg.write_text(CONFIG.format(cards="variant/cards.yaml"))
    assert invoke("validate", cfg).exit_code == 0
    (dest / "cards.yaml").write_text("# edited\n" + reference("cards.yaml").decode())
    again = invoke("list", "data", "traders_of_osaka", "--copy", dest)
    assert again.exit_code == 2 and "already there" in again.output and "Traceback" not in again.output
    assert (dest / "cards.yaml").read_text().startswith("# edited\n")


def test_copy_refuses_a_dangling_symlink_as_an_existing_file(tmp_path):
    """A dangling link named cards.yaml is refused as an existing file is (breaker trial 2, session 9:
    it was replaced), and nothing is written through it or beside it."""
    dest = tmp_path / "variant"
    dest.mkdir()
    (dest / "cards.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    res = invoke("list", "data", "traders_of_osaka", "--copy", dest)
    assert res.exit_code == 2 and f"{dest / 'cards.yaml'} already there" in res.output, res.output
    assert (dest / "cards.yaml").is_symlink() and not (tmp_path / "elsewhere.yaml").exists()
    assert sorted(p.name for p in dest.iterdir()) == ["cards.yaml"]
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")  # a dangling link as DIR: not a folder
    res = invoke("list", "data", "traders_of_osaka", "--copy", tmp_path / "link")
    assert res.exit_code == 2 and "not a folder" in res.output, res.output


def test_copy_on_a_full_disk_leaves_no_folder(tmp_path, monkeypatch):
    """The second file finds no space: exit 2 naming the folder, and neither the first copy nor the
    folders the command created are left (breaker trial 2, session 9: an empty folder was left)."""
    import errno

    real, calls = os.fsync, []

    def full(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", full)
    dest = tmp_path / "new" / "variant"
    res = invoke("list", "data", "traders_of_osaka", "--copy", dest)
    assert res.exit_code == 2 and f"--copy {dest}" in res.output and "No space left on device" in res.output
    assert "Traceback" not in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_list_data_refuses_bad_input_with_exit_2(tmp_path):
    (tmp_path / "f").write_text("")
    cases = [(("list", "data"), "names a game"),
             (("list", "data", "traders_of_osak"), "did you mean 'traders_of_osaka'"),
             (("list", "games", "--copy", tmp_path / "x"), "--copy DIR goes with `sim list data GAME`"),
             (("list", "data", "xanadu", "--copy", tmp_path / "f"), "not a folder")]
    for args, words in cases:
        res = invoke(*args)
        assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output, (args, res.output)


def test_a_folder_given_as_a_data_file_is_called_a_folder(tmp_path):
    (tmp_path / "variant").mkdir()
    cfg = tmp_path / "v.yaml"
    cfg.write_text(CONFIG.format(cards="variant"))
    res = invoke("validate", cfg)
    assert res.exit_code == 2 and "Traceback" not in res.output
    # line 7 is `  cards: variant` in CONFIG
    assert "line 7, key 'data.cards'" in res.output and "is a folder" in res.output, res.output
    assert "not found" not in res.output and "variant/cards.yaml" in res.output


def test_a_run_keeps_its_data_files_so_its_config_reruns_and_its_games_replay(tmp_path):
    """Fresh-user findings 3 and 4 (session 8): a run folder's config.yaml named its data file by a
    path relative to the config (not found from the run folder), and editing the data file in place
    made the run's games unreplayable with no way forward."""
    import shutil

    dest = tmp_path / "variant"
    assert invoke("list", "data", "traders_of_osaka", "--copy", dest).exit_code == 0
    text = reference("cards.yaml").decode()
    mine = text.replace("achievement_tokens_per_colour: 12", "achievement_tokens_per_colour: 11")
    assert mine != text
    (dest / "cards.yaml").write_text(mine)
    cfg = tmp_path / "v.yaml"
    cfg.write_text(CONFIG.format(cards="variant/cards.yaml"))
    run = tmp_path / "r"
    assert invoke("run", cfg, "--out", run, "--quiet", "--figures", "never").exit_code == 0
    assert (run / "data" / "cards.yaml").read_text() == mine
    assert invoke("validate", run / "config.yaml").exit_code == 0
    before = invoke("replay", run, "--game-index", 1)
    assert before.exit_code == 0, before.output

    (dest / "cards.yaml").write_text(text)  # edited in place: other contents
    after = invoke("replay", run, "--game-index", 1)
    assert after.exit_code == 0 and after.output == before.output, after.output

    shutil.rmtree(run / "data")  # a run folder from before the copies were kept
    old = invoke("replay", run, "--game-index", 1)
    assert old.exit_code == 2 and "cards (" in old.output and "restore those contents" in old.output, old.output


def test_a_run_with_a_data_file_is_checked_by_contents_and_resumes_from_its_copies(tmp_path):
    """Breaker trial 2 (session 8): `sim check CONFIG --run DIR` refused the run folder's own
    config.yaml (it names the folder's copy of the data file, not the original path) and a renamed
    identical copy; a resume after the original file was edited was refused though the folder keeps
    the contents it was made with. A data file with other contents is still another experiment."""
    import shutil

    dest = tmp_path / "variant"
    assert invoke("list", "data", "traders_of_osaka", "--copy", dest).exit_code == 0
    text = reference("cards.yaml").decode()
    mine = text.replace("achievement_tokens_per_colour: 12", "achievement_tokens_per_colour: 11")
    (dest / "cards.yaml").write_text(mine)
    cfg = tmp_path / "v.yaml"
    cfg.write_text(CONFIG.format(cards="variant/cards.yaml") + "checks: {max_failed_games: 0}\n")
    run = tmp_path / "r"
    assert invoke("check", cfg, "--out", run, "--quiet", "--figures", "never").exit_code == 0
    own = invoke("check", run / "config.yaml", "--run", run, "--figures", "never")
    assert own.exit_code == 0, own.output
    shutil.copy(dest / "cards.yaml", tmp_path / "renamed.yaml")
    renamed = tmp_path / "w.yaml"
    renamed.write_text(CONFIG.format(cards="renamed.yaml") + "checks: {max_failed_games: 0}\n")
    assert invoke("check", renamed, "--run", run, "--figures", "never").exit_code == 0
    (tmp_path / "renamed.yaml").write_text(text)  # other contents: another experiment
    other = invoke("check", renamed, "--run", run, "--figures", "never")
    assert other.exit_code == 2 and "other contents of data file(s) cards" in other.output, other.output


def test_an_interrupted_run_resumes_from_its_data_copies_after_the_original_was_edited(tmp_path):
    from sim.runs.fixed import reopen

    dest = tmp_path / "variant"
    assert invoke("list", "data", "traders_of_osaka", "--copy", dest).exit_code == 0
    text = reference("cards.yaml").decode()
    (dest / "cards.yaml").write_text(text.replace("achievement_tokens_per_colour: 12",
                                                  "achievement_tokens_per_colour: 11"))
    cfg = tmp_path / "v.yaml"
    cfg.write_text(CONFIG.format(cards="variant/cards.yaml"))
    run = tmp_path / "r"
    assert invoke("run", cfg, "--out", run, "--quiet", "--figures", "never").exit_code == 0
    (dest / "cards.yaml").write_text(text)  # edited in place after the run
    (run / "chunks").mkdir()  # as an interrupted run leaves it: resumable
    (run / "games.parquet").unlink()
    rc = reopen(run, None)  # refused before: "other contents of data file(s) cards"
    assert rc.data["cards"] == str((run / "data" / "cards.yaml").resolve())
