# Dragonhall: `make run` serves on the embedded default; `make test` runs the whole suite.
# Both create .venv and install into it when needed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell sha1sum pyproject.toml 2>/dev/null | cut -c1-12)
PYTEST_WORKERS ?= 2

.PHONY: run test lint bench clean worker projections

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

run: $(STAMP)
	$(BIN)/dragonhall serve $(ARGS)

test: $(STAMP)
	@sh tests/ensure_packages.sh
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup -q --durations=25 $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

worker: $(STAMP)
	$(BIN)/dragonhall worker $(ARGS)

projections: $(STAMP)
	$(BIN)/dragonhall projections

bench: $(STAMP)
	$(BIN)/python bench/http_load.py $(ARGS)

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis
