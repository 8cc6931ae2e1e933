# `make` sets everything up (virtualenv, install, tables); `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: all install tables test bench clean

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

clean:
	rm -rf $(VENV) tables/*.npy tables/manifest.json tables/.tmp-* dist build *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -prune -exec rm -rf {} +
