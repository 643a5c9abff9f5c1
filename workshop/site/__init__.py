"""The site machinery: the Sphinx extension (sphinxext, provenance, bibstyle), the
download copies (downloads), the fonts, stylesheets and scripts (assets,
vendor_fonts) and a local server for the site tests (server). No notebook imports
it."""
