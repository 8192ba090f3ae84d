"""Data types, and how the result dtype of an operation is chosen.

A minigrad dtype (``minigrad.float32``) is a thin named wrapper around a NumPy
dtype: it prints as PyTorch's does (``minigrad.float32``), and NumPy accepts it
wherever it takes a dtype, because NumPy reads any object's ``.dtype``
attribute (``np.zeros(2, dtype=minigrad.float32)`` works). It also compares
equal to its NumPy dtype and hashes like it, so a table keyed by either finds
both. ``Tensor.dtype`` is one dict lookup (``of(array.dtype)``).

The promotion rule is PyTorch's, not NumPy's: a Python number never widens a
tensor (``float32 * 2.5`` stays float32), and a 0-d tensor only matters when it
brings a higher category (bool < integer < floating point) than the tensors
that have dimensions.
"""

import builtins

import numpy as np


class dtype:  # noqa: N801  (PyTorch's class name: torch.dtype)
    """A tensor's element type, PyTorch's ``torch.dtype``: a name over a NumPy dtype.

    Attributes:
        dtype: the NumPy dtype it stands for (what NumPy reads when given this object).
        is_floating_point, is_complex, is_signed, itemsize: as PyTorch's.

    >>> import minigrad
    >>> minigrad.float32
    minigrad.float32
    >>> minigrad.float == minigrad.float32, minigrad.float32.itemsize
    (True, 4)
    >>> import numpy as np
    >>> np.zeros(2, dtype=minigrad.float64).dtype
    dtype('float64')
    """

    __slots__ = ("dtype", "kind", "itemsize", "is_floating_point", "is_complex", "is_signed", "_name")

    def __init__(self, numpy_dtype, name):
        self.dtype = np.dtype(numpy_dtype)
        self.kind = self.dtype.kind  # NumPy's one-letter kind ("f", "i", "u", "b", "c"), used by the ops
        self.itemsize = self.dtype.itemsize
        self.is_floating_point = self.kind == "f"
        self.is_complex = self.kind == "c"
        self.is_signed = self.kind in "fic"
        self._name = name

    def __repr__(self):
        return f"minigrad.{self._name}"

    def __eq__(self, other):
        # NB: PyTorch's dtypes are not equal to NumPy's; ours are, so that code written
        # against NumPy dtypes (ours and the user's) keeps working. There is one object per
        # dtype, so two of ours are equal only when they are the same object.
        if other.__class__ is dtype:
            return self is other
        return self.dtype == other

    def __ne__(self, other):  # spelled out: the engine compares dtypes on every edge
        if other.__class__ is dtype:
            return self is not other
        return self.dtype != other

    def __hash__(self):
        return hash(self.dtype)

    def __reduce__(self):
        return (of, (self.dtype,))  # pickling and deepcopy give back the one instance

    def to_real(self):
        return of(np.empty(0, self.dtype).real.dtype)

    def to_complex(self):
        return of(np.result_type(self.dtype, np.complex64))


class _ByNumpyDtype(dict):
    """NumPy dtype -> minigrad dtype; a dtype not made below gets one on first sight."""

    def __missing__(self, numpy_dtype):
        native = numpy_dtype.newbyteorder("=")  # big-endian data read from a file is still float32
        if native != numpy_dtype and native in self:
            made = self[native]
        else:
            made = dtype(numpy_dtype, numpy_dtype.name)
        self[numpy_dtype] = made
        return made


BY_NUMPY = _ByNumpyDtype()


def _make(numpy_type, name):
    made = BY_NUMPY[np.dtype(numpy_type)] = dtype(numpy_type, name)
    return made


float16 = half = _make(np.float16, "float16")
float32 = float = _make(np.float32, "float32")
float64 = double = _make(np.float64, "float64")
complex64 = cfloat = _make(np.complex64, "complex64")
complex128 = cdouble = _make(np.complex128, "complex128")
uint8 = _make(np.uint8, "uint8")
int8 = _make(np.int8, "int8")
int16 = short = _make(np.int16, "int16")
int32 = _make(np.int32, "int32")  # exported as minigrad.int: a module-level `int` would hide the builtin
int64 = long = _make(np.int64, "int64")
bool_ = _make(np.bool_, "bool")


def of(numpy_dtype):
    """The minigrad dtype of a NumPy dtype (anything ``np.dtype`` accepts).

    >>> import numpy as np
    >>> of(np.dtype("int64"))
    minigrad.int64
    """
    try:
        return BY_NUMPY[numpy_dtype]
    except KeyError:
        return BY_NUMPY[np.dtype(numpy_dtype)]


default_float = float32


def get_default_dtype():
    """The dtype Python floats and the float factories give (``minigrad.float32`` unless changed).

    >>> get_default_dtype()
    minigrad.float32
    """
    return default_float


def set_default_dtype(d):
    """Make ``d`` (a floating-point dtype) what Python floats and the float factories give.

    Raises:
        TypeError: for a dtype that is not floating point, as PyTorch.

    >>> import minigrad
    >>> set_default_dtype(minigrad.float64); minigrad.tensor(1.5).dtype
    minigrad.float64
    >>> set_default_dtype(minigrad.float32)
    """
    global default_float
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    default_float = d


# PyTorch's legacy type names, used in its error messages (``torch.FloatTensor``).
LEGACY_TYPE_NAMES = {
    float16: "HalfTensor",
    float32: "FloatTensor",
    float64: "DoubleTensor",
    uint8: "ByteTensor",
    int8: "CharTensor",
    int16: "ShortTensor",
    int32: "IntTensor",
    int64: "LongTensor",
    bool_: "BoolTensor",
}


# The scalar type names PyTorch's C++ messages use: ATen's (``Float``) and C++'s own (``float``).
SCALAR_TYPE_NAMES = {float16: "Half", float32: "Float", float64: "Double", uint8: "Byte", int8: "Char",
                     int16: "Short", int32: "Int", int64: "Long", bool_: "Bool",
                     complex64: "ComplexFloat", complex128: "ComplexDouble"}
CPP_TYPE_NAMES = {float16: "c10::Half", float32: "float", float64: "double", uint8: "unsigned char",
                  int8: "signed char", int16: "short int", int32: "int", int64: "long int", bool_: "bool"}


def is_floating(dtype):
    return dtype.kind == "f"


def _category(dtype):
    return {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}[dtype.kind]


def dtype_of_python_scalar(value):
    """The dtype PyTorch gives a Python number: bool, int64 or the default float."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64
    return default_float


def _promote_pair(a, b):
    """The common dtype of two operands of the same priority: PyTorch's ``promote_types``.

    Unlike NumPy's, a higher category wins outright (int64 with float32 is float32, not float64).
    """
    if a is None:
        return b
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    return np.promote_types(a, b)


def promote_types(type1, type2):
    """The dtype PyTorch computes in for two tensors of these dtypes.

    >>> import minigrad
    >>> promote_types(minigrad.int64, minigrad.float32)
    minigrad.float32
    """
    for position, value in enumerate((type1, type2), 1):
        if not isinstance(value, dtype):
            raise TypeError(f"promote_types(): argument 'type{position}' (position {position}) must be "
                            f"minigrad.dtype, not {type(value).__name__}")
    return of(_promote_pair(type1, type2))


def result_type(*operands):
    """Result dtype of an elementwise op on Tensors and Python numbers (PyTorch's rule).

    Operands come in three priorities: tensors with dimensions, 0-d tensors, Python numbers.
    A weaker operand only counts when it brings a higher category (bool < integer < floating
    point); a Python number then gives that category's default dtype.

    Args:
        operands: Tensors (anything with ``.dtype`` and ``.ndim``) or Python numbers.

    Returns:
        dtype

    >>> import minigrad
    >>> result_type(minigrad.ones(2), 2.5)
    minigrad.float32
    >>> result_type(minigrad.ones(2, dtype=minigrad.int64), 2.5)
    minigrad.float32
    >>> result_type(minigrad.ones(2), minigrad.tensor(1.0, dtype=minigrad.float64))
    minigrad.float32
    >>> result_type(minigrad.ones(2, dtype=minigrad.int64), minigrad.ones(2))
    minigrad.float32
    """
    dimensioned = zero_dim = scalar = None
    for op in operands:
        if hasattr(op, "ndim"):
            if op.ndim:
                dimensioned = _promote_pair(dimensioned, op.dtype)
            else:
                zero_dim = _promote_pair(zero_dim, op.dtype)
        else:
            d = dtype_of_python_scalar(op)
            scalar = d if scalar is None or _category(d) > _category(scalar) else scalar
    result = dimensioned
    for weaker in (zero_dim, scalar):
        if weaker is None:
            continue
        if result is None or _category(weaker) > _category(result):
            # A weaker operand of a higher category decides the category; a
            # Python number then takes that category's default dtype.
            result = weaker
    return of(result)


class finfo:  # noqa: N801  (PyTorch's name: torch.finfo)
    """The limits of a floating-point dtype (default: the default dtype), as PyTorch's ``torch.finfo``.

    >>> import minigrad
    >>> minigrad.finfo(minigrad.float32).eps
    1.1920928955078125e-07
    """

    def __init__(self, type=None):  # noqa: A002  (PyTorch's argument name)
        type = default_float if type is None else type
        if not type.is_floating_point:
            raise TypeError("minigrad.finfo() requires a floating point input type. "
                            "Use minigrad.iinfo to handle 'minigrad.finfo'")
        info = np.finfo(type.dtype)
        self.bits, self.dtype = info.bits, type._name
        self.eps, self.max, self.min = builtins.float(info.eps), builtins.float(info.max), builtins.float(info.min)
        self.tiny = self.smallest_normal = builtins.float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # in double, as PyTorch (NumPy rounds it to the dtype)

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801  (PyTorch's name: torch.iinfo)
    """The limits of an integer dtype, as PyTorch's ``torch.iinfo``.

    >>> import minigrad
    >>> minigrad.iinfo(minigrad.int32).max
    2147483647
    """

    def __init__(self, type):  # noqa: A002  (PyTorch's argument name)
        if type.kind == "b":
            raise TypeError("minigrad.bool is not supported by minigrad.iinfo")
        if type.kind not in "iu":
            raise TypeError("minigrad.iinfo() requires an integer input type. "
                            "Use minigrad.finfo to handle 'minigrad.iinfo'")
        info = np.iinfo(type.dtype)
        self.bits, self.max, self.min, self.dtype = info.bits, builtins.int(info.max), builtins.int(info.min), type._name

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
