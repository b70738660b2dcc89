"""The layers of docs/DESIGN.md, checked from the code's own imports, and the redesign's promise
that results did not change.

Layers, from the ground up (a module may import its own layer and the layers below it):
ground (sim.api, sim.lazy, sim.compiled, sim.seeding, sim.data, sim.forking, sim.parquet, sim) < games < strategies < registry < play < store
< config < analysis < runs < cli. Within ``sim.runs`` only ``fixed`` (the base) and ``cluster``
(its backend) may be imported by the other ways to run.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["ground", "games", "strategies", "registry", "play", "store", "config", "analysis", "runs", "cli"]


def layer(module: str) -> str:
    """The layer of a module of ``sim`` or ``strategies``."""
    if module.startswith("strategies"):
        return "strategies"
    parts = module.split(".")
    if module in ("sim", "sim.api", "sim.lazy", "sim.compiled", "sim.seeding", "sim.data", "sim.forking", "sim.parquet", "sim.__main__"):
        return "cli" if module == "sim.__main__" else "ground"
    head = parts[1]
    return {"games": "games", "registry": "registry", "play": "play", "store": "store", "integrity": "store", "locks": "store", "chunking": "store", "concat": "store",
            "config": "config",
            "analysis": "analysis", "runs": "runs", "cli": "cli", "fuzz": "runs", "setup": "play", "replay": "play", "limits": "play"}[head]


@functools.cache  # parsed when a test first asks, not at collection in every xdist worker
def project_imports() -> dict[str, set[str]]:
    """Module -> the project modules it imports (relative imports resolved)."""
    out = {}
    for path in sorted([*ROOT.joinpath("sim").rglob("*.py"), *ROOT.joinpath("strategies").rglob("*.py")]):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts[:-1]) if rel.name == "__init__" else list(rel.parts)
        name = ".".join(parts)
        pkg = parts if rel.name == "__init__" else parts[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = pkg[: len(pkg) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                found |= {mod} | {f"{mod}.{a.name}" for a in node.names}
        out[name] = {m for m in found if m.split(".")[0] in ("sim", "strategies")}
    return out



def _real(target: str) -> str:
    """``sim.analysis.stats.wilson`` -> ``sim.analysis.stats`` (the longest known module prefix)."""
    while target and target not in project_imports():
        target = target.rpartition(".")[0]
    return target


def test_no_import_runs_from_a_lower_layer_to_a_higher_one():
    wrong = []
    for mod, targets in project_imports().items():
        for t in filter(None, map(_real, targets)):
            if ORDER.index(layer(t)) > ORDER.index(layer(mod)):
                wrong.append(f"{mod} ({layer(mod)}) imports {t} ({layer(t)})")
    assert not wrong, "\n".join(wrong)


def test_games_strategies_analysis_and_runs_keep_their_own_rules():
    wrong = []
    for mod, targets in project_imports().items():
        real = set(filter(None, map(_real, targets)))
        if mod.startswith("sim.games."):  # a game imports the ground and its own package only
            own = ".".join(mod.split(".")[:3])
            wrong += [f"{mod} -> {t}" for t in real if layer(t) != "ground" and not t.startswith(own)]
        if mod.startswith("strategies"):  # observations and actions only, never a state or engine
            wrong += [f"{mod} -> {t}" for t in real if t.startswith("sim.games.")
                      and t.rsplit(".", 1)[-1] not in ("actions", "observation") and t.count(".") > 2]
        if mod.startswith("sim.analysis"):  # report, charts and findings never import config, play or runs
            wrong += [f"{mod} -> {t}" for t in real if layer(t) in ("config", "play", "runs", "registry")]
        if mod.startswith(("sim.store", "sim.integrity", "sim.locks", "sim.chunking", "sim.concat")):  # the store layer: the ground and itself
            wrong += [f"{mod} -> {t}" for t in real if layer(t) not in ("ground",)
                      and t not in ("sim.integrity", "sim.locks", "sim.chunking", "sim.concat")]
        if mod.startswith("sim.runs.") and mod not in ("sim.runs.fixed",):  # no way to run imports another
            wrong += [f"{mod} -> {t}" for t in real if t.startswith("sim.runs.")
                      and t not in ("sim.runs.fixed", "sim.runs.cluster", "sim.runs")]
    assert not wrong, "\n".join(wrong)


@pytest.mark.integration
def test_tables_are_those_of_the_code_before_the_redesign(tmp_path):
    """Behaviour unchanged by the layered redesign (issue 15). The hashes were written from the code
    as it stood before the redesign (commit f012284, `sim/runner.py` era), by running
        sim run configs/traders_of_osaka/random4.yaml --games 300 --seed 15 --jobs 2 --out X
    and hashing each table as newline-delimited JSON of its rows in file order
    (``hashlib.sha256(df.write_ndjson().encode())``), restricted to the columns that existed then.
    Random players only, so later strategy fixes do not move it; an engine change that alters Osaka's
    random play must update it and say why."""
    from sim.config import load_config
    from sim.runs.fixed import run

    rc = load_config(ROOT / "configs/traders_of_osaka/random4.yaml", {"games": 300, "seed": 15, "jobs": 2})
    run(rc, tmp_path / "o", progress=False)
    expected = {
        "games": (["game_index", "n_decisions", "truncated", "failed", "n_winners", "winners", "turns", "rounds",
                   "payments", "sinkings", "reshuffles"],
                  "2eef38a928a60b4422ae2a05bb55eb923faf68038332c231f11c054296a12995"),
        "players": (["game_index", "seat", "strategy", "score", "rank", "won", "achievement_tokens", "goods_bought",
                     "purchases", "goods_sunk", "goods_insured", "payments_scored"],
                    "479c92aa1b64ebdf37fdc97953d8e7c5034dfef16a9b14347ee1dd6c2821f41f"),
    }
    for table, (columns, digest) in expected.items():
        df = pl.read_parquet(tmp_path / "o" / f"{table}.parquet")
        if table == "games":  # since session 5 `turns` counts the game-ending turn (a stall ends between turns):
            before = pl.col("turns") - (pl.col("end_reason") != "stalled").cast(pl.Float64)  # the count of then
            df = df.with_columns(turns=before, rounds=(-(-before // 4)))  # random4.yaml: 4 players
        df = df.select(columns)
        assert hashlib.sha256(df.write_ndjson().encode()).hexdigest() == digest, table


@pytest.mark.integration
def test_installed_sim_works_from_a_folder_with_its_own_strategies_package(tmp_path):
    """The distribution's top-level ``strategies`` package must not be shadowed by (nor shadow) a
    designer's own ``strategies/`` folder in the working directory."""
    mine = tmp_path / "strategies"
    mine.mkdir()
    (mine / "__init__.py").write_text("raise ImportError('the designer strategies package was imported')\n")
    (mine / "mine.py").write_text("class Last:\n    def choose(self, obs, legal, rng):\n        return legal[-1]\n")
    sim = Path(sys.executable).with_name("sim")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([str(sim), "list", "strategies"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "osaka.trader" in out.stdout and "designer strategies" not in out.stderr
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 4\nseed: 1\nstrategies: [{name: random}, {name: osaka.trader}]\n")
    res = subprocess.run([str(sim), "run", "c.yaml", "--out", "o", "--quiet"], cwd=tmp_path, capture_output=True,
                         text=True, env=env)
    assert res.returncode == 0, res.stderr
    assert pl.read_parquet(tmp_path / "o" / "players.parquet").height == 8
