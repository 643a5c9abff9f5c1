"""The site machinery: the Sphinx extension, the execution report, the bibliography
style, the download copies and the table of contents reader. No notebook imports it;
the notebook helpers are the modules of `book/` itself, and a download carries only
those."""
