# Fresh machine: `make demo` and `make test` are all you need.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=  # extra pytest options, e.g. PYTEST_ARGS="--junitxml=reports/junit.xml"

.PHONY: install demo test test-fast test-slow lint bench bench-fast bench-cli fuzz clean

$(BIN)/sim: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,compiled]'
	touch $(BIN)/sim

# the hot modules compiled with Cython into sim/_compiled (sim/compiled.py; 1-2 minutes on 2 cores the
# first time, about 3 CPU-s a changed module later); without a C compiler they run as Python
install: $(BIN)/sim
	$(BIN)/python tools/build_compiled.py || echo "(going on: the modules not built run as Python)"

demo: install
	$(BIN)/sim run configs/traders_of_osaka/baseline.yaml --out reports/demo --force

# the machines set PYTHONDONTWRITEBYTECODE=1: then every xdist worker rewrites and compiles every
# test module, and every `python -m sim` child and pool worker compiles the project's modules again
# (about 0.2-0.3 CPU-s a process); the tests write bytecode (__pycache__ is git-ignored)
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n 2 --dist loadgroup

# CI runs `make test` (.ci/run): every test but the nightly `slow` ones, on 2 processes (pytest-xdist)
test: install
	$(PYTEST) -m "not slow" $(PYTEST_ARGS)

# while editing: unit and conformance tests of every module, no whole runs (under a minute)
test-fast: install
	$(PYTEST) -m "not slow and not integration" $(PYTEST_ARGS)

# nightly (docs/ci/nightly-slow.yml): the long runs at full statistical power
test-slow: install
	$(PYTEST) -m slow $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check sim strategies tests

# benchmark suite (benchmarks/, pytest-benchmark; never part of `make test`): every engine with random
# players and every configs/<game>/baseline.yaml; each run is saved in benchmarks/results and compared
# with the committed baseline (0001_baseline.json): a regression shows as a ratio, never as a failure
BENCH := $(BIN)/python -m pytest benchmarks -p no:cacheprovider -p no:xdist --benchmark-storage=benchmarks/results \
	--benchmark-autosave --benchmark-compare=0001 --benchmark-timer=time.process_time --benchmark-columns=min,median,rounds \
	--benchmark-sort=name --benchmark-group-by=func
bench: install
	nice -n 10 $(BENCH)

# the fast part (random players only), as CI runs it
bench-fast: install
	nice -n 10 $(BENCH) -m "not baseline"

# the same figures through the CLI: one core, random strategies, every game at its largest player count
bench-cli: install
	for g in $$($(BIN)/sim list games | cut -d' ' -f1); do $(BIN)/sim bench $$g --games 1000; done

# nightly: 100,000 random games per engine with invariant checks; failing seeds in reports/fuzz/
fuzz: install
	$(BIN)/python -m sim.fuzz --games 100000

clean:
	rm -rf $(VENV) reports/*/ sim/_compiled
