"""``minigrad.utils``: PyTorch's ``torch.utils``; here only ``data`` (datasets and loaders)."""

from . import data

__all__ = ["data"]
