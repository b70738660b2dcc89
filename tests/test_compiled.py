"""The compiled copies of the hot modules (sim/compiled.py, tools/build_compiled.py; issue 20):
served only when built from the bytes of the ``.py`` now on disk, never with ``BOARDSIM_PURE=1``,
and playing the games the pins of tests/test_speed_pins.py name either way."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import compiled

ROOT = Path(__file__).resolve().parents[1]
BUILT = compiled.read_manifest()
PKG = sys.modules["sim"].__path__  # where the import system looks for sim.<module>


def _run(code: str, **env: str) -> str:
    full = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV} | env
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=full, cwd=ROOT).stdout.strip()


def test_a_copy_built_from_other_source_bytes_is_not_served(tmp_path):
    so = tmp_path / ("sim.seeding" + importlib.machinery.EXTENSION_SUFFIXES[0])
    so.write_bytes(b"not a library")
    good = compiled.source_hash(ROOT / "sim" / "seeding.py")
    stale = compiled.Finder({"sim.seeding": {"file": so.name, "sha256": "0" * 64, "size": 13}}, tmp_path)
    assert stale.find_spec("sim.seeding", PKG) is None
    current = compiled.Finder({"sim.seeding": {"file": so.name, "sha256": good, "size": 13}}, tmp_path)
    spec = current.find_spec("sim.seeding", PKG)
    assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader) and spec.origin == str(so)
    assert current.find_spec("sim.play", PKG) is None  # not in its manifest: the usual finders
    cut = compiled.Finder({"sim.seeding": {"file": so.name, "sha256": good, "size": 14}}, tmp_path)
    assert cut.find_spec("sim.seeding", PKG) is None  # not the size it was built with: cut short
    odd = compiled.Finder({"sim.seeding": "broken"}, tmp_path)
    assert odd.find_spec("sim.seeding", PKG) is None
    missing = compiled.Finder({"sim.seeding": {"file": "absent.so", "sha256": good}}, tmp_path)
    assert missing.find_spec("sim.seeding", PKG) is None
    (tmp_path / "sim.seeding.cpython-39-x86_64-linux-gnu.so").write_bytes(b"")  # another Python's ABI tag
    other = compiled.Finder({"sim.seeding": {"file": "sim.seeding.cpython-39-x86_64-linux-gnu.so", "sha256": good}},
                            tmp_path)
    assert other.find_spec("sim.seeding", PKG) is None


def test_the_source_hash_is_sha256_of_the_bytes(tmp_path):
    f = tmp_path / "m.py"
    f.write_bytes(b"abc")  # FIPS 180-2 example: SHA-256("abc")
    assert compiled.source_hash(f) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_an_unreadable_manifest_means_nothing_is_compiled(tmp_path):
    bad = tmp_path / "manifest.json"
    bad.write_text("{not json")
    assert compiled.read_manifest(bad) == {}
    assert compiled.read_manifest(tmp_path / "absent.json") == {}
    bad.write_text(json.dumps([1, 2]))
    assert compiled.read_manifest(bad) == {}


def test_pure_python_when_asked():
    out = _run("import sim.play, sim.compiled as c; print(sim.play.__file__); print(c.status())",
               BOARDSIM_PURE="1")
    path, status = out.splitlines()
    assert path.endswith("play.py") and status.startswith("pure Python (BOARDSIM_PURE")


@pytest.mark.skipif(not BUILT, reason="compiled copies not built here (make install builds them)")
def test_every_current_copy_is_what_imports():
    code = ("import importlib, json, sim.compiled as c\n"
            "print(json.dumps({m: importlib.import_module(m).__file__ for m in c.MODULES}))")
    files = json.loads(_run(code))
    for m, path in files.items():
        src = ROOT / (m.replace(".", "/") + ".py")
        current = m in BUILT and BUILT[m]["sha256"] == compiled.source_hash(src)
        assert path.endswith(".so") == current, (m, path)


@pytest.mark.integration
@pytest.mark.parametrize("game,kind", [("traders_of_osaka", "random"), ("alpenzian", "baseline")])
def test_pure_python_plays_the_pinned_games(game, kind):
    """The pins hold in a process without the compiled copies too (test_speed_pins runs with them
    wherever they are built)."""
    code = f"from tests.test_speed_pins import pin_hashes; print(*pin_hashes({game!r}, {kind!r}))"
    from tests.test_speed_pins import PINS

    assert tuple(_run(code, BOARDSIM_PURE="1").split()) == PINS[(game, kind)]


def test_a_copy_named_outside_its_folder_is_not_served(tmp_path):
    folder = tmp_path / "copies"
    folder.mkdir()
    outside = tmp_path / ("sim.seeding" + compiled.SUFFIX)
    outside.write_bytes(b"")
    good = compiled.source_hash(ROOT / "sim" / "seeding.py")
    finder = compiled.Finder({"sim.seeding": {"file": "../" + outside.name, "sha256": good, "size": 0}}, folder)
    assert finder.find_spec("sim.seeding", PKG) is None


@pytest.mark.skipif(not BUILT, reason="compiled copies not built here (make install builds them)")
def test_the_status_names_a_module_edited_since_the_build(tmp_path):
    """A copy whose source changed is reported by name with what rebuilds it (fresh-user trial)."""
    code = ("import sim.compiled as c, sys\n"
            "f = next(x for x in sys.meta_path if isinstance(x, c.Finder))\n"
            "f.built['sim.seeding'] = dict(f.built['sim.seeding'], sha256='0' * 64)\n"
            "print(c.status())")
    out = _run(code)
    assert out.startswith("compiled modules: ") and "make install rebuilds them" in out
    assert "sim.seeding" in out.split("; as Python: ")[1]
