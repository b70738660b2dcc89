"""Build the compiled copies of ``sim.compiled.MODULES`` into ``sim/_compiled`` (issue 20).

    python tools/build_compiled.py [--jobs N] [--force]

Each module's ``.py`` is compiled unchanged by Cython and the C compiler, with the augmenting
``.pxd`` beside it when there is one (C types of its classes and functions: ``sim.compiled`` names
them); a module whose source hash and settings (the ``.pxd`` files of its package among them)
already match the manifest is skipped, so a second run costs a fraction of a second. A copy
is moved into place by a rename, so a process still running the old one keeps it. Exit 0 when
every module is built, 1 when Cython or the compiler failed (the modules left out run as Python,
which plays the same games more slowly); the Makefile reports that and goes on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["BOARDSIM_PURE"] = "1"  # importing sim.compiled must not load the old copies

from sim.compiled import DIR, MANIFEST, MODULES, SUFFIX, read_manifest, source_hash  # noqa: E402

# annotations are documentation in most modules: Cython would otherwise check ``list``, ``dict``...
# at run time, and a tuple passed for a ``list`` would fail a game that plays in Python
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
# the Alpenzian plans' annotations are exact (their tests and pins pass compiled with them) and
# typed arguments buy about 1.15x there (docs/speed.md, round eleven); not the engine's modules,
# whose methods a plugin strategy calls (an int annotation read as a C long takes 1.5 as 1, where
# Python raises: breaker trial, session 11)
TYPED = ("strategies.alpenzian.",)


def _rel(module: str, suffix: str = ".py") -> Path:
    """A module's source (or ``.pxd``) path relative to the project root: ``sim/play.py``."""
    return Path(*module.split(".")).with_suffix(suffix)


def _pxd(module: str) -> Path:
    return ROOT / _rel(module, ".pxd")


def _copy_path(module: str) -> Path:
    """Where a module's compiled copy lives (the name the manifest records)."""
    return DIR / (module + SUFFIX)


# modules whose augmenting ``.pxd`` declares C signatures of functions and methods: Cython refuses a
# signature whose annotations differ from the ``.pxd``, so their annotations are not read as types
SIGNED = ("strategies.alpenzian.point", "strategies.alpenzian.prune")


def typed(module: str) -> bool:
    """Whether Cython reads the module's annotations as C types: the Alpenzian modules (``TYPED``) but
    those of ``SIGNED``."""
    return module.startswith(TYPED) and module not in SIGNED


def settings(module: str) -> str:
    """What else a copy depends on: the Cython version, the module's directives and the augmenting
    ``.pxd`` files of its package (the C types of classes and functions; ``pxd=-`` when there are none)."""
    import Cython

    # a module's own .pxd, and the package's others (a .pxd may ``cimport`` a sibling's)
    pxds = sorted(_pxd(module).parent.glob("*.pxd"))
    pxd_hash = hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in pxds)).hexdigest()[:16] \
        if pxds else "-"
    return f"Cython {Cython.__version__}, annotation_typing={typed(module)}, pxd={pxd_hash}"


def needs(module: str) -> list[str]:
    """The modules of ``MODULES`` that the module's ``.pxd`` cimports (compiled against their layout:
    ``sim.compiled`` serves the module only while they run compiled too)."""
    pxd = _pxd(module)
    text = pxd.read_text() if pxd.is_file() else ""
    return [m for m in MODULES if re.search(rf"^\s*(from\s+{re.escape(m)}\s+cimport|cimport\s+{re.escape(m)}\b)",
                                             text, re.M)]


def stale(manifest: dict) -> list[str]:
    """The modules whose compiled copy is missing, damaged (its bytes differ from the build's), built
    for another Python, or built from other source bytes or settings."""
    out = []
    for m in MODULES:
        entry = manifest.get(m)
        entry = entry if isinstance(entry, dict) else {}
        so, src = _copy_path(m), ROOT / _rel(m)
        if entry.get("file") != so.name or not so.is_file() or entry.get("so_sha256") != source_hash(so) \
                or entry.get("sha256") != source_hash(src) or entry.get("settings") != settings(m):
            out.append(m)
    return out


def _sources(modules: list[str], to: Path) -> dict[str, str]:
    """Copy what Cython reads (each module's ``.py``, its packages' ``__init__.py`` and ``.pxd``
    files) to ``to``; ``{module: hash of the copied source}``, the very bytes compiled (a file edited
    during the build cannot get a copy recorded under another source's hash: breaker trial)."""
    hashes = {}
    for m in modules:
        rel = _rel(m)
        for d in rel.parents[:-1]:
            for f in [ROOT / d / "__init__.py", *(ROOT / d).glob("*.pxd")]:
                (to / f.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, to / f.relative_to(ROOT))
        shutil.copyfile(ROOT / rel, to / rel)
        hashes[m] = source_hash(to / rel)
    return hashes


def _progress(total: int):
    """setuptools' ``build_ext`` printing ``[k/total] module`` as each module is compiled (a fresh
    install compiles for minutes: fresh-user trial, session 12); its ``--parallel`` threads share the count."""
    import threading

    from setuptools.command.build_ext import build_ext

    done, lock = [0], threading.Lock()

    class Progress(build_ext):
        def build_extension(self, ext):
            super().build_extension(ext)
            with lock:
                done[0] += 1
                print(f"  [{done[0]}/{total}] {ext.name}", flush=True)

    return Progress


def build(modules: list[str], jobs: int) -> dict[str, str]:
    """Compile ``modules`` in a temporary folder; ``{module: source hash}`` of those built."""
    from Cython.Build import cythonize
    from setuptools import Distribution

    # -O1: as fast as -O2/-O3 on Cython's output here and half the compile time (docs/speed.md)
    os.environ["CFLAGS"] = os.environ.get("CFLAGS", "") + " -O1 -g0 -w"
    with tempfile.TemporaryDirectory() as tmp:
        src, lib = Path(tmp, "src"), Path(tmp, "lib")
        hashes = _sources(modules, src)
        os.chdir(src)
        exts = []
        for kind in (False, True):
            group = [str(_rel(m)) for m in modules if typed(m) == kind]
            if group:
                exts += cythonize(group, compiler_directives={**DIRECTIVES, "annotation_typing": kind},
                                  build_dir=str(Path(tmp, "c")), nthreads=jobs, quiet=True)
        print(f"  C code written; compiling {len(exts)} module(s) ...", flush=True)
        dist = Distribution({"ext_modules": exts, "script_name": "build_compiled", "cmdclass": {"build_ext": _progress(len(exts))},
                             "script_args": ["-q", "build_ext", "--build-lib", str(lib), "--build-temp", str(Path(tmp, "o")),
                                             "--parallel", str(jobs)]})
        dist.parse_command_line()
        dist.run_commands()
        os.chdir(ROOT)
        DIR.mkdir(exist_ok=True)
        for m in modules:
            part = _copy_path(m).with_name(_copy_path(m).name + ".part")
            shutil.copyfile(lib / _rel(m, SUFFIX), part)
            part.replace(_copy_path(m))
    return hashes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--force", action="store_true", help="rebuild every module")
    args = ap.parse_args()
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("warning: Cython is not installed (pip install -e '.[compiled]'): the hot modules run as "
              "Python, the same games more slowly", file=sys.stderr)
        return 1
    manifest = {} if args.force else read_manifest()
    todo = MODULES if args.force else stale(manifest)
    manifest = {m: e for m, e in manifest.items() if m in MODULES}
    if not todo:
        print(f"compiled modules: all {len(MODULES)} up to date")
        return 0
    print(f"compiling {len(todo)} of {len(MODULES)} modules with Cython (about 3 CPU-s each, both cores) ...")
    try:
        built = build(list(todo), max(1, args.jobs))
    except BaseException as e:  # Cython missing, a compiler error, Ctrl-C: the .py files still run
        print(f"warning: {len(todo)} module(s) not compiled ({type(e).__name__}: {e}); they run as Python, "
              "the same games more slowly", file=sys.stderr)
        return 1
    for m, h in built.items():
        so = _copy_path(m)
        manifest[m] = {"file": so.name, "sha256": h, "settings": settings(m), "needs": needs(m),
                       "size": so.stat().st_size, "so_sha256": source_hash(so)}
    tmp = MANIFEST.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    tmp.replace(MANIFEST)
    print(f"compiled modules: {len(built)} built, all {len(MODULES)} up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
