"""``minigrad.accelerator``: PyTorch's ``torch.accelerator`` on a machine without one.

The beginner tutorials pick their device with
``torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"``;
minigrad answers as PyTorch without a GPU does, so they pick ``"cpu"``.
"""


def is_available():
    """False: minigrad computes with NumPy on the CPU.

    >>> is_available()
    False
    """
    return False


def current_accelerator(check_available=False):
    """None: there is no accelerator."""
    return None


def device_count():
    """0: there is no accelerator."""
    return 0
