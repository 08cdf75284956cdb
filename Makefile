# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed
# Debian's chromium-headless-shell: the same Chromium release as Debian's chromium, built as
# the headless shell (the headless mode Playwright itself uses for tests). The full browser's
# headless mode draws and composites its own window frame besides the page: the browser tests
# took 192 s of wall time on 2 workers with it and 119 s with the shell.
CHROMIUM ?= /usr/bin/chromium-headless-shell
CHROMIUM_PACKAGE ?= chromium-headless-shell
# pytest-xdist workers: two a core. The browser, terminal and server tests spend much of their
# time waiting on other processes (Chromium, a server, a bot's paced step), which leaves a core
# idle with fewer: on this 2-core machine the suite's pytest took 205-209 s with three workers
# (the cores 87-90 % busy), 192 s with four (97 %) and 195 s with five (2026-12-07).
# (The suite starts its own PostgreSQL and Redis, tests/services.py.)
WORKERS ?= $(shell $(PYTHON) -c 'import os; print(2 * (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()))')
# Python caches compiled modules (__pycache__, ignored by git): a machine that turns that off
# (PYTHONDONTWRITEBYTECODE, as some CI images do) makes every process the suite starts, and
# each worker's collection, compile the repo and its packages from source again (9 s a worker).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test bench mutation install chromium clean

# uv installs the pinned packages into the venv in a few seconds where pip takes about 40
# (it resolves and unpacks in parallel, and caches across clones); pip fetches uv itself.
UV_VERSION := 0.13.9
UV := $(BIN)/uv pip install --quiet --python $(BIN)/python

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv==$(UV_VERSION)
	$(UV) -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(UV) -e '.[dev,bench]'
	touch $(BENCH_STAMP)

run: $(STAMP)
	$(BIN)/arbiter serve --host 127.0.0.1 --port 8000

# The browser tests drive Debian's Chromium (its headless shell): installed here when missing
# and we may (root with apt-get); otherwise one line says how, and the suite fails rather than
# skip them.
chromium:
	@test -x $(CHROMIUM) || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make test: installing Debian's $(CHROMIUM_PACKAGE) for the browser tests"; \
	    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(CHROMIUM_PACKAGE) >/dev/null; \
	  else \
	    echo "make test: the browser tests need Chromium at $(CHROMIUM): run 'sudo apt-get install $(CHROMIUM_PACKAGE)' (or set CHROMIUM=/path)"; \
	    exit 1; \
	  fi; }

test: $(STAMP) chromium
	ARBITER_CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest -n $(WORKERS) --dist worksteal --durations=10

# Ratios to a floor measured in the same run, then the load scenario (Locust) per store layout.
bench: $(BENCH_STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/action_mix.py
	$(BIN)/python bench/load/run.py

# Outside `make test`: each game's rules mutated and checked by that game's tests (long).
mutation: $(STAMP)
	for game in cyberiad cybermancy cyberspace herocard algomancy cybermen; do \
	  $(BIN)/python bench/mutation.py $$game || exit 1; done

clean:
	rm -rf $(VENV) var .hypothesis
