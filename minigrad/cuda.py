"""``minigrad.cuda``: PyTorch's ``torch.cuda`` on a machine without a GPU.

minigrad computes with NumPy on the CPU, so it answers as PyTorch built without CUDA
does: ``is_available()`` is False, seeding is accepted and does nothing (PyTorch defers
it until a GPU is used), and what needs a GPU raises PyTorch's AssertionError.
"""

from . import messages


def is_available():
    """False: minigrad has no GPU.

    >>> is_available()
    False
    """
    return False


def device_count():
    """0: minigrad has no GPU."""
    return 0


def manual_seed(seed):
    """Accepted and ignored, as PyTorch does without a GPU (it only seeds GPUs that exist)."""


def manual_seed_all(seed):
    """Accepted and ignored, as PyTorch does without a GPU (it only seeds GPUs that exist)."""


def _needs_a_gpu(*args, **kwargs):
    raise AssertionError(messages.NO_CUDA)


current_device = synchronize = get_device_name = set_device = _needs_a_gpu
