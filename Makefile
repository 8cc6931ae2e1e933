# `make` sets everything up (virtualenv, install, tables); `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: all install tables strength abstraction test test-fast test-asan lint docs bench bench-peers bundle wheel c-reader clean

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

# The whole suite, in two lanes, one per core. The tests are grouped like
# the code (tests/<folder> for twoplustwo/<folder>). The first lane runs the
# runtime's tests, its doctests and the README on the default backend (C
# where it was built). The second runs the hands and odds tests again on the
# numpy reference path, then the builder's tests and the house rules, then
# PORTABLE_TESTS on the portable paths; its report follows the first's.
RUNTIME_TESTS := README.md twoplustwo tests/vocab tests/tables tests/kernels tests/hands tests/odds tests/abstraction tests/cli \
	tests/spec
# Not the preflop tables' module: they rank hands with the walker method the
# other tests hold both backends to (tests/kernels/test_reference.py), and all
# 169 classes once more on the reference would take a minute of this lane.
# Nor the tests that run no kernel of either backend, which the first lane
# runs alike: HandRanks.dat is written from the arrays and read back with
# numpy (twoplustwo/hands/handranks.py), every --dask address they try fails
# before any work, and parse_cards is plain Python.
NUMPY_TESTS := twoplustwo tests/hands tests/odds tests/abstraction --ignore=tests/odds/test_preflop.py \
	--ignore=tests/hands/test_handranks.py --ignore=tests/odds/test_dask.py --deselect tests/hands/test_fuzz.py::test_parse_cards
# The bucket tables' tests run in the first lane, and the house rules (the
# shape of both distributions, their wheels built) in the second: so the
# lanes take about as long.
BUILDER_TESTS := builder tests/builder --ignore=tests/builder/test_abstraction.py
ABSTRACTION_TESTS := tests/builder/test_abstraction.py
HOUSE_TESTS := tests/house
# Loading, publishing, first-use installs and pages, single hands and
# batches, once more on the portable stand-ins for mmap, flock and page
# advice (twoplustwo/tables/system.py) that systems without the POSIX calls use.
PORTABLE_TESTS := tests/tables/test_tables.py tests/tables/test_publish.py tests/tables/test_pages.py \
	tests/tables/test_readers.py tests/tables/test_first_use.py tests/hands/test_evaluate.py \
	tests/kernels/test_many_users.py
# The readers' race against a publisher looping as fast as it can: a reader
# starved of CPU for tens of milliseconds by the other lane loses it (it reads
# the manifest at most 5 times, as the spec says), so it runs alone, last.
RACE_TEST := tests/tables/test_readers.py::test_readers_never_fail_against_a_publisher_loop
test: tables
	@log=$$(mktemp); \
	( TWOPLUSTWO_BACKEND=numpy $(PY) -m pytest -q -p no:cacheprovider -m "not slow" $(NUMPY_TESTS); n=$$?; \
	  $(PY) -m pytest -q -p no:cacheprovider $(BUILDER_TESTS) $(HOUSE_TESTS); b=$$?; \
	  echo "== second lane, last: the table set, single hands and batches on the portable paths (TWOPLUSTWO_PORTABLE=1) =="; \
	  TWOPLUSTWO_PORTABLE=1 $(PY) -m pytest -q -p no:cacheprovider -m "not slow" $(PORTABLE_TESTS); p=$$?; \
	  test $$n -eq 0 && test $$b -eq 0 && test $$p -eq 0 ) > $$log 2>&1 & second=$$!; \
	$(PY) -m pytest -q $(RUNTIME_TESTS) $(ABSTRACTION_TESTS) --deselect $(RACE_TEST); first=$$?; \
	wait $$second; s=$$?; \
	echo "== second lane: tests/hands and tests/odds on the numpy backend (TWOPLUSTWO_BACKEND=numpy), then the builder's tests and tests/house =="; \
	cat $$log; rm -f $$log; \
	echo "== then alone: readers against a publisher loop =="; \
	$(PY) -m pytest -q -p no:cacheprovider $(RACE_TEST); r=$$?; \
	test $$first -eq 0 && test $$s -eq 0 && test $$r -eq 0

# The C core built with -fsanitize=address,undefined, exercised in a child Python.
test-asan: tables
	$(PY) -m pytest -q tests/kernels/test_backends.py -k "sanitizers or compiles"

# Everything but the tests marked slow: a quick check while editing.
test-fast: tables
	$(PY) -m pytest -q -m "not slow"

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
	$(PY) -m twoplustwo_builder.bundle

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
