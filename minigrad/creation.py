"""Making tensors: from data, filled, ranges, and random (seeded by ``manual_seed``)."""

import numpy as np

from . import dtypes, messages
from .tensor import Tensor

_generator = np.random.default_rng()


def manual_seed(seed):
    """Seed minigrad's random numbers (``rand``, ``randn``, ``nn.Linear`` init, ...)."""
    global _generator
    _generator = np.random.default_rng(seed)
    return _generator


def _finish(array, requires_grad):
    t = Tensor._wrap(array)
    if requires_grad:
        if not dtypes.is_floating(array.dtype):
            raise RuntimeError(messages.NOT_FLOATING_REQUIRES_GRAD_FACTORY)
        t._requires_grad = True
    return t


def _infer_dtype(data):
    """PyTorch's choice for Python data: floats -> float32, ints -> int64, bools -> bool."""
    array = np.asarray(data)
    if isinstance(data, np.ndarray) or isinstance(data, np.generic):
        return array.dtype
    return {"f": dtypes.default_float, "i": dtypes.int64, "u": dtypes.int64, "b": dtypes.bool_}.get(
        array.dtype.kind, array.dtype)


def tensor(data, dtype=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data``.

    Args:
        data: a number, a (nested) list, a NumPy array or a Tensor.
        dtype: Python floats give float32, ints int64; NumPy arrays keep theirs.
        requires_grad: record operations on it, and collect its gradient in ``.grad``.

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0], requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    >>> minigrad.tensor([1, 2]).dtype
    dtype('int64')
    """
    if isinstance(data, Tensor):
        data = data._data
    elif isinstance(data, (list, tuple)) and any(isinstance(d, Tensor) for d in data):
        data = [np.asarray(d._data if isinstance(d, Tensor) else d) for d in data]
    array = np.array(data, dtype=np.dtype(dtype) if dtype is not None else _infer_dtype(data))
    return _finish(array, requires_grad)


def as_tensor(data, dtype=None):
    if isinstance(data, Tensor) and (dtype is None or data.dtype == dtype):
        return data
    return tensor(data, dtype=dtype)


def from_numpy(array):
    """A tensor sharing memory with a NumPy array."""
    return Tensor._wrap(array)


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def zeros(*size, dtype=None, requires_grad=False):
    return _finish(np.zeros(_size(size), dtype=dtype or dtypes.default_float), requires_grad)


def ones(*size, dtype=None, requires_grad=False):
    return _finish(np.ones(_size(size), dtype=dtype or dtypes.default_float), requires_grad)


def empty(*size, dtype=None, requires_grad=False):
    # NB: PyTorch leaves the memory uninitialised; zeros keep runs reproducible.
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False):
    dtype = dtype or dtypes.dtype_of_python_scalar(fill_value)
    return _finish(np.full(_size((size,)), fill_value, dtype=dtype), requires_grad)


def zeros_like(input, dtype=None, requires_grad=False):
    return _finish(np.zeros(input.shape, dtype=dtype or input.dtype), requires_grad)


def ones_like(input, dtype=None, requires_grad=False):
    return _finish(np.ones(input.shape, dtype=dtype or input.dtype), requires_grad)


def empty_like(input, dtype=None, requires_grad=False):
    return zeros_like(input, dtype=dtype, requires_grad=requires_grad)


def full_like(input, fill_value, dtype=None, requires_grad=False):
    return _finish(np.full(input.shape, fill_value, dtype=dtype or input.dtype), requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False):
    """Evenly spaced values in ``[start, end)``; int64 for ints, float32 if any is a float."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = dtypes.int64 if is_int else dtypes.default_float
    return _finish(np.arange(start, end, step).astype(dtype), requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False):
    return _finish(np.linspace(start, end, steps).astype(dtype or dtypes.default_float), requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False):
    return _finish(np.eye(n, m, dtype=dtype or dtypes.default_float), requires_grad)


def rand(*size, dtype=None, requires_grad=False):
    """Uniform random numbers in [0, 1)."""
    dtype = np.dtype(dtype or dtypes.default_float)
    return _finish(_generator.random(_size(size)).astype(dtype), requires_grad)


def randn(*size, dtype=None, requires_grad=False):
    """Standard normal random numbers."""
    dtype = np.dtype(dtype or dtypes.default_float)
    return _finish(_generator.standard_normal(_size(size)).astype(dtype), requires_grad)


def randint(low, high=None, size=(), dtype=None):
    if high is None:
        low, high = 0, low
    return Tensor._wrap(_generator.integers(low, high, size=size).astype(dtype or dtypes.int64))


def rand_like(input, dtype=None, requires_grad=False):
    return rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, dtype=None, requires_grad=False):
    return randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randperm(n):
    return Tensor._wrap(_generator.permutation(n).astype(dtypes.int64))
