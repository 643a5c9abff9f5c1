"""Kernels on Unix sockets, for everything here that starts notebook kernels side by
side (nbval's two workers, make paths, make execute), and test kernels that draw no
pixels.

A kernel manager picks each TCP port by binding port 0 and letting it go. Two processes
starting kernels at once can be handed the same port; a client then talks to the other
process's kernel, which ignores its messages (seen once, in make soak: "Kernel didn't
respond in 60 seconds"). Unix sockets in a folder of the kernel's own cannot collide.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager, KernelManager

_folders: list[str] = []
atexit.register(lambda: [shutil.rmtree(f, ignore_errors=True) for f in _folders])


class _OwnSockets:
    """Unix sockets in a new temporary folder (an absolute path: the kernel runs in
    the notebook's folder, not the caller's)."""

    def __init__(self, **kw):
        if os.name == "posix":
            _folders.append(tempfile.mkdtemp(prefix="kernel-"))
            kw.setdefault("transport", "ipc")
            kw.setdefault("ip", os.path.join(_folders[-1], "k"))
        super().__init__(**kw)


#: What a test kernel runs first: show() lays out, measures and checks every figure
#: but encodes no pixel. nbval's sanitizer (tests/nbval-sanitize.cfg) replaces every
#: image before comparing; it compares the alt text and the manifest, made as always.
NO_PIXELS = "import book.style\n\nbook.style.DRAW_PIXELS = False\n"


def no_pixels(ipython_dir: Path) -> Path:
    """Give the IPython folder `ipython_dir` the startup file that turns pixels off in
    every kernel that starts with it."""
    startup = Path(ipython_dir) / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    (startup / "00-book-no-pixels.py").write_text(NO_PIXELS, encoding="utf-8")
    return Path(ipython_dir)


def test_kernels_draw_no_pixels() -> None:
    """For nbval's kernels (conftest.py): a fresh IPython folder with that startup file,
    which the kernels inherit, unless the run names an IPython folder of its own."""
    if os.environ.get("IPYTHONDIR"):
        return
    _folders.append(tempfile.mkdtemp(prefix="ipython-"))
    os.environ["IPYTHONDIR"] = str(no_pixels(Path(_folders[-1])))


class UnixSocketKernelManager(_OwnSockets, KernelManager):
    """For nbval, which drives its kernels synchronously."""


class AsyncUnixSocketKernelManager(_OwnSockets, AsyncKernelManager):
    """For nbclient (make execute, make paths), whose default manager is the async
    one."""
