"""``sim.compiled.Finder``: a compiled module is served only while the source it was built from is
on disk, and only while every sibling its ``.pxd`` cimports (the manifest's ``needs``) is served too
(a copy compiled against ``SheetBase``'s C layout cannot import the Python class)."""

from __future__ import annotations

from sim.compiled import SUFFIX, Finder, source_hash


def _package(tmp_path):
    pkg = tmp_path / "pkgx"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("A = 1\n")
    (pkg / "b.py").write_text("B = 2\n")
    so = tmp_path / "so"
    so.mkdir()
    (so / ("a" + SUFFIX)).write_bytes(b"")  # this Python's ABI tag, as the build names a copy
    (so / ("b" + SUFFIX)).write_bytes(b"")
    built = {"pkgx.a": {"file": "a" + SUFFIX, "sha256": source_hash(pkg / "a.py"), "size": 0},
             "pkgx.b": {"file": "b" + SUFFIX, "sha256": source_hash(pkg / "b.py"), "needs": ["pkgx.a"], "size": 0}}
    return pkg, Finder(built, so)


def test_a_module_and_what_it_needs_unchanged_are_served_compiled(tmp_path):
    pkg, finder = _package(tmp_path)
    spec = finder.find_spec("pkgx.b", [str(pkg)])
    assert spec is not None and spec.origin.endswith("b" + SUFFIX)


def test_an_edited_module_it_needs_sends_it_back_to_python(tmp_path):
    pkg, finder = _package(tmp_path)
    (pkg / "a.py").write_text("A = 3\n")
    assert finder.find_spec("pkgx.a", [str(pkg)]) is None
    assert finder.find_spec("pkgx.b", [str(pkg)]) is None


def test_an_edited_module_runs_as_python(tmp_path):
    pkg, finder = _package(tmp_path)
    (pkg / "b.py").write_text("B = 4\n")
    assert finder.find_spec("pkgx.b", [str(pkg)]) is None
    assert finder.find_spec("pkgx.a", [str(pkg)]).origin.endswith("a" + SUFFIX)
