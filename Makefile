# One command each: `make test` and `make demo` set themselves up from the lock.
# The interpreter of .venv: Debian's python3.11 when the machine has it (with its venv module), else python3.
# Debian builds it with profile-guided and link-time optimization and links libpython into the binary;
# pyenv's default build does neither, and plays the simulator a tenth to a fifth slower (docs/performance.md).
# Any CPython 3.11+ works: `make clean setup PY=python3`.
SYSTEM_PY := /usr/bin/python3.11
PY ?= $(shell $(SYSTEM_PY) -c 'import ensurepip, venv' >/dev/null 2>&1 && echo $(SYSTEM_PY) || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.synced

export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20

.PHONY: setup chromium test test-all unit property integration infra e2e browser screenshots lint typecheck demo bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml uv.lock
	@test -x $(BIN)/uv || { $(PY) -m venv $(VENV) && $(BIN)/pip install -q --disable-pip-version-check uv==0.13.9; }
	$(BIN)/uv sync --frozen --quiet
	@touch $(STAMP)

# The browser tests drive Debian's Chromium (Playwright's own download is not reachable here).
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

chromium:
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

# Playwright's sync API keeps an event loop running in the process that drives the browser, and the
# local-stack tests call asyncio.run(): the browser tests run in pytest processes of their own, two at once
# (most of a browser test is waiting for a page or a bot: two halve the run).
test: setup chromium lint typecheck
	$(BIN)/pytest -n 2 --ignore=tests/browser
	$(BIN)/pytest -n 2 tests/browser

test-all: setup chromium
	$(BIN)/pytest -n 2 -m "" --ignore=tests/browser
	$(BIN)/pytest -n 2 tests/browser -m ""

unit: setup
	$(BIN)/pytest tests/unit

property: setup
	$(BIN)/pytest tests/property

integration: setup
	$(BIN)/pytest tests/integration

infra: setup
	$(BIN)/pytest tests/infra

e2e: setup
	$(BIN)/pytest tests/e2e

browser: setup chromium
	$(BIN)/pytest -n 2 tests/browser

screenshots: setup chromium
	$(BIN)/python -m tests.browser.screenshots docs/screenshots
	$(BIN)/python -m tests.browser.operator_screenshots docs/screenshots

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy
	$(BIN)/mypy infra/local bench

demo: setup
	$(BIN)/tourney demo

bench: setup
	$(BIN)/tourney bench engine

clean:
	rm -rf $(VENV) cdk.out .pytest_cache .mypy_cache .hypothesis
