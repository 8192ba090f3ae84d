"""Changing a tensor's dtype, differentiably.

NB: this module defines functions named ``float``, ``int`` and ``bool`` (the
tensor methods ``t.float()`` ...), so it uses NumPy's names for the builtins.
"""

import builtins

import numpy as np

from .. import devices, dtypes
from ..fast_path import quietly
from ..graph import Node
from ..tensor import Tensor


class ToCopy(Node):
    """z = x converted to another dtype        grad_x = grad converted back"""

    may_warn = True

    def forward(self, x, dtype):
        return x.astype(dtype)

    def backward(self, grad):
        return grad.to(self._input_meta[0][1])


def _to_invalid(args, kwargs):
    got = ", ".join([_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()])
    return TypeError(
        f"to() received an invalid combination of arguments - got ({got}), but expected one of:\n"
        " * (minigrad.device device = None, minigrad.dtype dtype = None, bool non_blocking = False, bool copy = False, "
        "*, minigrad.memory_format memory_format = None)\n"
        " * (minigrad.dtype dtype, bool non_blocking = False, bool copy = False, *, minigrad.memory_format "
        "memory_format = None)\n"
        " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, minigrad.memory_format "
        "memory_format = None)\n")


def _type_name(value):
    if isinstance(value, dtypes.dtype):
        return "minigrad.dtype"
    return {"device": "minigrad.device", "Tensor": "Tensor"}.get(type(value).__name__, type(value).__name__)


def _is_dtype(value):
    return isinstance(value, (dtypes.dtype, np.dtype))


def _target(args, kwargs):
    """``(device, dtype, copy)`` from PyTorch's three forms: ``to(device=None, dtype=None, ...)``,
    ``to(dtype, ...)`` and ``to(other_tensor, ...)``; each may add ``non_blocking`` and ``copy``."""
    rest, options = list(args), dict(kwargs)
    if rest and isinstance(rest[0], Tensor):
        if "device" in options or "dtype" in options or any(_is_dtype(a) for a in rest[1:]):
            raise _to_invalid(args, kwargs)
        target_device, dtype = None, rest.pop(0).dtype
    elif rest and _is_dtype(rest[0]):
        target_device, dtype = options.pop("device", None), rest.pop(0)
    else:
        target_device = rest.pop(0) if rest and not isinstance(rest[0], builtins.bool) else options.pop("device", None)
        dtype = rest.pop(0) if rest and _is_dtype(rest[0]) else options.pop("dtype", None)
    if rest and not isinstance(rest[0], builtins.bool) or len(rest) > 2:
        raise _to_invalid(args, kwargs)
    non_blocking = rest.pop(0) if rest else options.pop("non_blocking", False)  # no meaning without a GPU
    copy = rest.pop(0) if rest else options.pop("copy", False)
    devices.check_options(memory_format=options.pop("memory_format", None))
    if options or not isinstance(non_blocking, builtins.bool):
        raise _to_invalid(args, kwargs)
    return target_device, dtype, copy


def to(input, *args, **kwargs):
    """The tensor in another dtype (and on a device): itself when nothing changes.

    Called as ``t.to(dtype)``, ``t.to(device)``, ``t.to(device, dtype)``, ``t.to(other)`` (other's
    dtype and device) or with keywords; ``copy=True`` always makes a new tensor. The device can
    only be the CPU: ``"cuda"`` raises PyTorch's error on a machine without a GPU.

    >>> import minigrad
    >>> minigrad.tensor([1, 2]).to("cpu", minigrad.float32)
    tensor([1., 2.])
    """
    target_device, dtype, copy = _target(args, kwargs)
    if target_device is not None:
        devices.check(target_device)
    if dtype is None or input._data.dtype == dtype:
        if not copy:
            return input
        dtype = input._data.dtype
    dtype = np.dtype(dtype)
    if dtype.kind not in "fc":  # integers and bools carry no gradient: PyTorch records nothing
        # (nan, inf or a number out of range has no integer: the result is whatever C's cast gives,
        # as in PyTorch, and PyTorch says nothing of it, so NumPy's RuntimeWarning is off)
        return Tensor._wrap(quietly(input._data.astype, dtype))
    return ToCopy.apply(input, dtype=dtype)


def float(input):
    return to(input, dtypes.float32)


def double(input):
    return to(input, dtypes.float64)


def half(input):
    return to(input, dtypes.float16)


def long(input):
    return to(input, dtypes.int64)


def int(input):
    return to(input, dtypes.int32)


def bool(input):
    return to(input, dtypes.bool_)


def type_as(input, other):
    return to(input, other.dtype)
