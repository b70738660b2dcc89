"""A config that is not a small regular file is refused before it is read: /dev/zero behind a
symlink would otherwise be read without end, a named pipe would wait forever, and a file of
megabytes is not a config (exit 2, the file named, what was expected)."""

from __future__ import annotations

import os

from click.testing import CliRunner

from sim.cli import cli
from sim.data import MAX_BYTES


def validate(path) -> object:
    return CliRunner().invoke(cli, ["validate", str(path)])


def test_a_device_or_a_pipe_is_not_a_config(tmp_path):
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "pipe.yaml")
    for name in ("zero.yaml", "pipe.yaml"):
        res = validate(tmp_path / name)
        assert res.exit_code == 2 and name in res.output and "not a regular file" in res.output, res.output


def test_a_file_over_the_size_limit_is_refused_with_both_sizes(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("# padding\n" * (MAX_BYTES // 10 + 1))  # a valid YAML comment, just too long
    res = validate(big)
    assert res.exit_code == 2 and "big.yaml" in res.output and f"{MAX_BYTES:,} bytes" in res.output, res.output
