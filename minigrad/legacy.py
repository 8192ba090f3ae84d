"""PyTorch's older ways of making tensors, still common in tutorials and lecture notes.

* ``minigrad.Tensor(data)`` and ``Tensor(2, 3)``: the class as a constructor. It always makes
  the default float dtype (``Tensor([1, 2])`` is ``tensor([1., 2.])``), unlike ``tensor()``.
* ``FloatTensor``, ``DoubleTensor``, ``LongTensor``, ``IntTensor``, ``BoolTensor``: the same,
  for one dtype each. ``isinstance(t, minigrad.FloatTensor)`` is true for float32 tensors.
* ``Variable`` (``minigrad.autograd.Variable``): before PyTorch 0.4 a wrapper that gave a
  tensor autograd; now it returns a tensor, with ``requires_grad=`` as asked.
"""

import numbers
import warnings

import numpy as np

from . import devices, dtypes, messages
from .creation import _array_from_data, _shape
from .size import Size
from .tensor import Tensor


def _signature_error(args, kwargs):
    got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
    unknown = ", ".join(k for k in kwargs if k != "device")
    return TypeError(
        f"new() received an invalid combination of arguments - got ({got}), but expected one of:\n"
        " * (*, minigrad.device device = None)\n"
        f"      didn't match because some of the keywords were incorrect: {unknown}\n"
        " * (minigrad.Storage storage)\n"
        " * (Tensor other)\n"
        " * (tuple of ints size, *, minigrad.device device = None)\n"
        " * (object data, *, minigrad.device device = None)\n")


def new(dtype, args, kwargs):
    """What ``Tensor(*args)`` / ``FloatTensor(*args)`` make: a tensor of ``dtype`` (None: the default float).

    ``()`` is an empty tensor; numbers (or one ``Size``) are a shape, left zero; a sequence or a
    NumPy array is data; a Tensor is returned as it is when its dtype fits.
    """
    if set(kwargs) - {"device"}:
        raise _signature_error(args, kwargs)
    devices.check_options(kwargs.get("device"))
    if len(args) == 1 and isinstance(args[0], Tensor):
        other = args[0]
        if dtype is not None and other.dtype != dtype:  # Tensor(t) takes any dtype, FloatTensor(t) float32
            raise TypeError(f"expected {_options(dtype)} (got {_options(other.dtype)})")
        # NB: PyTorch's Tensor(t) is a new tensor on t's memory; minigrad returns t itself.
        return other
    dtype = dtypes.of(dtypes.default_float if dtype is None else dtype)
    if not args:
        return Tensor._wrap(np.empty(0, dtype=dtype.dtype))
    if isinstance(args[0], Size) or all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args):
        # NB: PyTorch leaves these values uninitialised (whatever was in memory); minigrad zeros them.
        return Tensor._wrap(np.zeros(_shape("new", args), dtype=dtype.dtype))
    if len(args) > 1:
        raise TypeError(f"new(): argument 'size' failed to unpack the object at pos 2 with error "
                        f"\"type must be tuple of ints,but got {type(args[1]).__name__}\"")
    data = args[0]
    if not isinstance(data, (list, tuple, np.ndarray)):
        if isinstance(data, str):
            raise TypeError(messages.INVALID_DATA_TYPE.format(type="str"))
        raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    return Tensor._wrap(_array_from_data(data, dtype.dtype))


def _options(dtype):
    name = {dtypes.float32: "float", dtypes.float64: "double", dtypes.int64: "long int"}.get(
        dtype, dtypes.CPP_TYPE_NAMES.get(dtype, str(dtype)))
    return (f"TensorOptions(dtype={name}, device=cpu, layout=Strided, requires_grad=false (default), "
            f"pinned_memory=false (default), memory_format=(nullopt))")


class _LegacyTensorType(type):
    """The metaclass of ``FloatTensor`` ...: calling one makes a tensor, isinstance checks the dtype."""

    def __call__(cls, *args, **kwargs):
        return new(cls.dtype, args, kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == cls.dtype

    def __repr__(cls):
        return f"<class 'minigrad.{cls.__name__}'>"


def _legacy_type(name, dtype):
    return _LegacyTensorType(name, (), {"dtype": dtype, "__doc__": f"A {dtype} tensor: {name}(data) or {name}(*size)."})


FloatTensor = _legacy_type("FloatTensor", dtypes.float32)
DoubleTensor = _legacy_type("DoubleTensor", dtypes.float64)
HalfTensor = _legacy_type("HalfTensor", dtypes.float16)
LongTensor = _legacy_type("LongTensor", dtypes.int64)
IntTensor = _legacy_type("IntTensor", dtypes.int32)
ShortTensor = _legacy_type("ShortTensor", dtypes.int16)
ByteTensor = _legacy_type("ByteTensor", dtypes.uint8)
CharTensor = _legacy_type("CharTensor", dtypes.int8)
BoolTensor = _legacy_type("BoolTensor", dtypes.bool_)


def type_name(tensor):
    """``t.type()``: ``'minigrad.FloatTensor'`` for a float32 tensor."""
    return "minigrad." + dtypes.LEGACY_TYPE_NAMES.get(tensor.dtype, "Tensor")


def type_named(name):
    """The dtype ``t.type(...)`` converts to: a dtype, a legacy class, or its name (``'torch.DoubleTensor'``)."""
    if isinstance(name, _LegacyTensorType):
        return name.dtype
    if isinstance(name, str):
        short = name.split(".", 1)[1] if name.startswith(("torch.", "minigrad.")) else None
        for dtype, legacy in dtypes.LEGACY_TYPE_NAMES.items():
            if short == legacy:
                return dtype
        raise ValueError(f"invalid type: '{name}'")
    return name


def Variable(data=None, requires_grad=False, volatile=False):  # noqa: N802  (PyTorch's name)
    """A tensor on ``data``'s memory, requiring grad if asked: what ``Variable`` has meant since PyTorch 0.4.

    >>> import minigrad
    >>> from minigrad.autograd import Variable
    >>> Variable(minigrad.tensor([1.0, 2.0]), requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    """
    if volatile:
        warnings.warn(messages.VOLATILE_REMOVED, UserWarning, stacklevel=2)
    if data is None:
        data = Tensor._wrap(np.empty(0, dtype=dtypes.default_float.dtype))
    if not isinstance(data, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
    if requires_grad and not data.dtype.is_floating_point:
        raise RuntimeError(messages.NOT_FLOATING_REQUIRES_GRAD_FACTORY)
    out = data.detach()  # the same memory and version counter, outside data's graph
    out._requires_grad = bool(requires_grad)
    return out
