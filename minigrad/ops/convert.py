"""Changing a tensor's dtype, differentiably.

NB: this module defines functions named ``float``, ``int`` and ``bool`` (the
tensor methods ``t.float()`` ...), so it uses NumPy's names for the builtins.
"""

import numpy as np

from .. import dtypes
from ..function import Node


class ToCopy(Node):
    """z = x converted to another dtype        grad_x = grad converted back"""

    def forward(self, x, dtype):
        return x.astype(dtype)

    def backward(self, grad):
        return grad.to(self._input_meta[0][1])


def to(input, dtype=None, *args, **kwargs):
    """The tensor in ``dtype`` (itself if it already is)."""
    if dtype is None or isinstance(dtype, str):
        return input  # device arguments: minigrad only has the CPU
    dtype = np.dtype(dtype)
    if input.dtype == dtype:
        return input
    return ToCopy.apply(input, dtype=dtype)


def float(input):
    return to(input, dtypes.float32)


def double(input):
    return to(input, dtypes.float64)


def long(input):
    return to(input, dtypes.int64)


def int(input):
    return to(input, dtypes.int32)


def bool(input):
    return to(input, dtypes.bool_)


def type_as(input, other):
    return to(input, other.dtype)
