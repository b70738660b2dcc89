"""The README's commands are real (fresh-user finding 7: a user copies them): every `sim COMMAND`
in its code blocks and inline code names a command of `sim`, every `--option` written after it is
an option of that command, and every shipped config or file it names exists."""
import re
import shlex
from pathlib import Path

import click
import pytest

from sim.cli.group import COMMANDS, cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SIM = re.compile(r"(?:^|[\s`(/])sim ([a-z]+)((?: +[^`#|>]*)?)")


def _snippets() -> list[str]:
    """Each line of a ``` block, and each inline `code` span outside the blocks."""
    out, fenced = [], False
    for line in README.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            out.append(line)
        else:
            out.extend(re.findall(r"`([^`]+)`", line))
    return out


def _uses() -> list[tuple[str, list[str]]]:
    uses = []
    for snippet in _snippets():
        for name, rest in SIM.findall(snippet):
            uses.append((name, re.findall(r"(?<![\w-])--[a-z][a-z-]*", rest)))
    return uses


def _options(command: click.Command) -> set[str]:
    names = {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)}
    return names | {"--help"}


def test_the_readme_has_commands_to_check():
    # the quick start alone has run, compare, sweep and check
    names = {name for name, _ in _uses()}
    assert {"run", "compare", "sweep", "check", "init", "validate", "list"} <= names


@pytest.mark.parametrize(("name", "flags"), _uses(), ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_command_and_its_options_exist(name, flags):
    assert name in COMMANDS, f"README: `sim {name}` is not a command of sim ({', '.join(sorted(COMMANDS))})"
    command = cli.get_command(click.Context(cli), name)
    known = _options(command)
    if isinstance(command, click.Group):   # sim list SUBCOMMAND: the options of any subcommand
        for sub in command.commands.values():
            known |= _options(sub)
    unknown = [f for f in flags if f not in known]
    assert not unknown, f"README: `sim {name}` has no option {unknown}"


def test_every_file_the_readme_names_exists():
    paths = set(re.findall(r"(?<![\w/.])((?:configs|docs|examples|benchmarks)/[\w./-]+\.(?:yaml|yml|py|md))", README))
    assert len(paths) > 10
    examples = {"configs/x.yaml"}   # the file named in the README's example error message
    placeholder = re.compile(r"<|/[A-Z]+/")   # configs/<game>/..., configs/GAME/...
    missing = sorted(p for p in paths - examples if not placeholder.search(p) and not (ROOT / p).exists())
    assert not missing, f"README names files that do not exist: {missing}"


def test_quick_start_commands_parse():
    # the four steps of the quick start, exactly as written, are accepted by click
    block = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in block.splitlines() if line.startswith("sim ")]
    assert len(lines) == 5
    for line in lines:
        args = shlex.split(line)[1:]
        command = cli.get_command(click.Context(cli), args[0])
        command.make_context(args[0], args[1:])   # raises click.UsageError on a bad option or argument
