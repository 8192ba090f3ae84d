"""Turning the arguments of an op into Tensors of the right dtype.

Python numbers become 0-d tensors of the dtype PyTorch's promotion rule
gives (see ``dtypes.result_type``), so every op's forward sees NumPy arrays
and every backward sees Tensors.
"""

import numpy as np

from .. import dtypes, messages
from ..tensor import Tensor


def as_tensor(value, dtype=None):
    """``value`` as a Tensor (a Tensor is returned as it is, when its dtype fits)."""
    if isinstance(value, Tensor):
        return value if dtype is None or value.dtype == dtype else value.to(dtype)
    if dtype is None:
        dtype = dtypes.dtype_of_python_scalar(value) if np.isscalar(value) else None
    return Tensor._wrap(np.asarray(value, dtype=dtype))


def promote(a, b):
    """Both operands of a binary op as Tensors of their common dtype.

    A differentiable cast (``to``) is inserted when a tensor's dtype must
    change, so gradients still reach it in its own dtype.
    """
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a._data.dtype == b._data.dtype:
        return a, b  # the common case, kept cheap
    # Next most common: a Python number with a float tensor (x * 2.0), which never widens it.
    if isinstance(b, (int, float)) and isinstance(a, Tensor) and a._data.dtype.kind == "f":
        return a, Tensor._wrap(np.asarray(b, dtype=a._data.dtype))
    if isinstance(a, (int, float)) and isinstance(b, Tensor) and b._data.dtype.kind == "f":
        return Tensor._wrap(np.asarray(a, dtype=b._data.dtype)), b
    dtype = dtypes.result_type(a, b)
    return as_tensor(a, dtype), as_tensor(b, dtype)


def broadcast_error(shape_a, shape_b):
    """PyTorch's message for two shapes that do not broadcast."""
    sa, sb = tuple(shape_a)[::-1], tuple(shape_b)[::-1]
    for i in range(max(len(sa), len(sb))):
        da = sa[i] if i < len(sa) else 1
        db = sb[i] if i < len(sb) else 1
        if da != db and da != 1 and db != 1:
            dim = max(len(sa), len(sb)) - 1 - i
            return RuntimeError(messages.BROADCAST_SHAPES.format(a=da, b=db, dim=dim))
    return RuntimeError(f"shapes {list(shape_a)} and {list(shape_b)} cannot be broadcast")


def normalize_dim(dim, ndim):
    """A dim (int or tuple, possibly negative) as a sorted tuple of axes, or None for all."""
    if dim is None:
        return None
    rank = max(ndim, 1)
    if type(dim) is int and -rank <= dim < rank:
        return (dim % rank,)  # the common case, kept cheap
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    out = []
    for d in dims:
        if not -rank <= d < rank:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {d})"
            )
        out.append(d % rank)
    return tuple(sorted(set(out)))
