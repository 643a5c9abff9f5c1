"""Kernels on Unix sockets, for everything here that starts notebook kernels side by
side (nbval's two workers, make paths, make execute).

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


class UnixSocketKernelManager(_OwnSockets, KernelManager):
    """For nbval, which drives its kernels synchronously."""


class AsyncUnixSocketKernelManager(_OwnSockets, AsyncKernelManager):
    """For nbclient (make execute, make paths), whose default manager is the async
    one."""
