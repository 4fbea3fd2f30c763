# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

# Test workers (pytest-xdist): one more than the cores, so that a test waiting for a server to
# start or stop, or for an app to redraw, leaves no core idle (docs/performance.md, the test suite).
TEST_WORKERS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')

# The tests keep Python's compiled bytecode (__pycache__, which git ignores) even where the
# environment asks Python to write none: without it every worker compiled each module of the
# project and rewrote each test module's asserts again, on every run (docs/performance.md).
test test-fast: export PYTHONDONTWRITEBYTECODE =

.PHONY: run test test-fast lint bench serve tui translations clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*; touch $(STAMP)

run: $(STAMP)  ## web app and API on the embedded default, with the demo tasks
	$(BIN)/feedback-studio web

serve: $(STAMP)  ## API only
	$(BIN)/feedback-studio serve

tui: $(STAMP)  ## terminal app
	$(BIN)/feedback-studio tui

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

test: lint  ## the whole suite, in parallel (pytest's exit 5, no tests collected, fails the target)
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

test-fast: lint  ## the inner loop: everything but the tests marked slow (tests/conftest.py: is_slow), in parallel
	$(BIN)/python -m pytest -m "not slow" -n $(TEST_WORKERS)

bench: $(STAMP)  ## every benchmark in bench/, each prints its table (harness.py and echo_app.py are helpers)
	@for b in bench/*.py; do case $$b in bench/harness.py|bench/echo_app.py) continue;; esac; \
		echo "== $$b"; $(BIN)/python $$b || exit 1; done

LOCALE := core/client/locale
translations: $(STAMP)  ## extract the apps' strings, update the catalogues of every language, compile them
	$(BIN)/pybabel extract -F babel.cfg -k _ -k N_ -k plural:1,2 --no-location --sort-output -o $(LOCALE)/studio.pot .
	$(BIN)/pybabel update -i $(LOCALE)/studio.pot -d $(LOCALE) -D studio --width 110 --ignore-obsolete
	$(BIN)/pybabel compile -d $(LOCALE) -D studio --statistics

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
