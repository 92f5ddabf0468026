# The two commands of the README: `make play` runs the bot, `make test` runs the tests.
# `make test-fast` runs the tests that need no moto, no fake Bot API server and no subprocess.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play test test-fast lint bench bench-bot simulate clean

$(BIN)/activate: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(BIN)/activate

play: $(BIN)/activate
	$(BIN)/decapitation-bot

test: $(BIN)/activate
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest

test-fast: $(BIN)/activate
	$(BIN)/python -m pytest -m "not slow" -n 2

simulate: $(BIN)/activate
	$(BIN)/python -m engine simulate --seats 8 --games 20000 --seed 1

bench: $(BIN)/activate
	$(BIN)/python bench/engine_speed.py

bench-bot: $(BIN)/activate
	$(BIN)/python bench/bot_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
