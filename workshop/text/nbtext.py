"""A notebook as a reviewer reads it: cell sources and printed outputs, no base64.

git calls it as a text converter (see .gitattributes and `make install`), so
`git diff` and `git log -p` on an .ipynb show changed code and changed numbers:

    python -m workshop.text.nbtext notebooks/part1/08-attention.ipynb
"""

from __future__ import annotations

import hashlib
import json
import re
import sys

B64 = re.compile(r"data:image/([a-z+]+);base64,([A-Za-z0-9+/=]+)")


def _short(m: re.Match) -> str:
    digest = hashlib.sha256(m.group(2).encode()).hexdigest()[:12]
    return f"data:image/{m.group(1)};sha256={digest}"


def text(nb: dict) -> str:
    lines = []
    for i, cell in enumerate(nb.get("cells", [])):
        src = "".join(cell.get("source", ""))
        lines.append(f"## cell {i} {cell['cell_type']} id={cell.get('id', '?')}")
        lines.append(src)
        for out in cell.get("outputs", []):
            body = out.get("text", "")
            data = out.get("data", {})
            for mime in ("text/plain", "text/html", "text/markdown"):
                if mime in data:
                    body += f"[{mime}] " + "".join(data[mime])
            body = B64.sub(_short, "".join(body))
            body = re.sub(r"(?<=[>,])(?=[<\"])", "\n", body)
            lines.append("> " + body.replace("\n", "\n> "))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(text(json.load(f)))
