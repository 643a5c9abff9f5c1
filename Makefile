# The two commands a newcomer needs:  make book   and   make test
# Everything they need is installed into .venv/ and node_modules/ from pinned files.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
export BOOK_WIDGETS := static
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# One BLAS thread per kernel unless a target says otherwise: builds run two kernels at once on
# two cores, and the outputs must not depend on it (make test checks with two threads as well).
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
# The shuffled nbval order changes every day, and is printed so a failure can be replayed.
SEED ?= $(shell date +%Y%m%d)

.PHONY: book test install assets chromium execute soak bench canary clean freeze lab paths

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

assets: site-assets/.built
site-assets/.built: node_modules/.installed $(VENV)/.installed tools/site_assets.py
	$(BIN)/python tools/site_assets.py
	touch $@

## make book: build the site, executing only notebooks whose code changed (jupyter-cache).
## preexecute fills that cache on both cores first; the build then reads it.
book: install assets
	$(BIN)/python tools/preexecute.py _build/.jupyter_cache
	$(BIN)/jupyter-book build . -W --keep-going
	@echo
	@echo "The site is in _build/html. Open _build/html/index.html, or serve it:"
	@echo "    $(BIN)/python -m http.server --directory _build/html 8000"

## make lab: JupyterLab on the book's pinned environment (.venv), at notebooks/, sliders live.
lab: install
	BOOK_WIDGETS=live $(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=notebooks \
	  $$(test "$$(id -u)" = 0 && echo --allow-root)

## make execute NB=notebooks/part1/08-attention.ipynb: re-run a notebook in place, top to bottom.
execute: install
	$(BIN)/python tools/execute.py $(NB)

## Headless Chromium for the site tests (Debian's package).
chromium:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

NBVAL := $(BIN)/python -m pytest -q --nbval notebooks -n 2 --dist loadfile \
	 --nbval-sanitize-with tests/nbval-sanitize.cfg

## make test: every test. Unit tests, the stored notebooks, nbval (strict), then the built site
## and the other ways to read it (JupyterLab, a downloaded notebook; make paths does every notebook).
## nbval runs twice: one BLAS thread in a shuffled notebook order, then two threads in order.
## Both compare against the same stored outputs, so no output may depend on either.
test: install assets chromium
	$(BIN)/python -m pytest -q tests --ignore=tests/test_site.py --ignore=tests/test_paths.py
	@echo "nbval, one BLAS thread, notebook order shuffle:$(SEED) (replay with make test SEED=$(SEED))"
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 BOOK_ORDER=shuffle:$(SEED) $(NBVAL)
	@echo "nbval, two BLAS threads, notebooks in order"
	OPENBLAS_NUM_THREADS=2 OMP_NUM_THREADS=2 MKL_NUM_THREADS=2 $(NBVAL)
	$(BIN)/python tools/ci_config.py _build/test-config.yml
	$(BIN)/jupyter-book build . -W --keep-going --config _build/test-config.yml --path-output _build/test
	$(BIN)/python -m pytest -q tests/test_site.py tests/test_paths.py

## make soak: nbval ten times, alternating one and two BLAS threads, each in a new shuffled order.
soak: install
	for i in 1 2 3 4 5 6 7 8 9 10; do \
	  t=$$(( i % 2 + 1 )); echo "soak run $$i: $$t BLAS thread(s), order shuffle:$$i"; \
	  OPENBLAS_NUM_THREADS=$$t OMP_NUM_THREADS=$$t MKL_NUM_THREADS=$$t BOOK_ORDER=shuffle:$$i $(NBVAL) || exit 1; \
	done

## make bench: one table of build, test, notebook, slider and page timings and weights.
bench: install assets chromium
	$(BIN)/python tools/bench.py

## make paths: every notebook through every way to read it (tools/paths.py): alone in an empty
## folder, a Binder-like checkout, the site's download copy on bare and on Colab-like versions.
paths: install
	$(BIN)/python tools/ci_config.py _build/test-config.yml
	$(BIN)/jupyter-book build . -W --keep-going --config _build/test-config.yml --path-output _build/test
	$(BIN)/python tools/paths.py

## make canary: the newest releases of every dependency (unpinned), then nbval on every notebook.
## Not part of make test; run it on a schedule (see README) to hear early about a breaking release.
canary:
	rm -rf .venv-canary && $(PYTHON) -m venv .venv-canary
	.venv-canary/bin/pip install --quiet --disable-pip-version-check -r requirements-unpinned.txt
	.venv-canary/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	.venv-canary/bin/python -m pytest -q --nbval notebooks -n 2 --dist loadfile \
	    --nbval-sanitize-with tests/nbval-sanitize.cfg

freeze:
	$(BIN)/pip freeze --exclude-editable | grep -v '^-e' > /tmp/req.txt
	{ sed -n '1,2p' requirements.txt; cat /tmp/req.txt; echo '-e .'; } > requirements.txt.new && mv requirements.txt.new requirements.txt

clean:
	rm -rf _build site-assets
