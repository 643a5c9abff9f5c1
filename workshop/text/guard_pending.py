"""Print what the stricter prose guard flags today, in the shape of
tests/prose_guard_pending.yml.

Run it to see what remains; the file itself is edited by hand (it lists
debts, it only shrinks)."""

from workshop.text.notebook_text import (
    ROOT,
    load,
    notebooks,
    typed_figure_numbers,
    unsupported_numbers,
    yaml_quote,
)

for kind, fn in (
    ("quoted_numbers", unsupported_numbers),
    ("figure_numbers", lambda nb: [t for t, _ in typed_figure_numbers(nb)]),
):
    print(f"{kind}:")
    for p in notebooks():
        flags = fn(load(p))
        if flags:
            print(f"  {yaml_quote(p.relative_to(ROOT).as_posix())}:")
            for f in flags:
                print(f"    - {yaml_quote(f)}")
