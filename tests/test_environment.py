"""What the pinned environment (requirements.txt) must keep out."""

from __future__ import annotations

import re

from workshop.config import ROOT


def test_pins_keep_jsonschema_below_its_slow_iri_check():
    """jsonschema 4.25 put rfc3987-syntax in its format-nongpl extra, which
    jupyter-events asks for. Importing it builds four Earley parsers: 2.2 s in every
    process that imports nbformat (each pytest worker, each notebook make paths runs,
    the JupyterLab server), measured with python -X importtime. The pins stay on 4.24,
    whose extra does not have it."""
    pins = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert not re.search(r"^(rfc3987-syntax|lark)==", pins, re.M | re.I)
    version = re.search(r"^jsonschema==(\d+)\.(\d+)", pins, re.M)
    assert version and (int(version[1]), int(version[2])) < (4, 25), version
