# Attention Atlas. On a fresh machine two commands are enough:
#   make run    # virtual environment + pinned requirements, then the app on http://localhost:8501
#   make test   # the same + test tools + Debian's chromium, then the test suite
# Every target is idempotent: a stamp file keyed on the requirements files' contents
# makes a second run skip straight to the work.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH_VERSION := 2.13.0
# torch comes from a local wheel when pip has one (--no-index), else the CPU build from PyTorch's
# CPU wheel index (a laptop never pulls the multi-gigabyte CUDA build). TORCH_PIP_ARGS replaces both
# with your own pip options. GPU users install the CUDA build of torch $(TORCH_VERSION) into $(VENV)
# first; it then satisfies torch==$(TORCH_VERSION) as is.
TORCH_PIP_ARGS ?=
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
# Debian packages for browser tests: the browser itself and fonts for the Korean UI.
BROWSER_PKGS := chromium fonts-noto-cjk

# Tests use Debian's /usr/bin/chromium; Playwright must never download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
# Python may keep compiled files (__pycache__/, ignored by git) where the machine says not to: pytest then rewrites
# the test modules' asserts once, not in every worker of every run (collection 10.7 -> 7.8 s a worker).
export PYTHONDONTWRITEBYTECODE :=
export PIP_DISABLE_PIP_VERSION_CHECK := 1

RUN_HASH := $(shell cat requirements.txt | sha256sum | cut -c1-16)
DEV_HASH := $(shell cat requirements.txt requirements-dev.txt | sha256sum | cut -c1-16)
RUN_STAMP := $(VENV)/.stamp-run-$(RUN_HASH)
DEV_STAMP := $(VENV)/.stamp-dev-$(DEV_HASH)

.PHONY: help run test check dev deps browser a11y lint docker-smoke deploy-smoke ci clean

help:
	@echo "make run           start the app (http://localhost:8501)"
	@echo "make test          run the test suite (both cores: pytest-xdist)"
	@echo "make check         the suite without the browser, load and training tests (LOAD_TESTS, TRAINING_TESTS)"
	@echo "make lint          ruff on the Python code, hadolint on the Dockerfiles"
	@echo "make docker-smoke  build and run the Docker image with podman, check the home page"
	@echo "make deploy-smoke  deploy/kubernetes.yaml with 2 replicas in podman behind HAProxy, check stickiness"
	@echo "make ci            everything CI runs (.ci/run)"
	@echo "make clean         remove $(VENV) and out/"

# STREAMLIT_ARGS, e.g. "--server.address 127.0.0.1" to serve this computer only, or "--server.port 8600".
STREAMLIT_ARGS ?=

# scripts/warm_up.py runs the app once when the server answers: bookmarks then open without a notice.
run: deps
	$(BIN)/python scripts/warm_up.py $(patsubst --server.port=%,%,$(filter --server.port=%,$(STREAMLIT_ARGS))) &
	$(BIN)/streamlit run app.py $(STREAMLIT_ARGS)

# Both cores (pytest-xdist: each worker its own servers on free ports; a worker that runs out of tests takes
# some of the other's: --dist worksteal); then the browser tests alone, one at a time. Everything at once on three
# workers took 536-568 s, but its third run failed 2 of 1,641: an option list that took more than
# 30 s to open in Chromium and a server 18 MB over its memory bound under the extra load (docs/performance.md).
# The 15 slowest tests are listed after each part (pyproject.toml).
PYTEST_WORKERS ?= 2
BROWSER_TESTS := tests/test_browser*.py
# make check leaves out, besides the browser tests:
#   load:     many sessions, crafted models' heaviest runs and memory bounds, a full compute pool
#   training: the trainer, checkpoint averaging, the corpus builders and the classroom generator
#   the benchmark scripts' smoke runs
LOAD_TESTS := tests/test_server_load.py tests/test_cost.py tests/test_page_load.py tests/test_malloc.py
TRAINING_TESTS := tests/test_train.py tests/test_average.py tests/test_data.py tests/test_classroom_*.py
CHECK_SKIP := $(foreach t,$(LOAD_TESTS) $(TRAINING_TESTS) tests/test_benchmarks.py,--ignore-glob='$(t)')

test: dev
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist worksteal --ignore-glob='$(BROWSER_TESTS)' tests
	$(BIN)/python -m pytest -q $(BROWSER_TESTS)

check: dev
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist worksteal --ignore-glob='$(BROWSER_TESTS)' $(CHECK_SKIP) tests

deps: $(RUN_STAMP)
dev: $(DEV_STAMP) browser a11y

# axe-core for the accessibility audit (tests/test_browser_a11y.py), pinned in tests/a11y/package-lock.json.
A11Y_AXE := tests/a11y/node_modules/axe-core/axe.min.js
a11y: $(A11Y_AXE)
$(A11Y_AXE): tests/a11y/package.json tests/a11y/package-lock.json
	npm ci --prefix tests/a11y --no-audit --no-fund --silent
	touch $@

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch first, on its own: pinned, from pip's find-links (the local CPU wheel, its own dependencies
# then from the usual index) or TORCH_PIP_ARGS; nothing after it may ask for another torch.
$(RUN_STAMP): requirements.txt | $(BIN)/python
	if [ -n "$(TORCH_PIP_ARGS)" ]; then \
	  $(BIN)/python -m pip install -q $(TORCH_PIP_ARGS) "torch==$(TORCH_VERSION)"; \
	elif $(BIN)/python -m pip install -q --no-index --no-deps "torch==$(TORCH_VERSION)" 2>/dev/null; then \
	  $(BIN)/python -m pip install -q "torch==$(TORCH_VERSION)"; \
	else \
	  echo "no local torch wheel: the CPU build from $(TORCH_CPU_INDEX)"; \
	  $(BIN)/python -m pip install -q --extra-index-url $(TORCH_CPU_INDEX) "torch==$(TORCH_VERSION)"; \
	fi
	$(BIN)/python -m pip install -q -r requirements.txt
	$(BIN)/python -c "import torch; v = torch.__version__; assert v.split('+')[0] == '$(TORCH_VERSION)', v"
	rm -f $(VENV)/.stamp-run-*
	touch $@

$(DEV_STAMP): requirements-dev.txt $(RUN_STAMP)
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	$(BIN)/python -c "import torch; v = torch.__version__; assert v.split('+')[0] == '$(TORCH_VERSION)', v"
	rm -f $(VENV)/.stamp-dev-*
	touch $@

# Debian's chromium (and CJK fonts) when missing: installed only as root, else a hint.
browser:
	@missing=""; \
	for p in $(BROWSER_PKGS); do \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ] || [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "apt-get install$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(BROWSER_PKGS) >/dev/null; \
	  else \
	    echo "WARNING: missing$$missing; browser tests need: sudo apt-get install $(BROWSER_PKGS)" >&2; \
	  fi; \
	fi

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/hadolint Dockerfile deploy/haproxy.Dockerfile

docker-smoke: dev
	bash scripts/docker_smoke.sh

deploy-smoke: dev
	bash scripts/deploy_smoke.sh

ci:
	bash .ci/run

clean:
	rm -rf $(VENV) out
