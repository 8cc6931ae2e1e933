# `make` sets everything up (virtualenv, install, tables); `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: all install tables strength abstraction test test-packaging test-fast test-asan lint docs bench bench-peers bundle wheel c-reader clean

all: tables

# Two distributions: the runtime (this folder) and the builder (builder/).
# setuptools and wheel in the venv let tests/house/test_house.py build both wheels offline.
$(STAMP): pyproject.toml builder/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip 'setuptools>=77' wheel
	$(PY) -m pip install --quiet -e '.[test,lint]' -e ./builder
	touch $(STAMP)

install: $(STAMP)

tables: $(STAMP)
	$(PY) -m twoplustwo_builder --if-missing

# Opt-in: the strength tables for poker AI (about a minute, 800 MB), added to the set.
strength: tables
	$(PY) -m twoplustwo_builder --strength

# Opt-in: bucket tables with k = 200 for a solver, flop and turn by EMD, river by OCHS (about 20 minutes;
# the strength tables first, when the set lacks them).
abstraction: tables
	$(PY) -m twoplustwo_builder --abstraction --street flop --method emd --k 200
	$(PY) -m twoplustwo_builder --abstraction --street turn --method emd --k 200
	$(PY) -m twoplustwo_builder --abstraction --street flop --method potential --k 200
	$(PY) -m twoplustwo_builder --abstraction --street river --method ochs --k 200

# The whole suite (pytest's testpaths: the README, the docstrings, tests/),
# spread over the machine's cores by pytest-xdist. Each test of the floors
# that run kernels runs on the C core and on the numpy reference in the
# same session, and the portable paths run in a child pytest
# (tests/conftest.py says which and why). Each worker takes whole modules
# (--dist loadscope), so that a module's fixtures are made once.
# TESTPY caches compiled modules in the venv, whatever $PYTHONDONTWRITEBYTECODE
# says: without it, each worker, each child pytest and each Python a test
# starts compiles every module again, and pytest rewrites every test module
# (6 s of CPU a worker); the tree gets no __pycache__ folders.
TESTPY := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache $(PY)
test: tables
	$(TESTPY) -m pytest -q -n auto --dist loadscope -m "not packaging"

# The tests that build or install a wheel: the checkout's (its build compresses the tables) and the one built
# from the sdist (its tables built from nothing), installed in a fresh virtualenv.
test-packaging: tables
	$(TESTPY) -m pytest -q -m packaging

# The C core built with -fsanitize=address,undefined, exercised in a child Python.
test-asan: tables
	$(PY) -m pytest -q tests/kernels/test_backends.py -k "sanitizers or compiles"

# Everything but the tests marked slow: a quick check while editing.
test-fast: tables
	$(TESTPY) -m pytest -q -n auto --dist loadscope -m "not slow and not packaging"

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

# The API documentation, generated from the docstrings (docs/), into
# docs/_build/html. Sphinx comes from the docs extra, installed into the venv
# once. Every build starts afresh (Sphinx does not notice a changed
# docstring), and a warning fails it: a docstring that renders badly or a
# reference that resolves nowhere (docs/conf.py lists the few it ignores).
DOCS_STAMP := $(VENV)/.docs-installed
$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	rm -rf docs/_build/html docs/_build/doctrees
	$(PY) -m sphinx -q -W --keep-going -b html -d docs/_build/doctrees docs docs/_build/html
	@echo "docs: docs/_build/html/index.html"

bench: tables
	$(PY) -m bench

bench-peers: tables
	$(PY) -m bench.peers

bundle: tables
	$(PY) -m twoplustwo_builder.dag.bundle

# The runtime's wheel in dist/, carrying the table bundle it installs on first
# use: the standard build, as `pip wheel .` makes it anywhere (wheel_tables.py
# bundles tables/, built first here, so it takes seconds), in the venv, which
# holds every build requirement. BUNDLED is where earlier versions of this
# target put the bundle for a while; `make clean` still removes it.
BUNDLED := twoplustwo/tables/bundled
wheel: tables
	$(PY) -m pip wheel --quiet --no-deps --no-build-isolation -w dist .

c-reader:
	$(MAKE) -C examples/c

clean:
	rm -rf $(VENV) .venv-peers twoplustwo/kernels/_core*.so $(BUNDLED) tables/*.npy tables/manifest.json tables/.build-* tables/.lock tables/.publishing dist build *.egg-info builder/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis examples/c/eval docs/_build
	find . -name __pycache__ -prune -exec rm -rf {} +
