"""workshop/run/kernels.py: each kernel gets Unix sockets in a folder of its own, so kernels
started side by side cannot be handed the same address."""

from __future__ import annotations

import os

import pytest

from workshop.run.kernels import UnixSocketKernelManager  # noqa: E402


@pytest.mark.skipif(os.name != "posix", reason="Unix sockets")
def test_each_kernel_gets_sockets_of_its_own():
    a, b = UnixSocketKernelManager(), UnixSocketKernelManager()
    assert a.transport == b.transport == "ipc"
    assert os.path.isabs(a.ip) and os.path.isdir(os.path.dirname(a.ip))
    assert os.path.dirname(a.ip) != os.path.dirname(b.ip)


def test_nbval_starts_its_kernels_with_it():
    import nbval.kernel

    assert nbval.kernel.KernelManager is UnixSocketKernelManager


@pytest.mark.skipif(os.name != "posix", reason="Unix sockets")
def test_nbclient_gets_the_async_one():
    from jupyter_client.manager import AsyncKernelManager

    from workshop.run.kernels import AsyncUnixSocketKernelManager

    km = AsyncUnixSocketKernelManager()
    assert isinstance(km, AsyncKernelManager) and km.transport == "ipc"
