# Development and CI entry points. The venv's binaries are called by path: no activation needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv install node messages lint test migrate organiser demo run serve backup clean

venv: $(BIN)/python

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip

install: $(STAMP)

# The stamp reinstalls only when pyproject.toml changes (editable install: code changes need none).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

# The JavaScript tools (Biome: package.json), at the versions package-lock.json pins, installed
# by Debian's npm into node_modules. The phone's unit tests need only node itself.
NODE_STAMP := node_modules/.installed

node: $(NODE_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# The lv and ru catalogues (locale/*/LC_MESSAGES/django.po) compiled for Django to read; the
# compiled .mo files are build output, not committed. Needs GNU gettext's msgfmt.
messages: install
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=node_modules

# ruff, import-linter's contracts (pyproject.toml: the layers, no import circle), mypy
# ([tool.mypy]: the packages it checks and how strictly), and Biome's lint and format check of
# the JavaScript (biome.jsonc).
lint: install node
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	node_modules/.bin/biome ci .

# The suite runs on whatever DATABASE_URL names; SQLite when it is unset. One process per core
# (pytest-xdist; at most 4: each has its own test database, live server and browser), and the
# slowest tests listed at the end, so that a suite growing slow shows where.
PYTEST_ARGS ?= --numprocesses=auto --maxprocesses=4 --durations=25
test: install messages
	$(MAKE) lint
	node --test tests/js/
	$(BIN)/pytest $(PYTEST_ARGS)

migrate: install
	$(BIN)/python manage.py migrate --noinput

# The organiser account (federation staff): a new random password, printed with how to sign in.
organiser: migrate
	$(BIN)/python manage.py create_organiser --reset

# Demo clubs and players, a small simulated tournament (created once: kept if it exists), and
# the organiser account on the first run (its password is printed then; `make organiser` later).
demo: migrate
	$(BIN)/python manage.py create_organiser
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py simulate_tournament --players 12 --rounds 3 --seed 1 \
		--slug demo --skip-existing

run: install messages migrate demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# Production: settings from the environment (README, "Production"); DEBUG is off unless set, so
# SECRET_KEY and ALLOWED_HOSTS must be. Static files are collected for whitenoise, the database
# migrated, then gunicorn serves with WORKERS processes of THREADS threads each (the rest of its
# settings, a graceful stop among them, in gunicorn.conf.py).
WORKERS ?= 4
THREADS ?= 2
BIND ?= 127.0.0.1:8000

serve: export DEBUG ?= 0
serve: install messages
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python manage.py migrate --noinput
	exec $(BIN)/gunicorn zole_site.wsgi:application --workers $(WORKERS) --threads $(THREADS) \
		--bind $(BIND) --access-logfile -

# A consistent copy of the database in BACKUP_DIR (default ./backups), while the site runs.
backup: install
	$(BIN)/python manage.py backup_database

clean:
	rm -rf $(VENV) node_modules build *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis staticfiles
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
