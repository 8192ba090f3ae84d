"""Making tensors: from data, filled, ranges, and random (PyTorch's numbers for the same seed).

Every factory takes PyTorch's keywords: ``dtype=``, ``requires_grad=``, and the ones about where
the memory lives (``device=``, ``layout=``, ``pin_memory=``), which ``devices.check_options``
reads: minigrad keeps every tensor in a NumPy array on the CPU.
"""

import numbers
import warnings

import numpy as np

from . import devices, dtypes, messages, random
from .fast_path import quietly
from .ops.operands import checked_number
from .tensor import Tensor


def _finish(array, requires_grad):
    t = Tensor._wrap(array)
    if requires_grad:
        if not dtypes.is_floating(array.dtype):
            raise RuntimeError(messages.NOT_FLOATING_REQUIRES_GRAD_FACTORY)
        t._requires_grad = True
    return t


def _no_out(out):
    if out is not None:
        raise NotImplementedError("minigrad's factories make a new tensor; they take no out= tensor")


# --- from data -------------------------------------------------------------------------------------

def _array_from_data(data, dtype):
    """``data`` (numbers, nested sequences, NumPy arrays, one-element tensors) as a NumPy array.

    Unless ``dtype`` is given, the dtype is PyTorch's choice: NumPy arrays and scalars keep
    theirs; Python floats give the default float, ints int64, bools bool. What PyTorch refuses
    raises its error.
    """
    if isinstance(data, (np.ndarray, np.generic)):
        return np.array(data, dtype=dtype)
    if isinstance(data, (list, tuple)):
        data = _scalars_of_tensors(data)
    try:
        array = np.array(data)
    except (ValueError, OverflowError):
        array = None  # ragged, or an int too large: let _check_data name the problem
    if array is None or array.dtype.kind in "OUSV":  # objects, strings, bytes: not numbers
        _check_data(data)
        raise TypeError(messages.INVALID_DATA_TYPE.format(type=type(data).__name__))
    if array.dtype.kind == "u":  # NumPy's choice for an int beyond int64
        raise ValueError(messages.INTEGER_OVERFLOW)
    if dtype is not None:
        return quietly(array.astype, dtype, copy=False)  # (1e300 into float32 is inf, silently)
    if isinstance(_first_number(data), np.generic):
        return array  # NumPy numbers keep their dtype in a list too: [np.float64(1.0)] is float64
    python_kind = {"f": dtypes.default_float, "c": dtypes.default_float.to_complex(), "i": dtypes.int64}
    target = python_kind.get(array.dtype.kind)
    return array if target is None else quietly(array.astype, target.dtype, copy=False)


def _first_number(data):
    while isinstance(data, (list, tuple)) and data:
        data = data[0]
    return data


def _scalars_of_tensors(data):
    """A list may hold one-element tensors (``[loss1, loss2]``); they count as their numbers."""
    if not any(isinstance(d, (Tensor, list, tuple)) for d in data):
        return data
    out = []
    for d in data:
        if isinstance(d, Tensor):
            if d._data.size != 1:
                raise ValueError(messages.ONE_ELEMENT_TO_SCALAR)
            d = d._data.reshape(()).item()
        elif isinstance(d, (list, tuple)):
            d = _scalars_of_tensors(d)
        out.append(d)
    return out


def _check_data(data, dim=0):
    """Walk data NumPy could not read, to raise PyTorch's error for the first bad part."""
    if isinstance(data, (str, bytes)):
        raise TypeError(messages.INVALID_DATA_TYPE.format(type=type(data).__name__))
    if isinstance(data, (list, tuple)):
        first = len(data[0]) if data and isinstance(data[0], (list, tuple)) else None
        for item in data:
            got = len(item) if isinstance(item, (list, tuple)) else None
            if first is not None and got != first:
                raise ValueError(messages.RAGGED_SEQUENCE.format(expected=first, dim=dim + 1, got=got or 0))
            _check_data(item, dim + 1)
        return
    if isinstance(data, numbers.Integral) and not -(1 << 63) <= data < (1 << 63):
        raise ValueError(messages.INTEGER_OVERFLOW)
    if not isinstance(data, (numbers.Number, np.generic, np.ndarray, Tensor)):
        raise RuntimeError(messages.CANNOT_INFER_DTYPE.format(type=type(data).__name__))


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data``.

    Args:
        data: a number, a (nested) list or tuple, a NumPy array or a Tensor.
        dtype: Python floats give float32 (the default dtype), ints int64, bools bool;
            NumPy arrays keep theirs.
        device: only the CPU (``"cuda"`` raises PyTorch's error on a machine without a GPU).
        requires_grad: record operations on it, and collect its gradient in ``.grad``.
        pin_memory: only False (pinned memory needs a GPU).

    >>> import minigrad
    >>> minigrad.tensor([1.0, 2.0], requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    >>> minigrad.tensor([1, 2]).dtype
    minigrad.int64
    """
    devices.check_options(device, None, pin_memory)
    if isinstance(data, Tensor):
        warnings.warn(messages.COPY_CONSTRUCT.format(call="minigrad.tensor"), UserWarning, stacklevel=2)
        array = np.array(data._data, dtype=dtype)
    else:
        array = _array_from_data(data, dtype)
    return _finish(array, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """``data`` as a tensor, sharing memory where it can (a Tensor, a NumPy array of that dtype).

    >>> import numpy as np, minigrad
    >>> a = np.array([1.0, 2.0])
    >>> t = minigrad.as_tensor(a); a[0] = 5.0; t
    tensor([5., 2.], dtype=minigrad.float64)
    """
    devices.check_options(device)
    if isinstance(data, Tensor):
        return data if dtype is None or data.dtype == dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or data.dtype == dtype):
        return Tensor._wrap(data)
    return tensor(data, dtype=dtype)


def from_numpy(ndarray):
    """A tensor sharing memory with a NumPy array (changing one changes the other).

    >>> import numpy as np, minigrad
    >>> minigrad.from_numpy(np.array([1, 2]))
    tensor([1, 2])
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    return Tensor._wrap(ndarray)


# --- filled with one value ---------------------------------------------------------------------------

def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _shape(name, size, size_keyword=None):
    """The shape a factory was given, as numbers (``zeros(2, 3)``) or one sequence (``zeros((2, 3))``,
    ``zeros(size=(2, 3))``), checked as PyTorch checks it."""
    shape = _size(size if size_keyword is None else (size_keyword,))
    for s in shape:
        if not isinstance(s, (numbers.Integral, Tensor)) or isinstance(s, Tensor) and s._data.dtype.kind not in "iu":
            raise TypeError(messages.SIZE_NOT_INTS.format(name=name, type=type(s).__name__))
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        if name in ("zeros", "full", "eye"):
            raise RuntimeError(messages.NEGATIVE_DIMENSION_SIZE.format(name=name))
        negative = next(s for s in shape if s < 0)
        raise RuntimeError(messages.NEGATIVE_DIMENSION.format(dim=negative, shape=list(shape)))
    return shape


def _filled(name, sizes, size, value, out, dtype, layout, device, requires_grad, pin_memory):
    _no_out(out)
    devices.check_options(device, layout, pin_memory)
    shape = _shape(name, sizes, size)
    dtype = dtypes.default_float if dtype is None else dtype
    return _finish(np.full(shape, checked_number(value, dtype), dtype=dtype), requires_grad)


# NB: the shape is ``*sizes`` here, not PyTorch's ``*size``: Python cannot also take a ``size=`` keyword then.
def zeros(*sizes, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """A tensor of zeros: ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))``; float32 unless ``dtype``.

    >>> import minigrad
    >>> minigrad.zeros(2, dtype=minigrad.int64)
    tensor([0, 0])
    """
    return _filled("zeros", sizes, size, 0, out, dtype, layout, device, requires_grad, pin_memory)


def ones(*sizes, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """A tensor of ones, shaped as for ``zeros``.

    >>> import minigrad
    >>> minigrad.ones(2, 2)
    tensor([[1., 1.],
            [1., 1.]])
    """
    return _filled("ones", sizes, size, 1, out, dtype, layout, device, requires_grad, pin_memory)


def empty(*sizes, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, memory_format=None):
    """A tensor whose values are not set, shaped as for ``zeros``.

    >>> import minigrad
    >>> minigrad.empty(2, 3).shape
    minigrad.Size([2, 3])
    """
    # NB: PyTorch leaves the memory uninitialised (any values); minigrad zeros it, so runs are reproducible.
    devices.check_options(memory_format=memory_format)
    return _filled("empty", sizes, size, 0, out, dtype, layout, device, requires_grad, pin_memory)


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """A tensor of ``size`` (a sequence) filled with ``fill_value``; its dtype is the value's
    (bool, int64, or the default float) unless ``dtype``.

    >>> import minigrad
    >>> minigrad.full((2, 3), 7)
    tensor([[7, 7, 7],
            [7, 7, 7]])
    """
    if not isinstance(size, (tuple, list)):
        raise TypeError(messages.SIZE_NOT_INTS.format(name="full", type=type(size).__name__))
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if dtype is None:
        dtype = dtypes.dtype_of_python_scalar(fill_value)
    return _filled("full", (size,), None, fill_value, out, dtype, layout, device, requires_grad, pin_memory)


def _check_like_input(name, input):
    if not isinstance(input, Tensor):
        raise TypeError(messages.ARGUMENT_NOT_TENSOR.format(
            name=name, argument="input", position=1, type=type(input).__name__))


def _like(name, input, value, dtype, layout, device, requires_grad, memory_format):
    """A new tensor with ``input``'s shape and (unless ``dtype``) dtype, filled with ``value``."""
    _check_like_input(name, input)
    devices.check_options(device, layout, memory_format=memory_format)
    dtype = input._data.dtype if dtype is None else dtype
    return _finish(np.full(input._data.shape, checked_number(value, dtype), dtype=dtype),
                   requires_grad)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Zeros with the shape and (unless ``dtype``) the dtype of ``input``.

    >>> import minigrad
    >>> minigrad.zeros_like(minigrad.ones(2), dtype=minigrad.int64)
    tensor([0, 0])
    """
    return _like("zeros_like", input, 0, dtype, layout, device, requires_grad, memory_format)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Ones with the shape and (unless ``dtype``) the dtype of ``input``."""
    return _like("ones_like", input, 1, dtype, layout, device, requires_grad, memory_format)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Like ``empty``: the shape and dtype of ``input``, values not set (minigrad: zeros)."""
    return _like("empty_like", input, 0, dtype, layout, device, requires_grad, memory_format)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
    """``fill_value`` everywhere, with the shape and (unless ``dtype``) the dtype of ``input``.

    >>> import minigrad
    >>> minigrad.full_like(minigrad.ones(2, dtype=minigrad.int64), 3.7)
    tensor([3, 3])
    """
    return _like("full_like", input, fill_value, dtype, layout, device, requires_grad, memory_format)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """The ``n`` x ``m`` identity matrix (``m`` defaults to ``n``).

    >>> import minigrad
    >>> minigrad.eye(2)
    tensor([[1., 0.],
            [0., 1.]])
    """
    _no_out(out)
    devices.check_options(device, layout, pin_memory)
    n, m = _shape("eye", (n, n if m is None else m))
    return _finish(np.eye(n, m, dtype=dtypes.default_float if dtype is None else dtype), requires_grad)


# --- ranges --------------------------------------------------------------------------------------------

def _number(value):
    return value.item() if isinstance(value, Tensor) else value


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Evenly spaced values ``start, start + step, ...`` below ``end`` (``arange(n)`` is ``0 .. n-1``).

    int64 when all are ints, else the default float. As PyTorch, the length is
    ``ceil((end - start) / step)`` in double precision, and the values are its kernel's
    (``start + i * step`` in double, see ``_arange_values``).

    >>> import minigrad
    >>> minigrad.arange(5)
    tensor([0, 1, 2, 3, 4])
    >>> minigrad.arange(0, 1, 0.25)
    tensor([0.0000, 0.2500, 0.5000, 0.7500])
    """
    _no_out(out)
    devices.check_options(device, layout)
    if end is None:
        start, end = 0, start
    start, end, step = _number(start), _number(end), _number(step)
    if dtype is None:
        integral = all(isinstance(v, numbers.Integral) for v in (start, end, step))
        dtype = dtypes.int64 if integral else dtypes.default_float
    dtype = dtypes.of(dtype)
    if dtype.kind in "iub":  # PyTorch converts the bounds to the integer type first
        start, end, step = int(start), int(end), int(step)
    if step == 0:
        raise RuntimeError(messages.STEP_ZERO)
    if (end - start) * step < 0:  # PyTorch's check: the step points away from end
        raise RuntimeError(messages.STEP_SIGN)
    if dtype.kind in "iub":
        return _finish(np.arange(start, end, step, dtype=dtype.dtype), requires_grad)
    length = max(0, int(np.ceil((float(end) - float(start)) / float(step))))
    return _finish(_arange_values(float(start), float(step), length, dtype.dtype), requires_grad)


def _arange_values(start, step, length, dtype):
    """PyTorch's CPU arange kernel, value for value (measured against its AVX2 build).

    It computes in double with fused multiply-adds. The vectorised loop takes blocks of two
    vectors (4 doubles or 8 floats each): each vector starts at ``start + k * step``, rounded
    to the dtype, and adds ``j * step`` for its lanes; the last elements, fewer than a block,
    are ``start + k * step`` one by one.
    """
    # NB: on a CPU with AVX-512 (vectors twice as long), or past 8192 elements split among
    # threads, PyTorch's last bits can differ from these.
    lanes = 4 if dtype == np.float64 else 8
    index = np.arange(length, dtype=np.float64)
    values = random._fma(index, step, start).astype(dtype)
    blocked = length - length % (2 * lanes)
    lane = index[:blocked] % lanes
    vector_start = random._fma(index[:blocked] - lane, step, start).astype(dtype).astype(np.float64)
    values[:blocked] = random._fma(lane, step, vector_start).astype(dtype)
    return values


def _linspace_values(start, end, steps, dtype):
    """PyTorch's linspace kernel: the first half counts up from ``start``, the second down from
    ``end``, so both ends are exact. Float dtypes work in their own precision with fused
    multiply-adds (one rounding), integer dtypes in double, truncated at the end."""
    if dtype.kind in "iub":  # PyTorch converts the ends to the integer type first
        start, end = int(start), int(end)
    work = dtype.dtype if dtype.kind == "f" else np.dtype(np.float64)
    start, end = work.type(start), work.type(end)
    if steps == 1:
        return np.full(1, start, dtype=work)
    step = (end - start) / work.type(steps - 1)
    index = np.arange(steps, dtype=np.float64)
    halfway = steps // 2
    up = random._fma(index[:halfway].astype(work), step, start)
    down = random._fma((steps - 1 - index[halfway:]).astype(work), -step, end)
    return np.concatenate([up, down])


def _check_steps(steps):
    if not isinstance(steps, numbers.Integral):
        raise TypeError(f"linspace(): argument 'steps' (position 3) must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError(messages.NEGATIVE_STEPS)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end``, both included (default float dtype).

    >>> import minigrad
    >>> minigrad.linspace(0, 1, 5)
    tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    _no_out(out)
    devices.check_options(device, layout)
    _check_steps(steps)
    dtype = dtypes.of(dtypes.default_float if dtype is None else dtype)
    values = _linspace_values(_number(start), _number(end), steps, dtype)
    return _finish(values.astype(dtype.dtype), requires_grad)


def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """``base ** linspace(start, end, steps)`` (default float dtype).

    >>> import minigrad
    >>> minigrad.logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    """
    _no_out(out)
    devices.check_options(device, layout)
    _check_steps(steps)
    dtype = dtypes.of(dtypes.default_float if dtype is None else dtype)
    exponents = _linspace_values(_number(start), _number(end), steps, dtype)
    return _finish(np.power(float(base), exponents.astype(np.float64)).astype(dtype.dtype), requires_grad)


# --- Tensor.new_*: a new tensor with another tensor's dtype (and device) unless told otherwise -----------

def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    """``tensor(data)`` in ``self``'s dtype (unless ``dtype``).

    >>> import minigrad
    >>> minigrad.ones(1, dtype=minigrad.float64).new_tensor([1, 2])
    tensor([1., 2.], dtype=minigrad.float64)
    """
    devices.check_options(device, layout, pin_memory)
    dtype = self.dtype if dtype is None else dtype
    if isinstance(data, Tensor):
        warnings.warn(messages.COPY_CONSTRUCT.format(call="tensor.new_tensor"), UserWarning, stacklevel=3)
        return _finish(np.array(data._data, dtype=dtype), requires_grad)
    return _finish(_array_from_data(data, dtype), requires_grad)


def _new_filled(name, self, sizes, size, value, dtype, layout, device, requires_grad, pin_memory):
    return _filled(name, sizes, size, value, None, self.dtype if dtype is None else dtype, layout, device,
                   requires_grad, pin_memory)


def new_zeros(self, *sizes, size=None, dtype=None, layout=None, device=None, requires_grad=False,
              pin_memory=False):
    """``zeros(*size)`` in ``self``'s dtype (unless ``dtype``)."""
    return _new_filled("new_zeros", self, sizes, size, 0, dtype, layout, device, requires_grad, pin_memory)


def new_ones(self, *sizes, size=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """``ones(*size)`` in ``self``'s dtype (unless ``dtype``)."""
    return _new_filled("new_ones", self, sizes, size, 1, dtype, layout, device, requires_grad, pin_memory)


def new_empty(self, *sizes, size=None, dtype=None, layout=None, device=None, requires_grad=False,
              pin_memory=False):
    """``empty(*size)`` in ``self``'s dtype (unless ``dtype``); minigrad zeros it, as ``empty``."""
    return _new_filled("new_empty", self, sizes, size, 0, dtype, layout, device, requires_grad, pin_memory)


def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """``full(size, fill_value)`` in ``self``'s dtype (unless ``dtype``).

    >>> import minigrad
    >>> minigrad.ones(1).new_full((2,), 3)
    tensor([3., 3.])
    """
    if not isinstance(size, (tuple, list)):
        raise TypeError(messages.SIZE_NOT_INTS.format(name="new_full", type=type(size).__name__))
    return _new_filled("new_full", self, (size,), None, fill_value, dtype, layout, device, requires_grad,
                       pin_memory)


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


def rand(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """Uniform random numbers in [0, 1): PyTorch's for the same seed.

    Args:
        *sizes: the shape, as numbers or one sequence (or ``size=``).
        generator: the ``Generator`` to draw from (default: the one ``manual_seed`` seeds).
        dtype: a floating dtype (default float32).
        requires_grad: record operations on the result.

    >>> import minigrad
    >>> _ = minigrad.manual_seed(0)
    >>> minigrad.rand(2, 3)
    tensor([[0.4963, 0.7682, 0.0885],
            [0.1320, 0.3074, 0.6341]])
    """
    _no_out(out)
    devices.check_options(device, layout, pin_memory)
    shape = _shape("rand", sizes, size)
    dtype = _random_float_dtype(dtype, "check_uniform_bounds")
    values = random.uniform(random._or_default(generator), _count(shape), dtype)
    return _finish(values.reshape(shape), requires_grad)


def randn(*sizes, size=None, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """Standard normal random numbers: PyTorch's for the same seed.

    Args:
        *sizes: the shape, as numbers or one sequence (or ``size=``).
        generator: the ``Generator`` to draw from (default: the one ``manual_seed`` seeds).
        dtype: a floating dtype (default float32).
        requires_grad: record operations on the result.

    >>> import minigrad
    >>> _ = minigrad.manual_seed(42)
    >>> minigrad.randn(3)
    tensor([0.3367, 0.1288, 0.2345])
    """
    _no_out(out)
    devices.check_options(device, layout, pin_memory)
    shape = _shape("randn", sizes, size)
    dtype = _random_float_dtype(dtype, "normal_kernel_cpu")
    values = random.normal(random._or_default(generator), _count(shape), dtype)
    return _finish(values.reshape(shape), requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False, pin_memory=False):
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
    _no_out(out)
    devices.check_options(device, layout, pin_memory)
    shape = _shape("randint", (size,))
    dtype = dtypes.of(np.dtype(dtypes.int64 if dtype is None else dtype))
    random.check_integer_range(low, high, dtype)
    values = random.integers(random._or_default(generator), _count(shape), low, high, dtype)
    return _finish(values.reshape(shape), requires_grad)


def rand_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
    """``rand`` with the shape (and by default the dtype) of ``input``."""
    _check_like_input("rand_like", input)
    devices.check_options(memory_format=memory_format)
    return rand(input.shape, generator=generator, dtype=dtype or input.dtype, layout=layout, device=device,
                requires_grad=requires_grad)


def randn_like(input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None):
    """``randn`` with the shape (and by default the dtype) of ``input``."""
    _check_like_input("randn_like", input)
    devices.check_options(memory_format=memory_format)
    return randn(input.shape, generator=generator, dtype=dtype or input.dtype, layout=layout, device=device,
                 requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None):
    """``randint`` with the shape (and by default the dtype) of ``input``."""
    _check_like_input("randint_like", input)
    devices.check_options(memory_format=memory_format)
    if high is None:
        low, high = 0, low
    return randint(low, high, input.shape, generator=generator, dtype=dtype or input.dtype, layout=layout,
                   device=device, requires_grad=requires_grad)


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """A random permutation of ``0 .. n-1``: PyTorch's for the same seed.

    >>> import minigrad
    >>> minigrad.randperm(5, generator=minigrad.Generator().manual_seed(0))
    tensor([4, 0, 1, 3, 2])
    """
    _no_out(out)
    devices.check_options(device, layout, pin_memory)
    if n < 0:
        raise RuntimeError(messages.NEGATIVE_DIMENSION.format(dim=n, shape=[n]))
    values = random.permutation(random._or_default(generator), n)
    return _finish(values.astype(np.dtype(dtypes.int64 if dtype is None else dtype)), requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False):
    """Normal random numbers with the given mean and standard deviation: PyTorch's for the same seed.

    ``mean`` and ``std`` are numbers (then ``size`` is needed) or tensors (the result has their
    broadcast shape and ``mean``'s dtype). As in PyTorch, standard normals are drawn first, then
    multiplied by ``std`` and shifted by ``mean``; two numbers scale inside the draw instead.

    >>> import minigrad
    >>> minigrad.normal(2.0, 3.0, size=(2,), generator=minigrad.Generator().manual_seed(0))
    tensor([6.6230, 1.1197])
    """
    _no_out(out)
    devices.check_options(device, layout, pin_memory)
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
        shape = _shape("normal", (size,))
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
