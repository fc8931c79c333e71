# Integer Card Games: developer and classroom commands.
# Everything runs inside .venv (created on demand from pyproject.toml).

PYTHON3 ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
PY      := $(BIN)/python
STAMP   := $(VENV)/.stamp
PORT    ?= 8866
# make class: where the server listens; 0.0.0.0 is every interface (the school network).
HOST    ?= 0.0.0.0
# make class LOG=class.log: the server's log in that file, rotated (5 files of 10 MB), instead
# of the terminal. Either way its lines are capped per kind each minute (serving/log_cap.py).
LOG     ?=
LAB_PORT ?= 8888
# The lesson a class is about to open and its pool of preheated kernels (one per student,
# about 54 MiB each): make serve POOL_LESSON=03_hit_me POOL=30. Empty: every lesson keeps
# voila.json's pool (1 kernel each).
POOL_LESSON ?=
POOL ?= 30
# 1: a pytest run that collects no test (exit 5) is tolerated (early, empty tree).
# .ci/run sets ALLOW_NO_TESTS=0 so that CI fails when no test ran.
ALLOW_NO_TESTS ?= 1
PYTEST_ARGS ?=
NBVAL_ARGS  ?= --nbval-lax --nbval-current-env --nbval-cell-timeout=600
# pytest-xdist workers for the unit, browser and nbval stages: the tests are independent and
# mostly wait (servers, kernels, a browser), so both cores are kept busy. Each file runs whole in
# one worker (its module fixtures start once). WORKERS=0: one process, in file order.
WORKERS ?= 2
# --no-loadscope-reorder: files are handed out in the order collected, the longest first
# (LONGEST_FIRST in tests/conftest.py), not pytest-xdist's default of the most tests first.
XDIST = $(if $(filter 0,$(WORKERS)),,-n $(WORKERS) --dist loadfile --no-loadscope-reorder)
# The unit and browser stages wait on their servers, kernels and browser more than they compute
# (both cores half idle with two workers): one more worker there (browser stage on this
# machine: 475 s with two workers, 429 s with three).
WAITING_WORKERS ?= $(if $(filter 0,$(WORKERS)),0,$(shell echo $$(( $(WORKERS) + 1 ))))
WAITING_XDIST = $(if $(filter 0,$(WAITING_WORKERS)),,-n $(WAITING_WORKERS) --dist loadfile \
  --no-loadscope-reorder)
# The unit stage waits more still (its serving tests sleep through culls and timeouts): both
# cores 15% idle with three workers, 7% with four (unit stage 255-257 s against 247 s). The
# browser stage keeps both cores 95% busy with three workers already.
UNIT_WORKERS ?= $(if $(filter 0,$(WORKERS)),0,$(shell echo $$(( $(WORKERS) + 2 ))))
UNIT_XDIST = $(if $(filter 0,$(UNIT_WORKERS)),,-n $(UNIT_WORKERS) --dist loadfile \
  --no-loadscope-reorder)
# The slowest tests of a stage, listed at its end (where the time goes).
DURATIONS := --durations=15
# The nbval plugin is loaded only in the nbval stage (its import costs about 2 s a process).
NO_NBVAL := -p no:nbval
# Each stage of `make test` appends "name seconds" here; the last line of `make test` sums them.
STAGES_FILE := tests/artifacts/stages.txt

# Every language: lessons/*.ipynb (English) and lessons/<code>/*.ipynb (lessons/es/ ...);
# nbval collects the subfolders too.
LESSONS    := $(wildcard lessons/*.ipynb lessons/*/*.ipynb)
BENCHMARKS := $(wildcard benchmarks/*.py)

.DEFAULT_GOAL := help
LOCALE := widgets/locale

.PHONY: help venv i18n test check lint unit browser nbval serve class lab outputs browsers hub-proxy bench clean distclean site

help:
	@echo "make serve     serve lessons/ with Voila on http://127.0.0.1:$(PORT)/ (PORT=... to change)"
	@echo "               POOL_LESSON=03_hit_me POOL=30: 30 kernels ready for that lesson's class"
	@echo "make class     serve lessons/ to the school network (HOST=... to choose), print the"
	@echo "               address students type; projector page with its QR code at /class"
	@echo "make check     while editing (about a minute): ruff and the tests that need no server,"
	@echo "               browser or PostgreSQL (rules, words, render, sessions, bots, saves, rooms)"
	@echo "make test      before a commit: ruff, unit and browser tests, every lesson with nbval"
	@echo "make lab       JupyterLab on lessons/ (127.0.0.1:$(LAB_PORT))"
	@echo "make outputs   after editing a lesson: refresh its checked outputs, drop the others"
	@echo "make venv      create/update .venv from pyproject.toml (compiles the catalogues)"
	@echo "make i18n      extract the widgets' strings, update widgets/locale/*/icg.po, compile"
	@echo "make browsers  install Debian's chromium, WebKitWebDriver and Xvfb for the browser tests (root)"
	@echo "make hub-proxy install configurable-http-proxy (npm) into .hub-node/ for the hub test"
	@echo "make site      build site/: the lessons as static pages (Python in the browser, no server;"
	@echo "               TEACHER=1: a teacher's copy with the answer keys, never to publish)"
	@echo "make bench     run benchmarks/*.py"
	@echo "make clean     remove caches and test artifacts (distclean also removes .venv)"

# Also installs again what serving/install.py copies when it changed (the labextension), and
# byte-compiles the project (quick when nothing changed): the package is installed
# editable, so pip leaves engine/, widgets/ and serving/ uncompiled, and a kernel that cannot
# write __pycache__ (a read-only checkout, PYTHONDONTWRITEBYTECODE) would compile them again on
# every page load (about 0.03 s CPU each, times 30 students), the server serving/ at every start
# (about 0.1 s).
venv: $(STAMP)
	@$(PY) serving/install.py --check 2>/dev/null || $(PY) serving/install.py
	@$(PY) -m compileall -q engine rooms widgets serving
	@$(BIN)/pybabel -q compile -d $(LOCALE) -D icg

# Translations (docs/translating.md): the template icg.pot from the sources (babel.cfg), every
# catalogue updated from it (new msgids empty, none fuzzy-matched), then compiled to .mo
# (git-ignored). Sorted by msgid, no line numbers: two branches' catalogues merge by union.
i18n: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --sort-output --no-wrap \
	  --project=integer-card-games --copyright-holder="Integer Card Games contributors" \
	  -o $(LOCALE)/icg.pot .
	$(BIN)/pybabel -q update -i $(LOCALE)/icg.pot -d $(LOCALE) -D icg --no-fuzzy-matching \
	  --ignore-obsolete --no-wrap
	$(BIN)/pybabel compile -d $(LOCALE) -D icg --statistics

# Re-installs when pyproject.toml or the Voila settings change.
$(STAMP): pyproject.toml voila.json serving/install.py serving/voila_config.py \
          serving/jupyter_server_config.json
	@test -x $(PY) || $(PYTHON3) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q --upgrade pip
	$(PY) -m pip install --disable-pip-version-check -e '.[test]'
	$(PY) serving/install.py
	@touch $(STAMP)

# Runs pytest with the given arguments. The pytest script, not `python -m pytest`:
# the latter puts the repo root on sys.path, where ./voila.py (Voila's config
# file) would shadow the voila package. exit 5 (no test collected) is only
# tolerated when ALLOW_NO_TESTS=1.
define run_pytest
	@rc=0; $(BIN)/pytest $(1) || rc=$$?; \
	if [ $$rc -eq 5 ] && [ "$(ALLOW_NO_TESTS)" = "1" ]; then \
	  echo "note: pytest collected no test in $(2) (tolerated: ALLOW_NO_TESTS=1)"; \
	elif [ $$rc -ne 0 ]; then exit $$rc; fi
endef

# The strategy lab's charts drawn during one `make test`, shared by its stages (empty at its
# start): the first page of lesson 6 a stage serves draws them, every later one (the browser
# and nbval stages' too) reads them instead of drawing them again (about 2 minutes of a loaded
# machine each).
TEST_CHART_CACHE := $(CURDIR)/tests/artifacts/chart-cache

# Every stage, timed; the last line reads "== stages: lint Xs, unit Ys, site Ss, browser Zs,
# nbval Ws, total Ts" (.ci/run prints it again at its end). The site stage builds site/ (the
# static site, its downloads cached in .site-cache/), which the browser stage then tests; the
# total is the tests' own time, without the site's build.
test: venv hub-proxy
	@mkdir -p $(dir $(STAGES_FILE)); : > $(STAGES_FILE); tests=0; \
	rm -rf $(TEST_CHART_CACHE); \
	for stage in lint unit site browser nbval; do \
	  s0=$$(date +%s); \
	  ICG_SITE_DIR=$(CURDIR)/site ICG_CHART_CACHE=$(TEST_CHART_CACHE) \
	    $(MAKE) --no-print-directory $$stage || exit $$?; \
	  took=$$(( $$(date +%s) - s0 )); echo "$$stage $$took" >> $(STAGES_FILE); \
	  [ $$stage = site ] || tests=$$(( tests + took )); \
	done; \
	echo "total $$tests" >> $(STAGES_FILE); \
	awk '{printf "%s%s %ss", (NR > 1 ? ", " : "== stages: "), $$1, $$2} END {print ""}' \
	  $(STAGES_FILE)

# The tier to run while editing: no server, no browser, no PostgreSQL, nothing marked slow.
check: venv
	$(BIN)/ruff check .
	$(call run_pytest,tests/ --ignore=tests/browser $(NO_NBVAL) -m "not (serving or pg or slow)" $(XDIST) $(PYTEST_ARGS),tests/)

lint: venv
	$(BIN)/ruff check .

unit: venv
	$(call run_pytest,tests/ --ignore=tests/browser $(NO_NBVAL) $(UNIT_XDIST) $(DURATIONS) $(PYTEST_ARGS),tests/)

# A pytest run of its own: Playwright's sync API keeps an event loop running in the main
# thread for the whole session, which would change how the tables pace computer moves in the
# unit tests that follow it.
browser: venv hub-proxy
	$(call run_pytest,tests/browser $(NO_NBVAL) $(WAITING_XDIST) $(DURATIONS) $(PYTEST_ARGS),tests/browser/)

# The lessons' kernels join the live class of a room store of the run's own, emptied first, not
# the class's .rooms.sqlite3 beside the project.
NBVAL_ROOMS := $(CURDIR)/tests/artifacts/nbval-rooms.sqlite3
nbval: export ICG_ROOMS_URL := sqlite:///$(NBVAL_ROOMS)
nbval: venv
ifneq ($(strip $(LESSONS)),)
	@mkdir -p $(dir $(NBVAL_ROOMS)); rm -f $(NBVAL_ROOMS) $(NBVAL_ROOMS)-*
	$(call run_pytest,$(NBVAL_ARGS) $(XDIST) $(PYTEST_ARGS) lessons/,lessons/)
else
	@echo "note: no lessons/*.ipynb yet, nbval skipped"
endif

# Voila reads ./voila.json (repo root) for its settings. The teacher's key (widgets/page/teacher_key.py)
# is $ICG_TEACHER_KEY, else .teacher_key (made with a new random key if absent); it is printed.
serve: venv
	@$(PY) -m widgets.page.teacher_key
	$(BIN)/voila --no-browser --Voila.ip=127.0.0.1 --port=$(PORT) \
	  $(if $(POOL_LESSON),--ClassroomKernelManager.pool_lesson=$(POOL_LESSON) \
	  --ClassroomKernelManager.pool_lesson_size=$(POOL)) lessons/

# The same server for a class in the room: on every interface (or HOST=...), printing the
# address students type and serving the projector page (/class) with its QR code
# (serving/class_server.py). A busy port is an error, not another port: the printed address
# must be the one that answers.
class: venv
	@$(PY) -m widgets.page.teacher_key
	$(PY) -m serving.class_server --no-browser --Voila.ip=$(HOST) --port=$(PORT) \
	  --Voila.port_retries=0 $(if $(LOG),--ClassVoila.log_file=$(LOG)) \
	  $(if $(POOL_LESSON),--ClassroomKernelManager.pool_lesson=$(POOL_LESSON) \
	  --ClassroomKernelManager.pool_lesson_size=$(POOL)) lessons/

# --allow-root only when make runs as root (containers, this project's machines).
lab: venv
	$(BIN)/jupyter lab --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) \
	  --ServerApp.root_dir=lessons $(if $(filter 0,$(shell id -u)),--allow-root)

# The notebooks are the lesson text; this only refreshes the outputs nbval checks.
outputs: venv
	$(PY) tools/refresh_outputs.py

# Chromium (Playwright) and WebKit, Safari's engine (WebKitWebDriver through Selenium, under
# Xvfb), from Debian; zbarimg decodes the projector page's QR code in its test.
BROWSER_PACKAGES := chromium fonts-dejavu-core webkit2gtk-driver xvfb zbar-tools
browsers:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/WebKitWebDriver ] && command -v Xvfb >/dev/null \
	  && command -v zbarimg >/dev/null; then \
	  echo "chromium present: $$(/usr/bin/chromium --version 2>/dev/null)"; \
	  echo "WebKitWebDriver, Xvfb and zbarimg present"; \
	elif [ "$$(id -u)" = "0" ]; then \
	  DEBIAN_FRONTEND=noninteractive apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y $(BROWSER_PACKAGES); \
	else \
	  echo "Chromium, WebKitWebDriver, Xvfb or zbarimg is missing and installing them needs root."; \
	  echo "Run:  sudo apt-get install -y $(BROWSER_PACKAGES)"; \
	  echo "Without them the browser tests skip locally (and fail under CI=true)."; \
	  exit 1; \
	fi

# JupyterHub's proxy (an npm package) for tests/browser/test_hub.py and
# deploy/jupyterhub/jupyterhub_config.py, in a project-local, git-ignored prefix.
HUB_PROXY := .hub-node/node_modules/.bin/configurable-http-proxy
CHP_VERSION ?= 5

hub-proxy: $(HUB_PROXY)

$(HUB_PROXY):
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --prefix .hub-node --no-audit --no-fund --loglevel=error \
	    configurable-http-proxy@$(CHP_VERSION); \
	else \
	  echo "npm is missing: the JupyterHub test skips (and fails under CI=true)."; \
	  echo "Install Node.js 20 or later with npm, then run: make hub-proxy"; \
	fi

# The static site (docs/deploy.md): every page but Play together and the Class view, built with
# Voici from pinned registry packages (tools/site/); downloads cached in .site-cache/.
TEACHER ?=
site: venv
	$(PY) tools/build_site.py $(if $(filter 1 yes true,$(TEACHER)),--teacher)

bench: venv
ifneq ($(strip $(BENCHMARKS)),)
	@set -e; for f in $(BENCHMARKS); do echo "== $$f"; $(PY) $$f; done
else
	@echo "note: no benchmarks/*.py yet"
endif

clean:
	rm -rf build dist *.egg-info .pytest_cache .ruff_cache .hypothesis tests/artifacts
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -path ./$(VENV) -prune -o -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) .hub-node .site-cache site
