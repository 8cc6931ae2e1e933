# `make` sets everything up (virtualenv, install, tables); `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: all install tables test bench bench-peers bundle c-reader clean

all: tables

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[build,test]'
	touch $(STAMP)

install: $(STAMP)

tables: $(STAMP)
	$(PY) -m builder --if-missing

test: tables
	$(PY) -m pytest -q

bench: tables
	$(PY) -m bench

bench-peers: tables
	$(PY) -m bench.peers

bundle: tables
	$(PY) -m builder.bundle

c-reader:
	$(MAKE) -C examples/c

clean:
	rm -rf $(VENV) .venv-peers tables/*.npy tables/manifest.json tables/.build-* tables/.lock dist build *.egg-info .pytest_cache .hypothesis examples/c/eval
	find . -name __pycache__ -prune -exec rm -rf {} +
