# The two commands of the README: `make play` runs the bot, `make test` runs the tests.
# `make test-fast` runs the tests that need no moto, no fake Bot API server and no subprocess.
#
# Both install into one virtual environment from the locks in requirements/: exact versions,
# each file checked against its hash. `make play` installs what the bot needs to run
# (run.txt), `make test` the test tools as well (dev.txt); each records what it installed in a
# stamp file, so either may come first and each installs again only when its lock changes.
# `make lock` refreshes the locks from pyproject.toml (README, "Set-up").
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# -qq: errors only. pip stays quiet about what it installs and about index locations of the
# machine's pip configuration that have nothing to offer; the locks' hashes are PyPI's files,
# so whatever location serves them, the same bytes are installed.
PIP := $(BIN)/python -m pip --disable-pip-version-check
INSTALL_LOCKED := $(PIP) install -qq --require-hashes
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: play test test-fast lint lock bench bench-bot simulate clean

$(VENV)/pyvenv.cfg:
	$(PYTHON) -m venv $(VENV)

# The project itself is installed (editable) without its dependencies, which the lock gave,
# and built by the setuptools of requirements/build.txt rather than one fetched for the build.
$(RUN_STAMP): $(VENV)/pyvenv.cfg requirements/build.txt requirements/run.txt pyproject.toml
	@echo "Installing the bot's packages into $(VENV) (first run only)…"
	@$(INSTALL_LOCKED) -r requirements/build.txt -r requirements/run.txt
	@$(PIP) install --quiet --no-deps --no-build-isolation -e .
	@touch $@

$(DEV_STAMP): $(RUN_STAMP) requirements/dev.txt
	@echo "Installing the test tools into $(VENV) (first run only)…"
	@$(INSTALL_LOCKED) -r requirements/dev.txt
	@touch $@

play: $(RUN_STAMP)
	$(BIN)/decapitation-bot

# The tests keep compiled modules (and pytest's rewritten test modules) under .cache/pycache
# even where PYTHONDONTWRITEBYTECODE is set: recompiling them costs each worker about 11 s of
# collection on every run, and each subprocess a test starts its own compile.
COMPILED = PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/.cache/pycache

test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(COMPILED) $(BIN)/python -m pytest -n auto --dist loadgroup

test-fast: $(DEV_STAMP)
	$(COMPILED) $(BIN)/python -m pytest -m "not slow" -n 2

simulate: $(RUN_STAMP)
	$(BIN)/python -m engine simulate --seats 8 --games 20000 --seed 1

bench: $(DEV_STAMP)
	$(BIN)/python bench/engine_speed.py

bench-bot: $(DEV_STAMP)
	$(BIN)/python bench/bot_speed.py

# Resolves pyproject.toml's dependencies anew, for every platform and Python it allows (the
# Lambda's Python 3.12 on arm64 included), with the hash of every file of each release, from
# PyPI only. Pins that still fit are kept; `make lock UPGRADE=1` takes the newest releases.
# dev.txt is resolved first and run.txt within it, so both hold the same versions.
LOCK = $(BIN)/uv pip compile --quiet --universal --generate-hashes \
	--custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)
BUILD_REQUIRES := import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")

lock: $(VENV)/pyvenv.cfg
	@$(INSTALL_LOCKED) -r requirements/lock-tool.txt
	$(LOCK) pyproject.toml --extra dev -o requirements/dev.txt
	$(LOCK) pyproject.toml --constraint requirements/dev.txt -o requirements/run.txt
	$(BIN)/python -c '$(BUILD_REQUIRES)' | $(LOCK) - -o requirements/build.txt
	echo uv | $(LOCK) - -o requirements/lock-tool.txt

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .cache
