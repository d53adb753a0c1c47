# Two commands on a fresh machine: `make run` (set up, start the game) and
# `make test` (set up with the dev tools, run every test and check).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
# Modules mypyc compiles, and the solver's C kernel (keep in step with setup.py);
# rebuilt when they change.
COMPILED_SOURCES := src/spades/core/cards.py src/spades/core/hand.py src/spades/core/scoring.py src/spades/core/seats.py \
	src/spades/core/view.py src/spades/solver/dds.py src/spades/solver/_kernel.c \
	src/spades/bots/knowledge/play.py src/spades/bots/knowledge/memory.py \
	src/spades/bots/knowledge/learned_bidding.py src/spades/bots/knowledge/features.py \
	src/spades/bots/knowledge/bidding.py src/spades/bots/search/inference.py \
	src/spades/bots/search/sampler.py src/spades/bots/search/playouts.py src/spades/bots/search/_playout.c src/spades/bots/valuation.py \
	src/spades/rl/tracker.py src/spades/rl/_observations.c src/spades/storage/_sigbus.c
COMPILED_STAMP := build/.compiled

.PHONY: run test lint typecheck unit bench clean screenshots

# The web game: open http://127.0.0.1:8000 and play as South (`spades play` is the terminal game).
run: $(COMPILED_STAMP)
	$(VENV)/bin/spades serve

test: lint typecheck unit

$(INSTALLED): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=77" wheel  # setup.py build_ext below needs them
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@
	@# The editable install compiled everything in place: the stamp says so, and is
	@# touched last, or a clock tick between the two touches made the stamp look
	@# older than the install and compiled it all again (two minutes in CI).
	@mkdir -p build && touch $(COMPILED_STAMP)

# Editing a compiled module makes its .so stale: rebuild it in place.
$(COMPILED_STAMP): $(INSTALLED) $(COMPILED_SOURCES)
	$(PY) setup.py --quiet build_ext --inplace
	@mkdir -p build && touch $@

lint: $(INSTALLED)
	$(VENV)/bin/ruff check src tests benchmarks tools
	$(VENV)/bin/ruff format --check src tests benchmarks tools

typecheck: $(INSTALLED)
	$(VENV)/bin/mypy

# A test module to a worker (its browser and server start once there), the longest
# modules first (tests/durations.json, read by tests/conftest.py; not xdist's order).
# One worker more than cores: much of a test is waiting on a server or a browser,
# and the extra worker fills that time (docs/performance.md, "The test suite").
# Compiled files are kept even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): every server, bot process and command the tests
# start would otherwise compile the game's source again.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
unit: $(COMPILED_STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# Pictures of the web game (the first screen, bidding, mid-hand, hand summary, score sheet, phone, last trick,
# claim, statistics, new game, records, replay, hand review, light theme, a table with
# friends, the daily challenge) in docs/screenshots.
screenshots: $(COMPILED_STAMP)
	SPADES_SCREENSHOTS=docs/screenshots $(PY) -m pytest -q tests/server/play/test_browser.py \
		tests/server/play/test_browser_first_hour.py \
		tests/server/play/test_browser_play_features.py tests/server/records/test_browser_records.py \
		tests/server/play/test_browser_house_rules.py tests/server/tables/test_browser_tables.py \
		tests/server/challenge/test_browser_challenge.py

bench: $(COMPILED_STAMP)
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) build src/spades/core/*.so src/spades/solver/*.so src/spades/bots/*.so \
		src/spades/bots/*/*.so src/*.so src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
