# Eleusis: `make play` to play, `make test` to test. Both install what is
# missing and are fast when nothing changed (stamps under node_modules/,
# static/vendor/ and .venv/; the build rewrites files only when they change).

PYTHON   ?= python3
PORT     ?= 8000
HOST     ?= 127.0.0.1
RUNS     ?= 5
CHROMIUM ?= /usr/bin/chromium
VENV     := .venv
VPY      := $(VENV)/bin/python

NPM_STAMP    := node_modules/.eleusis-npm-stamp
VENDOR_STAMP := static/vendor/.eleusis-vendor-stamp
VENV_STAMP   := $(VENV)/.eleusis-venv-stamp

MESSAGES := locale/eleusis.pot
LANGS    := pl fr it

.PHONY: help play serve setup build dist messages test lint typecheck pytest chromium bench-boot bench-firstvisit bench-hostile clean

help:
	@echo "make play        serve the game on http://$(HOST):$(PORT)/ (PORT=... to change)"
	@echo "make test        lint, type-check and run the whole test suite"
	@echo "make dist        write a self-contained dist/ for any static host"
	@echo "make messages    extract the texts to translate into locale/ (Babel)"
	@echo "make bench-boot  boot benchmark: the app against a bare Pyodide page"
	@echo "make bench-firstvisit  first visit from a gzip host: bytes, throttled network,"
	@echo "                 long tasks, layout shift, Lighthouse (installed on demand)"
	@echo "make bench-hostile  the longest main-thread task for the worst links,"
	@echo "                 stored values and a deep guess (figures printed)"

# --- the runtime: npm -> node_modules -> static/vendor ----------------------

$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "make: npm is needed (Node.js 20+)"; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

$(VENDOR_STAMP): $(NPM_STAMP) tools/vendor.py
	$(PYTHON) tools/vendor.py
	@touch $@

setup: $(VENDOR_STAMP)

# --- the engine zip and the precache list (cheap; writes only on change) ---

build: $(VENDOR_STAMP)
	@$(PYTHON) tools/build.py

# --- play -------------------------------------------------------------------

play: build
	$(PYTHON) tools/serve.py --host $(HOST) --port $(PORT)

serve: play

dist: build
	$(PYTHON) tools/dist.py

# --- message catalogues (Babel, a dev requirement) --------------------------
# `make messages` extracts every marked text of src/ into the template and
# merges it into each language's catalogue (new messages arrive empty, to be
# translated; the build compiles the .po files into the engine zip).

messages: $(VENV_STAMP)
	@mkdir -p locale
	$(VENV)/bin/pybabel -q extract -F babel.cfg -k N_ -k Nn_:1,2 \
	  --no-location --sort-output --project=Eleusis --copyright-holder="Eleusis" \
	  -o $(MESSAGES) src
	@for l in $(LANGS); do \
	  if [ -f locale/$$l/LC_MESSAGES/eleusis.po ]; then \
	    $(VENV)/bin/pybabel -q update --no-fuzzy-matching --ignore-obsolete \
	      -i $(MESSAGES) -d locale -D eleusis -l $$l; \
	  else $(VENV)/bin/pybabel -q init -i $(MESSAGES) -d locale -D eleusis -l $$l; fi; \
	done

# --- tests --------------------------------------------------------------------

$(VENV_STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  echo "make: $(CHROMIUM) is missing: installing Debian's chromium with apt-get"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo -n"; fi; \
	  { $$SUDO apt-get update -q && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends \
	      chromium fonts-dejavu-core; } || { \
	    echo "make: could not install chromium. Install Debian's 'chromium' package" \
	         "(apt-get install chromium) or set CHROMIUM=/path/to/chromium."; exit 1; }; \
	  [ -x "$(CHROMIUM)" ] || { echo "make: $(CHROMIUM) is still missing after" \
	    "installing chromium; set CHROMIUM=/path/to/chromium."; exit 1; }; \
	fi

lint: $(VENV_STAMP)
	$(VPY) -m ruff check src tests tools bench

typecheck: $(VENV_STAMP)
	$(VPY) -m mypy src

pytest: $(VENV_STAMP) chromium build
	CHROMIUM=$(CHROMIUM) $(VPY) -m pytest -q

test: lint typecheck pytest

bench-boot: $(VENV_STAMP) chromium build
	CHROMIUM=$(CHROMIUM) $(VPY) bench/boot.py --runs $(RUNS)

FV_RUNS ?= 3

bench-firstvisit: $(VENV_STAMP) chromium build
	CHROMIUM=$(CHROMIUM) $(VPY) bench/firstvisit.py --runs $(FV_RUNS) --lighthouse

bench-hostile: $(VENV_STAMP) chromium build
	CHROMIUM=$(CHROMIUM) $(VPY) bench/hostile.py

clean:
	rm -rf build dist
