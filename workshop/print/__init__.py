"""The printed book: one PDF of the whole book (pdf)."""
