"""Write a placeholder notebook for a chapter listed in _toc.yml but not yet written."""
import sys
from pathlib import Path

import nbformat

for arg in sys.argv[1:]:
    path, title = arg.split("=", 1)
    p = Path(path)
    if p.exists():
        continue
    nb = nbformat.v4.new_notebook()
    nb.metadata["book"] = {"stub": True}
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}\n\nThis chapter is not written yet. Its issue lists what it will measure.")]
    p.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, p)
