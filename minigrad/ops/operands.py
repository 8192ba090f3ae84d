"""Turning the arguments of an op into Tensors of the right dtype.

Python numbers become 0-d tensors of the dtype PyTorch's promotion rule
gives (see ``dtypes.result_type``), so every op's forward sees NumPy arrays
and every backward sees Tensors.
"""

import collections
import functools
import inspect
import math
import numbers

import numpy as np

from ..fast_path import SAFE_FOR_EVERY_FLOAT, quietly
from .. import dtypes, messages
from ..grad_mode import _state
from ..tensor import Tensor


#: What an arithmetic op accepts: tensors, Python and NumPy numbers, NumPy arrays. Concrete types
#: first: isinstance stops at the first match, and the ABC check (numbers.Number) costs more.
OPERAND_TYPES = (Tensor, float, int, np.generic, np.ndarray, numbers.Number)


def is_operand(value):
    """True for what an arithmetic op accepts (``OPERAND_TYPES``)."""
    return isinstance(value, OPERAND_TYPES)


def check_operand(op_name, value):
    """Raise PyTorch's TypeError for ``op_name``'s ``other`` unless ``value`` is an operand.

    (Tensor's operators check ``is_operand`` first and give ``NotImplemented``, so that Python
    raises its own "unsupported operand type(s)" TypeError, as it does for PyTorch.)
    """
    if not is_operand(value):
        raise TypeError(messages.NOT_A_TENSOR.format(op=op_name, type=type(value).__name__))


def as_tensor(value, dtype=None):
    """``value`` as a Tensor (a Tensor is returned as it is, when its dtype fits)."""
    if isinstance(value, Tensor):
        return value if dtype is None or value.dtype == dtype else value.to(dtype)
    if dtype is None:
        dtype = dtypes.dtype_of_python_scalar(value) if np.isscalar(value) else None
    return Tensor._wrap(quietly(np.asarray, value, dtype=dtype))  # (1e300 into float32 is inf, silently)


#: PyTorch's C++ names of the dtypes, in its error for a number that does not fit one.
_CPP_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int8": "int8_t",
                   "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t"}


def checked_number(value, dtype):
    """``value`` unchanged, once PyTorch's check passes for a number written into a tensor of
    ``dtype`` (``fill_``, ``full``, ``clamp``, ``where``, ``masked_fill``, ``x[i] = v``): a finite
    number beyond the dtype's range is an error there. (A number in arithmetic is not checked:
    ``x + 1e300`` is inf.)"""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        return value
    dtype = np.dtype(dtype)
    number = value.item() if isinstance(value, np.generic) else value  # (compared as a Python number:
    if not math.isfinite(number):                                       # NumPy would cast it to the dtype)
        return value
    if dtype.kind == "f":
        too_large = abs(number) > float(np.finfo(dtype).max)
    elif dtype.kind == "i":
        bounds = np.iinfo(dtype)
        too_large = not int(bounds.min) <= number <= int(bounds.max)
    elif dtype.kind == "u" and isinstance(number, int):
        # As C++ (and PyTorch): a negative number whose size fits wraps around (-1 is 255 in uint8).
        largest = int(np.iinfo(dtype).max)
        if not -largest <= number <= largest:
            raise RuntimeError(f"value cannot be converted to type {_CPP_TYPE_NAMES.get(dtype.name, dtype.name)} "
                               "without overflow")
        return number % (largest + 1)
    else:
        return value
    if too_large:
        raise RuntimeError(f"value cannot be converted to type {_CPP_TYPE_NAMES.get(dtype.name, dtype.name)} "
                           "without overflow")
    return value


def wrapped_int(value, dtype):
    """A Python int as an operand of an integer tensor of ``dtype`` (``u8 + 300``, ``i32 > 2**40``):
    PyTorch reads it as a 64-bit integer and casts that to the dtype, wrapping around (300 is 44 in
    uint8), as C++ does. Beyond 64 bits: PyTorch's OverflowError."""
    if value >= 2 ** 64:
        raise OverflowError("int too big to convert")
    if value < -2 ** 63:
        raise OverflowError("can't convert negative int to unsigned")
    bits = dtype.itemsize * 8
    value %= 2 ** bits
    return value - 2 ** bits if dtype.kind == "i" and value >= 2 ** (bits - 1) else value


def _number(value, dtype):
    """A Python number as a 0-d array of a float ``dtype``: too large for it is inf, silently."""
    if -SAFE_FOR_EVERY_FLOAT <= value <= SAFE_FOR_EVERY_FLOAT:
        return np.asarray(value, dtype=dtype)  # (the common case: no overflow to silence)
    return quietly(np.asarray, value, dtype=dtype)


def promote(a, b, op_name="add"):
    """Both operands of a binary op as Tensors of their common dtype.

    A differentiable cast (``to``) is inserted when a tensor's dtype must
    change, so gradients still reach it in its own dtype. Anything but a tensor
    or a number raises PyTorch's TypeError (``op_name`` words the message).
    """
    if isinstance(a, Tensor) and isinstance(b, Tensor) and a._data.dtype == b._data.dtype:
        return a, b  # the common case, kept cheap
    # Next most common: a Python number with a float tensor (x * 2.0), which never widens it.
    if isinstance(b, (int, float)) and isinstance(a, Tensor) and a._data.dtype.kind == "f":
        return a, Tensor._wrap(_number(b, a._data.dtype))
    if isinstance(a, (int, float)) and isinstance(b, Tensor) and b._data.dtype.kind == "f":
        return Tensor._wrap(_number(a, b._data.dtype)), b
    check_operand(op_name, b)
    check_operand(op_name, a)
    dtype = np.dtype(dtypes.result_type(a, b))
    if dtype.kind in "iu":  # (a Python int beside an integer tensor wraps around to its dtype)
        if type(a) is int:
            a = wrapped_int(a, dtype)
        if type(b) is int:
            b = wrapped_int(b, dtype)
    return as_tensor(a, dtype), as_tensor(b, dtype)


def zero_gradient(grad):
    """Zeros shaped as ``grad``: the gradient of an input that does not reach the output
    (PyTorch's ``zeros_like(grad)``).

    Not ``grad * 0``: that is nan wherever ``grad`` is inf or nan, and under ``create_graph``
    it would hang the zeros on the graph, where PyTorch's do not require grad.
    """
    return Tensor._wrap(np.zeros_like(grad._data))


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
    if isinstance(dim, (int, np.integer)):
        dims = (dim,)
    elif isinstance(dim, (tuple, list)):
        dims = tuple(dim)
    else:
        raise TypeError(messages.DIM_NOT_INT.format(type=type(dim).__name__))
    out = []
    for d in dims:
        if not isinstance(d, (int, np.integer)):
            raise TypeError(messages.DIM_NOT_INT.format(type=type(d).__name__))
        if not -rank <= d < rank:
            raise IndexError(messages.DIM_OUT_OF_RANGE.format(low=-rank, high=rank - 1, dim=d))
        if d % rank in out:
            raise RuntimeError(messages.DIM_REPEATED.format(dim=d % rank))
        out.append(d % rank)
    return tuple(sorted(out))


def numpy_names(reduction):
    """Let ``reduction`` also take NumPy's keyword names, as PyTorch does: ``axis=`` for ``dim=``,
    ``keepdims=`` for ``keepdim=`` (``x.sum(axis=0, keepdims=True)``)."""

    known = set(inspect.signature(reduction).parameters)

    @functools.wraps(reduction)
    def with_numpy_names(*args, **kwargs):
        if not kwargs:
            return reduction(*args)  # (the common call: nothing to rename or check)
        if "axis" in kwargs:
            kwargs["dim"] = kwargs.pop("axis")
        if "keepdims" in kwargs:
            kwargs["keepdim"] = kwargs.pop("keepdims")
        if reduction.__name__ in ("sum", "mean") and len(args) == 1:
            # A mistyped keyword (x.sum(dims=0)), or keepdim without a dim (x.sum(keepdim=True)), fits
            # neither of PyTorch's two forms, sum(*, dtype) and sum(dim, keepdim, *, dtype).
            keepdim_alone = "keepdim" in kwargs and "dim" not in kwargs
            if not known.issuperset(kwargs) or (keepdim_alone and "dtype" not in kwargs):
                got = "".join(f"{key}={type(value).__name__}, " for key, value in kwargs.items())
                raise TypeError(messages.INVALID_ARGUMENTS.format(op=reduction.__name__, got=got,
                                                                  signatures=messages.REDUCTION_SIGNATURES))
            if keepdim_alone:
                raise TypeError(f'{reduction.__name__}() missing 1 required positional arguments: "dim"')
        return reduction(*args, **kwargs)

    return with_numpy_names


def apply_with_outputs(node_class, inputs, **params):
    """``Node.apply`` for a node with several outputs (split, unbind, var_mean): a tuple of Tensors.

    Output ``i`` gets ``output_nr = i``, so the engine hands the node one gradient per output
    (None for an output that got none), as PyTorch does for its multi-output nodes.
    """
    if not node_class.several_outputs:  # (the plain backward loop takes its nodes as one-output ones)
        raise TypeError(f"{node_class.__name__} must declare several_outputs = True")
    node = node_class()
    with np.errstate(all="ignore"):
        arrays = node.forward(*[t._data for t in inputs], **params)
    outputs = tuple(Tensor._wrap(np.asarray(a)) for a in arrays)
    if _state.grad_enabled and any(t.requires_grad for t in inputs):
        node.num_outputs = len(outputs)
        node._connect(inputs, outputs[0], params)
        for output_nr, out in enumerate(outputs[1:], 1):
            out._requires_grad, out._grad_fn, out.output_nr = True, node, output_nr
    return outputs


def values_indices(op_name):
    """The pair type ``op_name`` returns (``max(dim)``, ``sort``, ``topk``): PyTorch's ``torch.return_types``.

    A named tuple ``(values, indices)`` that prints as PyTorch's, ``minigrad.return_types.max(...)``.
    """

    def __repr__(self):
        return f"minigrad.return_types.{op_name}(\nvalues={self.values!r},\nindices={self.indices!r})"

    pair = collections.namedtuple(op_name, ["values", "indices"])
    return type(op_name, (pair,), {"__slots__": (), "__repr__": __repr__})


def int_argument(op_name, name, value, position=None):
    """``value`` as an int, or PyTorch's TypeError for an argument that must be one."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    where = f" (position {position})" if position is not None else ""
    raise TypeError(f"{op_name}(): argument '{name}'{where} must be int, not {type(value).__name__}")


def ints_argument(op_name, name, value, position=None):
    """``value`` (an int or a sequence of ints) as a tuple, or PyTorch's TypeError."""
    values = (value,) if isinstance(value, (int, np.integer)) else value
    if not isinstance(values, (tuple, list)) or not all(isinstance(v, (int, np.integer)) for v in values):
        where = f" (position {position})" if position is not None else ""
        raise TypeError(f"{op_name}(): argument '{name}'{where} must be tuple of ints, not {type(value).__name__}")
    return tuple(int(v) for v in values)
