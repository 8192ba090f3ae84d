"""Making tensors: from data, filled, ranges, and random (seeded by ``manual_seed``)."""

import numpy as np

from . import dtypes, messages, random
from .tensor import Tensor

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


# Random tensors: the numbers are PyTorch's CPU numbers for the same seed. random.py draws them
# exactly as PyTorch's kernels do; these functions check the arguments and make the tensors.

def _random_float_dtype(dtype, kernel):
    """The floating dtype a random factory makes (default float32); PyTorch's error for another."""
    dtype = dtypes.of(np.dtype(dtypes.default_float if dtype is None else dtype))
    if not dtype.is_floating_point:
        raise NotImplementedError(messages.NOT_IMPLEMENTED_FOR_DTYPE.format(
            kernel=kernel, dtype=dtypes.SCALAR_TYPE_NAMES.get(dtype, dtype)))
    return dtype


def _count(shape):
    return int(np.prod(shape, dtype=np.int64))


def rand(*size, generator=None, dtype=None, requires_grad=False):
    """Uniform random numbers in [0, 1): PyTorch's for the same seed.

    Args:
        *size: the shape, as numbers or one tuple.
        generator: the ``Generator`` to draw from (default: the one ``manual_seed`` seeds).
        dtype: a floating dtype (default float32).
        requires_grad: record operations on the result.

    >>> import minigrad
    >>> _ = minigrad.manual_seed(0)
    >>> minigrad.rand(2, 3)
    tensor([[0.4963, 0.7682, 0.0885],
            [0.1320, 0.3074, 0.6341]])
    """
    shape = _size(size)
    dtype = _random_float_dtype(dtype, "check_uniform_bounds")
    values = random.uniform(random._or_default(generator), _count(shape), dtype)
    return _finish(values.reshape(shape), requires_grad)


def randn(*size, generator=None, dtype=None, requires_grad=False):
    """Standard normal random numbers: PyTorch's for the same seed.

    Args:
        *size: the shape, as numbers or one tuple.
        generator: the ``Generator`` to draw from (default: the one ``manual_seed`` seeds).
        dtype: a floating dtype (default float32).
        requires_grad: record operations on the result.

    >>> import minigrad
    >>> _ = minigrad.manual_seed(42)
    >>> minigrad.randn(3)
    tensor([0.3367, 0.1288, 0.2345])
    """
    shape = _size(size)
    dtype = _random_float_dtype(dtype, "normal_kernel_cpu")
    values = random.normal(random._or_default(generator), _count(shape), dtype)
    return _finish(values.reshape(shape), requires_grad)


def _check_integer_range(low, high, dtype):
    """PyTorch's ``random_`` checks: a non-empty range that the dtype can hold."""
    if low >= high:
        raise RuntimeError(messages.RANDOM_FROM_TO.format(low=low, high=high))
    if dtype.kind in "iub":
        info = np.iinfo(np.int8 if dtype.kind == "b" else dtype.dtype)
        low_limit, high_limit = (0, 1) if dtype.kind == "b" else (info.min, info.max)
        name = dtypes.CPP_TYPE_NAMES.get(dtype, str(dtype))
        if not low_limit <= low <= high_limit:
            raise RuntimeError(messages.RANDOM_TO_OUT_OF_BOUNDS.format(bound="from", dtype=name))
        if not low_limit <= high - 1 <= high_limit:
            raise RuntimeError(messages.RANDOM_TO_OUT_OF_BOUNDS.format(bound="to - 1", dtype=name))


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, requires_grad=False):
    """Random integers in [low, high) (int64 unless ``dtype``): PyTorch's for the same seed.

    Called as ``randint(high, size)`` or ``randint(low, high, size)``.

    >>> import minigrad
    >>> g = minigrad.Generator().manual_seed(2147483647)
    >>> minigrad.randint(0, 10, (5,), generator=g)
    tensor([1, 4, 9, 2, 3])
    """
    if size is None:  # randint(high, size): the first two arguments move up one place
        low, high, size = 0, low, high
    if high is None or size is None:
        raise TypeError("randint() missing required arguments: it takes (high, size) or (low, high, size)")
    shape = _size((size,))
    dtype = dtypes.of(np.dtype(dtypes.int64 if dtype is None else dtype))
    _check_integer_range(low, high, dtype)
    values = random.integers(random._or_default(generator), _count(shape), low, high, dtype)
    return _finish(values.reshape(shape), requires_grad)


def rand_like(input, *, generator=None, dtype=None, requires_grad=False):
    """``rand`` with the shape (and by default the dtype) of ``input``."""
    return rand(*input.shape, generator=generator, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, generator=None, dtype=None, requires_grad=False):
    """``randn`` with the shape (and by default the dtype) of ``input``."""
    return randn(*input.shape, generator=generator, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, requires_grad=False):
    """``randint`` with the shape (and by default the dtype) of ``input``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, input.shape, generator=generator, dtype=dtype or input.dtype,
                   requires_grad=requires_grad)


def randperm(n, *, generator=None, dtype=None, requires_grad=False):
    """A random permutation of ``0 .. n-1``: PyTorch's for the same seed.

    >>> import minigrad
    >>> minigrad.randperm(5, generator=minigrad.Generator().manual_seed(0))
    tensor([4, 0, 1, 3, 2])
    """
    if n < 0:
        raise RuntimeError(messages.RANDPERM_NEGATIVE.format(n=n))
    values = random.permutation(random._or_default(generator), n)
    return _finish(values.astype(np.dtype(dtypes.int64 if dtype is None else dtype)), requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, requires_grad=False):
    """Normal random numbers with the given mean and standard deviation: PyTorch's for the same seed.

    ``mean`` and ``std`` are numbers (then ``size`` is needed) or tensors (the result has their
    broadcast shape and ``mean``'s dtype). As in PyTorch, standard normals are drawn first, then
    multiplied by ``std`` and shifted by ``mean``; two numbers scale inside the draw instead.

    >>> import minigrad
    >>> minigrad.normal(2.0, 3.0, size=(2,), generator=minigrad.Generator().manual_seed(0))
    tensor([6.6230, 1.1197])
    """
    generator = random._or_default(generator)
    mean_is_tensor, std_is_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    if any(isinstance(t, Tensor) and t.requires_grad for t in (mean, std)):
        raise NotImplementedError("minigrad's normal() does not differentiate with respect to mean or std")
    if std_is_tensor and (std._data < 0).any():
        raise RuntimeError(messages.NORMAL_STD_TENSOR)
    if not std_is_tensor and std < 0:
        raise RuntimeError(messages.NORMAL_STD.format(std=std))
    if not (mean_is_tensor or std_is_tensor):
        if size is None:
            raise TypeError("normal() with a number for mean and std needs a size")
        shape = _size((size,))
        dtype = _random_float_dtype(dtype, "normal_kernel_cpu")
        values = random.normal(generator, _count(shape), dtype, mean, std)
        return _finish(values.reshape(shape), requires_grad)
    shapes = [t.shape for t in (mean, std) if isinstance(t, Tensor)]
    shape = np.broadcast_shapes(*shapes)
    dtype = np.dtype((mean if mean_is_tensor else std).dtype)
    if std_is_tensor:  # PyTorch: output.normal_(0, 1).mul_(std).add_(mean)
        values = random.normal(generator, _count(shape), dtype).reshape(shape)
        values = (values * std._data.astype(dtype)).astype(dtype)
    else:  # PyTorch: output.normal_(0, std).add_(mean)
        values = random.normal(generator, _count(shape), dtype, 0.0, std).reshape(shape)
    values = (values + (mean._data if mean_is_tensor else mean)).astype(dtype)
    return _finish(values, requires_grad)


def bernoulli(input, p=None, *, generator=None):
    """0/1 draws, 1 with probability ``input`` (elementwise) or ``p``: PyTorch's for the same seed.

    >>> import minigrad
    >>> minigrad.bernoulli(minigrad.tensor([0.1, 0.9, 0.5]), generator=minigrad.Generator().manual_seed(0))
    tensor([0., 1., 1.])
    """
    generator = random._or_default(generator)
    if p is not None:  # bernoulli(input, p): input only gives the shape and dtype
        if not 0 <= p <= 1:
            raise RuntimeError(messages.BERNOULLI_P.format(p=p))
        values = random.bernoulli(generator, np.full(input.shape, float(p)), input.dtype)
        return _finish(values, False)
    probabilities = input._data
    if probabilities.dtype.kind != "f":
        raise NotImplementedError(messages.NOT_IMPLEMENTED_FOR_DTYPE.format(
            kernel="bernoulli_tensor_cpu_p_", dtype=dtypes.SCALAR_TYPE_NAMES.get(input.dtype, input.dtype)))
    if ((probabilities < 0) | (probabilities > 1)).any():
        raise RuntimeError(messages.BERNOULLI_P_TENSOR)
    return _finish(random.bernoulli(generator, probabilities, probabilities.dtype), False)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices sampled from the rows of ``input`` (non-negative weights): PyTorch's for the same seed.

    >>> import minigrad
    >>> g = minigrad.Generator().manual_seed(2147483647)
    >>> minigrad.multinomial(minigrad.tensor([0.6, 0.3, 0.1]), 5, replacement=True, generator=g)
    tensor([1, 1, 1, 0, 0])
    """
    probs = input._data
    if probs.ndim not in (1, 2):
        raise RuntimeError(messages.MULTINOMIAL_DIM)
    if probs.dtype.kind != "f":
        raise RuntimeError(messages.MULTINOMIAL_DTYPE.format(
            dtype=dtypes.SCALAR_TYPE_NAMES.get(input.dtype, input.dtype)))
    if num_samples <= 0:
        raise RuntimeError(messages.MULTINOMIAL_NO_SAMPLES)
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError(messages.MULTINOMIAL_TOO_MANY)
    rows = probs.reshape(-1, probs.shape[-1])
    if not replacement or num_samples == 1:  # PyTorch's fast path checks the whole tensor at once
        if not (rows.max() < np.inf and rows.min() >= 0):
            raise RuntimeError(messages.MULTINOMIAL_BAD_ENTRY)
        if (rows.sum(axis=-1) == 0).any():
            raise RuntimeError(messages.MULTINOMIAL_ZERO_SUM)
    else:  # its loop checks entry by entry: NaN fails "< 0" first, as NaN >= 0 is false
        for row in rows:
            if not (row >= 0).all():
                raise RuntimeError(messages.MULTINOMIAL_NEGATIVE)
            if not np.isfinite(row).all():
                raise RuntimeError(messages.MULTINOMIAL_NOT_FINITE)
            if not row.sum() > 0:
                raise RuntimeError(messages.MULTINOMIAL_ZERO_SUM)
    values = random.multinomial(random._or_default(generator), probs, num_samples, replacement)
    return _finish(values, False)
