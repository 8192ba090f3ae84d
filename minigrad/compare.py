"""Comparing whole tensors: ``isclose``, ``allclose`` and ``equal``, with PyTorch's rules.

These are tests on values, not ops of the graph: they return a bool tensor or a Python bool,
and no gradient flows through them. Unlike NumPy's ``allclose``, PyTorch's refuses two
tensors of different dtypes ("Float did not match Double"); ``equal`` does not.
"""

import numpy as np

from . import dtypes, messages
from .ops.operands import broadcast_error
from .tensor import Tensor


def _check_tensors(name, input, other):
    for position, (argument, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise TypeError(messages.ARGUMENT_NOT_TENSOR.format(
                name=name, argument=argument, position=position, type=type(value).__name__))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|input - other| <= atol + rtol * |other|`` (equal infinities are close).

    Args:
        input, other: tensors of the same dtype, broadcastable.
        rtol, atol: relative and absolute tolerance (not negative).
        equal_nan: count two NaNs as close.

    Returns:
        a bool tensor of the broadcast shape.

    >>> import minigrad
    >>> minigrad.isclose(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 2.1]))
    tensor([ True, False])
    """
    _check_tensors("isclose", input, other)
    if input.dtype != other.dtype:
        raise RuntimeError(f"{dtypes.SCALAR_TYPE_NAMES.get(input.dtype, input.dtype)} did not match "
                           f"{dtypes.SCALAR_TYPE_NAMES.get(other.dtype, other.dtype)}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    a, b = input._data, other._data
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    if a.dtype.kind == "b":
        return Tensor._wrap(np.broadcast_to(a == b, shape).copy())
    with np.errstate(all="ignore"):
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return Tensor._wrap(np.broadcast_to(close, shape).copy())


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every element of ``input`` is close to ``other`` (see ``isclose``).

    >>> import minigrad
    >>> minigrad.allclose(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 2.000001]))
    True
    """
    _check_tensors("allclose", input, other)
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


def equal(input, other):
    """True when both tensors have the same shape and the same values (dtypes may differ).

    >>> import minigrad
    >>> minigrad.equal(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1, 2]))
    True
    """
    _check_tensors("equal", input, other)
    return input._data.shape == other._data.shape and bool((input._data == other._data).all())
