"""Jupyter kernels that can start side by side without colliding.

Over TCP, jupyter_client picks five free ports, lets go of them, and the kernel binds them about a
second later. In that gap another program's outgoing connection can take one of them, and the
kernel dies at start with "Kernel died before replying to kernel_info". A teacher grading many
notebooks at once, or a test suite running on several workers, hits this now and then. So where
the system has Unix sockets, our kernels talk over socket files in a private folder instead,
which no other program can take; elsewhere (Windows) they keep TCP.
"""

import atexit
import os
import shutil
import sys
import tempfile
import uuid

_folder = None


def socket_options():
    """Keyword arguments for a ``KernelManager``: Unix sockets in a private folder where possible.

    Returns ``{}`` (jupyter_client's TCP default) on systems without Unix sockets.
    """
    global _folder
    if os.name == "nt":
        return {}
    if _folder is None:
        # Short on purpose: a socket file's path may be at most about 100 characters.
        _folder = tempfile.mkdtemp(prefix="mg-kernels-")
        atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    return {"transport": "ipc", "ip": os.path.join(_folder, uuid.uuid4().hex[:12])}


def kernel_manager(kernel_name=None):
    """An async kernel manager; ``None`` as the name means this very Python (as nbval's current-env).

    Async because nbclient drives it from its own event loop (the sync one cannot interrupt a
    cell from there, so a timeout would never stop it).
    """
    from jupyter_client import AsyncKernelManager
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager

    if kernel_name is not None:
        return AsyncKernelManager(kernel_name=kernel_name, **socket_options())

    class ThisPython(KernelSpecManager):
        def get_kernel_spec(self, kernel_name):
            return KernelSpec(argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                              display_name="Python (the grader's)", language="python")

    return AsyncKernelManager(kernel_name="python3", kernel_spec_manager=ThisPython(), **socket_options())
