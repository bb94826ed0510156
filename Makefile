# SIBOL console. `make run` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(PY) -m flask --app wsgi
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 2
export HOST PORT

PY_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
MANIFEST := sibol/static/dist/manifest.json
ISLAND_SOURCES := $(shell find static_src -type f 2>/dev/null) vite.config.ts tsconfig.json

.PHONY: run dev test test-py test-js test-db bench lint format migrate seed build deps clean

$(PY_STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit("Python 3.11+ is needed" if sys.version_info < (3, 11) else 0)'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(NODE_STAMP): package-lock.json package.json
	@node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' || (echo "Node 20.19+ is needed"; exit 1)
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(MANIFEST): $(NODE_STAMP) $(ISLAND_SOURCES)
	npm run --silent build

deps: $(PY_STAMP) $(NODE_STAMP)

build: $(MANIFEST)

migrate: $(PY_STAMP)
	$(FLASK) db upgrade heads

seed: $(PY_STAMP)
	$(FLASK) setup

# The e-mail queue's consumer runs beside gunicorn and stops with it.
run: deps build seed
	@echo "SIBOL console on http://$(HOST):$(PORT)"
	trap 'kill 0' EXIT; $(VENV)/bin/huey_consumer sibol.tasks.huey --workers 2 --worker-type thread & \
	$(VENV)/bin/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) --access-logfile - wsgi:app

dev: deps seed
	@echo "Flask on http://$(HOST):$(PORT) with the Vite dev server (HMR)"
	trap 'kill 0' EXIT; npm run dev & $(VENV)/bin/huey_consumer sibol.tasks.huey --workers 1 & \
	$(FLASK) run --debug --host $(HOST) --port $(PORT)

test: deps build
	$(PY) -m pytest
	npm test --silent

test-py: deps build
	$(PY) -m pytest

test-js: $(NODE_STAMP)
	npm test --silent

# The database-facing tests again, on the database named by SIBOL_TEST_DATABASE_URL.
test-db: deps build
	@test -n "$$SIBOL_TEST_DATABASE_URL" || (echo "Set SIBOL_TEST_DATABASE_URL (mysql://...)"; exit 2)
	$(PY) -m pytest -m "not browser" tests/unit tests/api

bench: deps build
	$(PY) bench/run.py

lint: deps
	$(VENV)/bin/ruff check sibol tests bench wsgi.py
	npm run --silent typecheck

format: deps
	$(VENV)/bin/ruff format sibol tests bench wsgi.py
	$(VENV)/bin/ruff check --fix sibol tests bench wsgi.py

clean:
	rm -rf sibol/static/dist sibol/static/hot .pytest_cache
