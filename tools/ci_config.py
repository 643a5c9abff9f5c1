"""Write the test build's configuration: _config.yml with execution off.

The test build renders the stored outputs, which nbval has just re-executed and
compared cell by cell, so executing every notebook a second time would prove nothing.
"""

import sys
from pathlib import Path

import yaml

root = Path(__file__).resolve().parents[1]
cfg = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
cfg["execute"]["execute_notebooks"] = "off"
out = Path(sys.argv[1] if len(sys.argv) > 1 else "_build/test-config.yml")
out.parent.mkdir(parents=True, exist_ok=True)
out.write_text(yaml.safe_dump(cfg, sort_keys=False), encoding="utf-8")
print(f"wrote {out}")
