"""Compiled copies of the hot modules (issue 20 items 1 and 2): an import finder that loads
``sim/_compiled/<module>.so`` in place of ``<module>.py`` when the copy was built from the very
bytes of the ``.py`` file now on disk.

The ``.py`` files stay the only source: ``tools/build_compiled.py`` (run by ``make install`` and
``make test``) compiles the modules of ``MODULES`` with Cython, unchanged, and records the SHA-256
of each source in ``sim/_compiled/manifest.json``. Some modules have an augmenting ``.pxd`` beside
them (Cython's C types for their classes and functions; Python ignores it):
``strategies/alpenzian/evaluator.pxd`` (``SheetBase`` an extension type),
``strategies/alpenzian/point.pxd`` (``Point``, a plan's decision point, one too),
``strategies/alpenzian/prune.pxd`` (``Bounds`` one too, ``_area`` and ``scores`` C functions),
``sim/lazy.pxd`` (``lazy``, the lazy observations' field descriptor, one too),
``sim/games/traders_of_osaka/engine.pxd`` (C-typed locals in the legal-action scans) and
``sim/seeding.pxd`` (``stream_seeds`` in C unsigned 64-bit arithmetic). prune's ``.pxd`` cimports
``SheetBase`` and ``Point``: the manifest lists evaluator and point in prune's ``needs``, and prune
runs compiled only while they do. An edited module (a hash that differs), a copy not built (no C
compiler, no Cython) or ``BOARDSIM_PURE=1`` in the environment: the ``.py`` is imported as usual.
Either way a game plays the same moves (``tests/test_speed_pins.py`` runs on both). Standard library
only; installed by ``sim/__init__.py`` before any submodule loads.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

# The modules each game's playing path spends its time in (docs/speed.md, round eleven). Modules
# that define pydantic models with methods stay Python: pydantic takes a compiled method for a field.
MODULES = (
    "sim.lazy",
    "sim.play",
    "sim.seeding",
    "sim.setup",
    "sim.games.traders_of_osaka.engine",
    "sim.games.traders_of_osaka.observation",
    "sim.games.taiwan_formosa.engine",
    "sim.games.taiwan_formosa.observation",
    "sim.games.xanadu.engine",
    "sim.games.xanadu.observation",
    "sim.games.alpenzian.engine",
    "sim.games.alpenzian.observation",
    "sim.games.alpenzian.scoring",
    "sim.games.forwarder_of_xanadu.engine",
    "sim.games.forwarder_of_xanadu.observation",
    "strategies.common",
    "strategies.search",
    "strategies.traders_of_osaka.model",
    "strategies.traders_of_osaka.expert",
    "strategies.taiwan_formosa.expert",
    "strategies.xanadu.expert",
    "strategies.forwarder_of_xanadu.expert",
    "strategies.taiwan_formosa.helpers",
    "strategies.taiwan_formosa.planner",
    "strategies.xanadu.helpers",
    "strategies.xanadu.plans",
    "strategies.alpenzian.expert",
    "strategies.alpenzian.counts",
    "strategies.alpenzian.derive",
    "strategies.alpenzian.evaluator",
    "strategies.alpenzian.planner",
    "strategies.alpenzian.point",
    "strategies.alpenzian.prune",
    "strategies.alpenzian.tracks",
    "strategies.alpenzian.turn",
    "strategies.alpenzian.units",
    "strategies.forwarder_of_xanadu.goals",
    "strategies.forwarder_of_xanadu.planner",
    "strategies.forwarder_of_xanadu.plans",
)
DIR = Path(__file__).resolve().parent / "_compiled"
MANIFEST = DIR / "manifest.json"
PURE_ENV = "BOARDSIM_PURE"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # this Python's own ABI tag, e.g. .cpython-311-x86_64-linux-gnu.so


def source_hash(path: Path) -> str:
    """SHA-256 (hex, 64 characters) of a source file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_copy(module_file: str) -> bool:
    """Whether a module's ``__file__`` is its compiled copy (for a module whose loops run as C there
    and as built-ins in Python: ``strategies/alpenzian/counts.py``, ``derive.py``)."""
    return module_file.endswith(SUFFIX)


def read_manifest(path: Path = MANIFEST) -> dict[str, dict[str, str]]:
    """``{module: {"file": name of the .so in DIR, "sha256": hash of the source it was built from,
    "size": of the .so, "needs": modules it was compiled against, ...}}`` (``tools/build_compiled.py``
    writes it); ``{}`` when nothing was built or it cannot be read (the modules then run as Python)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class Finder(importlib.abc.MetaPathFinder):
    """Serves a module of the manifest from its compiled copy when the copy's source hash equals
    the hash of the ``.py`` the usual finders would import; otherwise defers to them (None)."""

    def __init__(self, built: dict[str, dict[str, str]], folder: Path = DIR):
        self.built, self.folder = built, folder

    def find_spec(self, name, path=None, target=None):
        so = self.current(name, path)
        if so is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, str(so))
        return importlib.util.spec_from_file_location(name, so, loader=loader)

    def current(self, name: str, path=None) -> Path | None:
        """The compiled copy to import for module ``name`` (``path``: its package's ``__path__``), or
        None: not in the manifest, not built or built for another Python (its ABI tag), built from
        other source bytes (edited since), or compiled against a sibling (``needs``, a ``cimport``)
        that is not current itself."""
        entry = self.built.get(name)
        if not isinstance(entry, dict):
            return None
        file = str(entry.get("file", ""))
        so = self.folder / file
        if Path(file).name != file or not file.endswith(SUFFIX) or not so.is_file() \
                or so.stat().st_size != entry.get("size", -1):
            return None  # not built, built for another Python, cut short, or a name outside the folder
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not spec.origin:
            return None
        try:
            if source_hash(Path(spec.origin)) != entry.get("sha256"):
                return None  # edited since it was built: the .py is the truth
        except OSError:
            return None
        if not all(self.current(need, path) for need in entry.get("needs", ())):
            return None  # a sibling it was compiled against runs as Python: so does it
        return so


def _pure() -> bool:
    """``BOARDSIM_PURE`` set to anything but ``""``/``0``."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def _installed() -> Finder | None:
    return next((f for f in sys.meta_path if isinstance(f, Finder)), None)


def install() -> Finder | None:
    """Put the finder first on ``sys.meta_path`` (once); None when ``BOARDSIM_PURE`` is set or
    nothing was built."""
    if _pure():
        return None
    if (finder := _installed()) is not None:
        return finder
    built = read_manifest()
    if not built:
        return None
    finder = Finder(built)
    sys.meta_path.insert(0, finder)
    return finder


def status() -> str:
    """One line for ``sim bench``: how many of ``MODULES`` run compiled in this process, and which not."""
    if _pure():
        return f"pure Python ({PURE_ENV} is set)"
    finder = _installed()
    if finder is None:
        return "pure Python (compiled modules not built: make install)"
    stale = [m for m in MODULES if finder.current(m, _parent_path(m)) is None]
    if not stale:
        return f"compiled modules: all {len(MODULES)}"
    named = ", ".join(stale[:3]) + (f" and {len(stale) - 3} more" if len(stale) > 3 else "")
    return (f"compiled modules: {len(MODULES) - len(stale)} of {len(MODULES)}; as Python: {named} "
            "(edited since the build, or not built: make install rebuilds them)")


def _parent_path(name: str):
    parent = name.rpartition(".")[0]
    return importlib.import_module(parent).__path__ if parent else None
