"""Copy the font files that notebooks/part1/13-typography
measures into fonts/fontsource/.

That page measures the site's IBM Plex faces. They come from npm
(node_modules/@fontsource), which Binder and a plain `pip install -r requirements.txt`
never install, so the repository carries the few files the page reads (1.4 MB, SIL Open
Font License, LICENSE beside them), byte-identical to the pinned npm packages.
`book.page_fonts.font_packages()` finds either copy.

    python -m workshop.site.vendor_fonts          # refresh the copy from node_modules
    python -m workshop.site.vendor_fonts --check  # exit 1 if the copy differs from node_modules
"""

from __future__ import annotations

import filecmp
import shutil
import sys
from pathlib import Path

from workshop.config import NODE_MODULES, ROOT

NODE = NODE_MODULES / "@fontsource"
COPY = ROOT / "fonts" / "fontsource"
# What the typography page reads: the four Latin Plex Sans faces
# and every Korean 400 shard.
WANTED = {
    "ibm-plex-sans": [
        "files/ibm-plex-sans-latin-[47]00-normal.woff2",
        "files/ibm-plex-sans-latin-[47]00-italic.woff2",
        "LICENSE",
    ],
    "ibm-plex-sans-kr": ["files/ibm-plex-sans-kr-[0-9]*-400-normal.woff2", "LICENSE"],
}


def wanted() -> list[Path]:
    return sorted(
        f.relative_to(NODE)
        for pkg, globs in WANTED.items()
        for g in globs
        for f in (NODE / pkg).glob(g)
    )


def main(argv: list[str]) -> int:
    if not NODE.is_dir():
        print(
            "node_modules/@fontsource is missing: run make install first",
            file=sys.stderr,
        )
        return 2
    files = wanted()
    have = (
        sorted(f.relative_to(COPY) for f in COPY.rglob("*") if f.is_file())
        if COPY.is_dir()
        else []
    )
    if "--check" in argv:
        bad = [
            str(f)
            for f in files
            if not (COPY / f).exists()
            or not filecmp.cmp(NODE / f, COPY / f, shallow=False)
        ]
        bad += [f"extra: {f}" for f in set(have) - set(files)]
        for b in bad:
            print(f"fonts/fontsource differs from node_modules: {b}")
        return 1 if bad else 0
    shutil.rmtree(COPY, ignore_errors=True)
    for f in files:
        (COPY / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(NODE / f, COPY / f)
    print(f"fonts/fontsource: {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
