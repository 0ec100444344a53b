# Two entry points, both safe on a fresh machine (they create .venv first):
#   make demo  - install and run a short bot tournament that prints a results table
#   make test  - install with the test, training, benchmark and analysis extras and run the test suite
#   make test-ray - add the [ray] extra (Ray, RLlib) and run only the tests marked ray (kept out of make test's install)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

.PHONY: install install-test demo test test-ray lint docs
COMPILE_NOTE := @echo "installing wayfarers: the first install compiles the engine with Cython (2-3 minutes; later ones only edited modules; WAYFARERS_COMPILE=0 installs plain Python)"

install: $(BIN)/python
	$(COMPILE_NOTE)
	$(BIN)/pip install -q -e .

install-test: $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(COMPILE_NOTE)
	$(BIN)/pip install -q -e ".[dev,train,bench,analysis]"

demo: install
	$(BIN)/wayfarers simulate --players journal,astronomer,cartographer,random --games 24 --seed 1 --workers 2

test: install-test
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup

test-ray: install-test
	$(BIN)/pip install -q -e ".[ray]"
	$(BIN)/python -m pytest -q -m ray

lint: install-test
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy

docs: install
	$(BIN)/python -m wayfarers_env.docs actions > docs/ACTIONS.md
	$(BIN)/python -m wayfarers_env.docs observation > docs/OBSERVATION.md
