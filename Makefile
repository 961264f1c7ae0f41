# Two commands on a fresh machine:
#   make demo   - create .venv, install symrow, print the default derivation
#   make test   - create or update .venv, install with the test extras, run the whole suite
# Then `. .venv/bin/activate` puts the symrow command on PATH.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

.PHONY: demo test test-fast bench install install-test renderers clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

# Stamp files re-run the install when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PIP) install -e '.[test]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

demo: $(VENV)/.installed
	$(VENV)/bin/symrow
	@echo
	@echo "symrow is installed in $(VENV). To type symrow as the README does, put it on"
	@echo "your PATH in this shell:  . $(VENV)/bin/activate   (or type $(VENV)/bin/symrow)"

# -n auto: a worker per core.  --dist worksteal: a worker that runs out of tests
# takes half of another's, so no long test is left to run alone at the end (the
# slow ones are sent first: tests/conftest.py).  What several tests share and is
# costly to make (the compiled decks, the Chromium pages) is made once per run,
# by whichever worker asks first (tests/harness.py, shared).
test: $(VENV)/.installed-test
	$(PY) -m pytest -n auto --dist worksteal

# The edit loop: no TeX, KaTeX, MathJax or Chromium, none of the slow tests, and the checker's
# tests with its built-in parser only (the markers are in pyproject.toml; a test that reaches
# a renderer unmarked fails, in both runs).
test-fast: $(VENV)/.installed-test
	SYMROW_TEST_PARSERS=builtin $(PY) -m pytest -n auto --dist worksteal -m "not renderer and not browser and not slow and not latex2sympy2"

# KaTeX and MathJax for the renderer tests (.ci/run does this too).
renderers:
	cd tests && npm ci --no-audit --no-fund

bench: $(VENV)/.installed-test
	$(PY) tests/bench_attention.py
	$(PY) tests/bench_explain.py
	$(PY) tests/bench_backward.py
	$(PY) tests/bench_check.py
	$(PY) tests/bench_figures.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis tests/node_modules
