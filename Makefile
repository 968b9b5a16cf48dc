# Two commands do all the set-up on a fresh machine:
#   make play   builds .venv, starts Voilà on 127.0.0.1 with the landing page
#   make test   builds .venv, runs ruff and mypy --strict, then every test (browser tests included)
#   make site   builds _site/, the static site (Voici: Python in the browser, no server)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
HOST   ?= 127.0.0.1
PORT   ?= 8866

NODE_STAMP := node_modules/.installed-stamp

.PHONY: play test test-fast bench lint browser clean node_modules site translations game

# JupyterLab's defaults for the lessons (no news fetched from the internet): pip puts them
# in an environment's share/jupyter/lab/settings/overrides.d, but not for an editable install
LAB_DEFAULTS := share/jupyter/lab/settings/overrides.d/mathcards.json

$(STAMP): pyproject.toml lessons/$(LAB_DEFAULTS)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	install -D -m 644 lessons/$(LAB_DEFAULTS) $(VENV)/$(LAB_DEFAULTS)
	@$(PY) -m mathcards.widgets.network  # brotli and gzip copies of Voilà's files, made once
	@touch $(STAMP)

# make play CLASS=30:play_sums keeps 30 preheated kernels of play_sums.ipynb ready
# (a class about to open that page at once; pages comma separated).
# Serves the whole lessons/ folder (so the landing page's links reach every
# lesson); http://$(HOST):$(PORT)/ opens the landing page. Settings (preheated
# kernels, culling, theme, no tracebacks) are in lessons/voila.json, the cookie
# secret kept across restarts in lessons/voila.py (both read by Voilà); the page
# template (nothing fetched from the internet) is under lessons/share/jupyter.
# tests/browser/server.py starts the same command; tests/test_notebooks.py
# checks they agree.
play: $(STAMP)
	@$(PY) -m mathcards.widgets.network  # the compressed copies (found at once when made)
	@$(PY) -m mathcards teacher-key --url http://$(HOST):$(PORT)
	$(if $(CLASS),MATHCARDS_CLASS=$(CLASS) )JUPYTER_PATH=$(CURDIR)/lessons/share/jupyter $(VENV)/bin/voila --no-browser \
	    --Voila.ip=$(HOST) --port=$(PORT) --ClassroomKernelManager.fork_kernels=True \
	    --Voila.root_dir=$(CURDIR)/lessons --Voila.config_file_paths=$(CURDIR)/lessons

# make game NAME=add_up [TITLE="Add Up"] writes examples/add_up/, a new game that passes
# every suite for all games as it is (mathcards/scaffold.py; docs/new_game.md).
game: $(STAMP)
	$(PY) -m mathcards.scaffold $(NAME) $(if $(TITLE),--title "$(TITLE)")

# Chromium for the browser tests: Debian's package, installed when missing and
# we are root; in CI its absence fails the run (tests/browser/conftest.py).
browser:
	@sh .ci/ensure-chromium

# The hub tests' proxy (configurable-http-proxy) from npm, exactly as package-lock.json
# pins it, into ./node_modules (never a global install).
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

node_modules: $(NODE_STAMP)

# The static site from the package registries only (deploy/site/build.py; downloads cached
# in $$MATHCARDS_SITE_CACHE, default ~/.cache/mathcards-site): serve _site/ as plain files.
site:
	$(PYTHON) deploy/site/build.py --out _site

# The catalogs of every language (docs/translate.md): the marked strings extracted, every
# language's .po updated, the pseudo-locale made, every .po compiled, then what is left to
# translate in each language (LIST=1 lists it).
translations: $(STAMP)
	$(PY) -m mathcards.i18n_catalogs $(if $(LIST),--list)

# lint first: ruff and mypy --strict (mathcards/) must pass before the tests run; the
# static site is built (from the cache after the first time) for tests/browser/test_static_site.py
test: $(STAMP) $(NODE_STAMP) lint browser site
	$(PY) -m pytest

test-fast: $(STAMP)
	$(PY) -m pytest -m "not browser and not slow"

bench: $(STAMP)
	$(PY) -m benchmarks

lint: $(STAMP)
	$(VENV)/bin/ruff check mathcards widgets tests benchmarks examples lessons deploy
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis build *.egg-info _site
