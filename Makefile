# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Exactly the versions and hashes of requirements.lock (runtime, test and build dependencies; README,
# "Dependencies"), then the project itself with no dependencies of its own choosing.
$(STAMP): $(BIN)/python requirements.lock setup.cfg pyproject.toml
	$(BIN)/pip install --quiet --require-hashes --no-deps -r requirements.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/pip check
	touch $(STAMP)

# After changing the dependencies in setup.cfg (or pyproject.toml's build requirements): pin them again,
# keeping every version already pinned (LOCK_ARGS=--upgrade, or --upgrade-package NAME, to move them).
LOCK_ARGS ?=
lock: $(BIN)/python
	$(BIN)/pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --all-build-deps --extra test --strip-extras \
		--no-emit-index-url --no-emit-find-links $(LOCK_ARGS) -o requirements.lock pyproject.toml

test: $(STAMP)
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m mypy --strict engine
	$(BIN)/python -m pytest -n 2

run: $(STAMP)
	$(BIN)/arena serve

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/store.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/clocks.py
	$(BIN)/python bench/history.py

clean:
	rm -rf $(VENV) var
