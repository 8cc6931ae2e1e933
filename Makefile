# `make` sets everything up (virtualenv, install, tables); `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: all install tables test test-fast test-asan lint bench bench-peers bundle c-reader clean

all: tables

# Two distributions: the runtime (this folder) and the builder (builder/).
# setuptools and wheel in the venv let tests/test_house.py build both wheels offline.
$(STAMP): pyproject.toml builder/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip 'setuptools>=77' wheel
	$(PY) -m pip install --quiet -e '.[test,lint]' -e ./builder
	touch $(STAMP)

install: $(STAMP)

tables: $(STAMP)
	$(PY) -m twoplustwo_builder --if-missing

# The whole suite on the C backend (the default where it was built) and, at
# the same time on the other core, the runtime's own tests on the numpy
# reference path (its report follows the first one's).
NUMPY_TESTS := twoplustwo tests/test_runtime.py tests/test_fuzz.py tests/test_tables.py tests/test_process_safety.py \
	tests/test_equity.py tests/test_prefix.py tests/test_exhaustive.py tests/test_omaha.py
test: tables
	@log=$$(mktemp); \
	TWOPLUSTWO_BACKEND=numpy $(PY) -m pytest -q -p no:cacheprovider -m "not slow" $(NUMPY_TESTS) > $$log 2>&1 & numpy=$$!; \
	$(PY) -m pytest -q; c=$$?; \
	wait $$numpy; n=$$?; \
	echo "== the same runtime tests on the numpy backend (TWOPLUSTWO_BACKEND=numpy) =="; cat $$log; rm -f $$log; \
	test $$c -eq 0 && test $$n -eq 0

# The C core built with -fsanitize=address,undefined, exercised in a child Python.
test-asan: tables
	$(PY) -m pytest -q tests/test_backends.py -k "sanitizers or compiles"

# Everything but the tests marked slow: a quick check while editing.
test-fast: tables
	$(PY) -m pytest -q -m "not slow"

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

bench: tables
	$(PY) -m bench

bench-peers: tables
	$(PY) -m bench.peers

bundle: tables
	$(PY) -m twoplustwo_builder.bundle

c-reader:
	$(MAKE) -C examples/c

clean:
	rm -rf $(VENV) .venv-peers twoplustwo/_core*.so tables/*.npy tables/manifest.json tables/.build-* tables/.lock tables/.publishing dist build *.egg-info builder/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis examples/c/eval
	find . -name __pycache__ -prune -exec rm -rf {} +
