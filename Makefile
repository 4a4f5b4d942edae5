PY ?= python3
# Python may cache compiled modules (__pycache__, git-ignored), whatever the environment
# says: with PYTHONDONTWRITEBYTECODE set, every test worker and every subprocess compiled
# the project anew and pytest rewrote every test module's asserts again (collecting the
# suite: 8.6 s instead of 2.0 s, in each of the 5 processes of make test).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCKS := requirements/pip.txt requirements/runtime.txt requirements/dev.txt

.PHONY: test test-quick browser postgres demo run lint bench lock clean docs-pictures mutants table table-bundle

# The virtualenv holds exactly the dev lock (hashes checked), then boardroom itself,
# editable and without dependencies; it is made anew when pyproject.toml or a lock changes.
$(STAMP): pyproject.toml $(LOCKS)
	$(PY) -m venv --clear $(VENV)
	$(BIN)/pip install -q --require-hashes -r requirements/pip.txt
	$(BIN)/pip install -q --require-hashes -r requirements/dev.txt
	$(BIN)/pip install -q --no-deps --no-build-isolation -e . --config-settings editable_mode=compat
	touch $(STAMP)

# The whole suite, as CI runs it, in 5 pytest-xdist workers on the 2 cores: the tests pace
# a channel's writes 5 per 0.25 s instead of the bot's 5 per 5 s
# (tests/discord_support.TEST_PACE; the tests of the pacing itself use the bot's), and
# what waits leaves room for more workers than cores (quiet machine, at one commit of
# issue 38's last session: 4 workers 186 s, 5 workers 178 s, 6 workers 176 s and 8 s more
# CPU). Tests go to the workers one by one,
# except that a module's tests that share a module fixture stay on one worker
# (--dist loadgroup; tests/conftest.py), so the fixture is built once.
# make test-quick leaves out the slow modules (tests/conftest.py's SLOW: whole games
# through the fake Discord, the benchmarks' smoke runs, exhaustive enumerations): the edit
# loop's run. TEST_ARGS adds pytest options, e.g. TEST_ARGS="--durations=30";
# TEST_WORKERS=0 runs in one process.
# The live table's browser tests need Debian's headless Chromium: make test installs it
# first where it can (make browser: root and apt-get; BROWSER_INSTALL=no skips the try);
# where it is still missing they are skipped (a banner at the end counts them; in CI, with
# CI set, they fail instead). The tests themselves stay offline.
# The PostgreSQL tests (the postgres marker: tests/pg_support.py) run against the database
# named by BOARDROOM_TEST_DB. Unset, make test starts a throwaway cluster for the run where
# PostgreSQL is installed (scripts/pg_cluster.sh: Debian's pg_createcluster, as the postgres
# user, on 127.0.0.1:PG_PORT, its data in a temporary folder) and removes it after. The
# cluster starts while pytest starts (3-4 s each): BOARDROOM_TEST_DB_PENDING names the folder
# where its URL appears, and the first postgres test waits for it (tests/pg_support.py); where
# PostgreSQL is missing they are skipped (a banner counts them; in CI they fail instead:
# .ci/run installs PostgreSQL).
BROWSER_INSTALL ?= yes
TEST_WORKERS ?= 5
TEST_ARGS ?=
QUICK_WORKERS ?= 4
PG_PORT ?= 55439
PYTEST = $(BIN)/python -m pytest -q --dist loadgroup
test: $(STAMP)
	@if [ "$(BROWSER_INSTALL)" = yes ]; then $(MAKE) --no-print-directory browser \
		|| echo "make test: no Chromium here; the live table's browser tests will be skipped" >&2; fi
	$(BIN)/ruff check .
	@set -e; if [ -n "$$BOARDROOM_TEST_DB" ]; then $(PYTEST) -n $(TEST_WORKERS) $(TEST_ARGS); exit; fi; \
	dir=$$(mktemp -d /tmp/boardroom-pg.XXXXXX); chmod 755 $$dir; \
	trap 'wait; scripts/pg_cluster.sh stop "$$dir/cluster" $(PG_PORT) || true; rm -rf "$$dir"' EXIT; \
	( if scripts/pg_cluster.sh start "$$dir/cluster" $(PG_PORT) > "$$dir/url.part"; then mv "$$dir/url.part" "$$dir/url"; \
	  else echo "make test: no PostgreSQL cluster here; the postgres tests will be skipped" >&2; fi; \
	  touch "$$dir/started" ) & \
	export BOARDROOM_TEST_DB_PENDING=$$dir; \
	echo "$(PYTEST) -n $(TEST_WORKERS) $(TEST_ARGS)"; $(PYTEST) -n $(TEST_WORKERS) $(TEST_ARGS)

# (4 workers: the quick run is CPU-bound on the 2 cores; each worker more collects the suite
# and starts its own picture workers: 6 workers took 98 s of CPU and 77 s, 4 took 80 s and 69 s)
test-quick: $(STAMP)
	$(BIN)/ruff check .
	$(PYTEST) -n $(QUICK_WORKERS) -m "not slow" $(TEST_ARGS)

browser:
	@if [ -n "$$BOARDROOM_CHROMIUM" ] || command -v chromium || command -v chromium-browser \
		|| command -v google-chrome; then \
		echo "Chromium is installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		echo "cannot install Chromium here (needs root and apt-get): install it yourself," \
			"e.g. sudo apt-get install chromium, or set BOARDROOM_CHROMIUM to a Chromium" >&2; \
		exit 1; \
	fi

# PostgreSQL's server (Debian's package), for the postgres tests: installed by root with apt-get.
postgres:
	@if command -v pg_createcluster >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then \
		echo "PostgreSQL is installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	else \
		echo "cannot install PostgreSQL here (needs root and apt-get): sudo apt-get install postgresql" >&2; \
		exit 1; \
	fi

# Mutation testing of one game's rules modules (scripts/mutants.py; tests/MUTANTS.md):
#   make mutants GAME=mobile-markets                       # every mutant
#   make mutants GAME=smartphone-inc MUTANTS_ARGS="--sample 400"
#   make mutants GAME=age-of-automaton MUTANTS_ARGS="--module flow"
MUTANTS_ARGS ?=
mutants: $(STAMP)
	nice -n 10 $(BIN)/python scripts/mutants.py $(GAME) $(MUTANTS_ARGS)

GAME ?= smartphone-inc

demo: $(STAMP)
	$(BIN)/boardroom demo --game $(GAME) --players 4 --seed 1 --db demo.db --out demo-out

run: $(STAMP)
	$(BIN)/boardroom run

# A local game at the live table (you + AI seats) on 127.0.0.1; open the printed link.
PORT ?= 8765
table: $(STAMP)
	$(BIN)/boardroom table --game $(GAME) --port $(PORT)

# Rebuild the table's bundled Embedded App SDK (bot/table/static/vendor/discord-sdk.js, committed)
# from the npm lock file (web/package-lock.json): only after changing web/package.json.
table-bundle:
	cd web && npm ci --no-audit --no-fund && npm run build

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

# Draw the pictures in docs/ again from their seeded games and stored reference views
# (scripts/docs_pictures.py says each one's recipe), then the live table's screenshots at
# 400 px (docs/table/, scripts/table_screenshots.py: Chromium); look at them before committing.
# DOCS_ARGS=--check only tells which are stale; DOCS_ARGS=--list prints the recipes.
docs-pictures: $(STAMP)
	$(BIN)/python scripts/docs_pictures.py $(DOCS_ARGS)
	@case "$(DOCS_ARGS)" in *--check*|*--list*) ;; *) $(BIN)/python scripts/table_screenshots.py ;; esac

# Regenerate requirements/*.txt from pyproject.toml (and requirements/pip.in) with
# pip-tools in a throwaway virtualenv. Only the public package index is asked: this
# machine's pip configuration, find-links and extra indexes are ignored, so every hash
# is the index's own. Existing pins are kept unless LOCK_ARGS says otherwise:
#   make lock LOCK_ARGS=--upgrade                      # newest versions within the ranges
#   make lock LOCK_ARGS="--upgrade-package pillow"     # one package
PIP_TOOLS := pip-tools==7.6.2
LOCK_ENV := env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL -u PIP_NO_INDEX \
	-u PIP_CONSTRAINT -u PIP_REQUIRE_VIRTUALENV PIP_CONFIG_FILE=/dev/null CUSTOM_COMPILE_COMMAND="make lock"
COMPILE := --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
	--no-emit-find-links $(LOCK_ARGS)

lock:
	set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PY) -m venv "$$tmp/venv"; \
	$(LOCK_ENV) "$$tmp/venv/bin/pip" install -q '$(PIP_TOOLS)'; \
	compile() { $(LOCK_ENV) "$$tmp/venv/bin/pip-compile" $(COMPILE) "$$@"; }; \
	compile -o requirements/pip.txt requirements/pip.in; \
	compile --all-build-deps -o requirements/runtime.txt pyproject.toml; \
	compile --all-build-deps --extra dev -c requirements/runtime.txt -o requirements/dev.txt \
		pyproject.toml

clean:
	rm -rf $(VENV) demo.db demo-out .pytest_cache build/mutants
