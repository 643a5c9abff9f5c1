"""The book's workshop: everything that builds, runs, checks and measures the book, and
that no reader's notebook imports.

The layers (CONTRIBUTING.md, "The house"; tests/test_layers.py keeps them):

    book/          what a notebook imports; imports nothing of the workshop
      ^
    workshop/      config (the one reader of _config.yml and _toc.yml), then
      ^            run, text, site, print, measure: each may import book and config
    tests/         import book and workshop like any package; nothing imports tests

Each subpackage serves one job:

- workshop.config:  the root, the site paths, the repository, the notebooks in book
  order, the BLAS thread environment, the nbval arguments (one definition each);
- workshop.run:     executing notebooks and running them under other kernels, machines
  and environments (execute, preexecute, blas_env, kernels, arm, perturb, paths, ...);
- workshop.text:    reading a notebook's text (the rules of truth), the generated
  modules (save), git's text view of a notebook;
- workshop.site:    the Sphinx extension, the download copies, the site's assets;
- workshop.print:   the printed book (pdf);
- workshop.measure: timings, weights and shares of a built book (bench, code_share,
  margins).
"""
