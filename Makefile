# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench mutation install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/arbiter serve --host 127.0.0.1 --port 8000

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py

# Outside `make test`: each game's rules mutated and checked by that game's tests (long).
mutation: $(STAMP)
	$(BIN)/python bench/mutation.py cyberiad
	$(BIN)/python bench/mutation.py cybermancy

clean:
	rm -rf $(VENV) var .hypothesis
