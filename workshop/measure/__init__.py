"""Measuring a book: timings and weights (bench), the share of a page that is code
(code_share), how much of a tolerance each check uses (margins)."""
