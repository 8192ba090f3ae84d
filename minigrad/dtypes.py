"""Data types, and how the result dtype of an operation is chosen.

minigrad's dtypes are plain NumPy dtypes. The promotion rule is PyTorch's, not
NumPy's: a Python number never widens a tensor (``float32 * 2.5`` stays
float32), and a 0-d tensor only matters when it brings a higher category
(bool < integer < floating point) than the tensors that have dimensions.
"""

import numpy as np

float16 = half = np.dtype(np.float16)
float32 = float = np.dtype(np.float32)
float64 = double = np.dtype(np.float64)
int32 = np.dtype(np.int32)
int64 = long = np.dtype(np.int64)
bool_ = np.dtype(np.bool_)

default_float = float32

# PyTorch's legacy type names, used in its error messages (``torch.FloatTensor``).
LEGACY_TYPE_NAMES = {
    float16: "HalfTensor",
    float32: "FloatTensor",
    float64: "DoubleTensor",
    int32: "IntTensor",
    int64: "LongTensor",
    bool_: "BoolTensor",
}


# The scalar type names PyTorch's C++ messages use: ATen's (``Float``) and C++'s own (``float``).
SCALAR_TYPE_NAMES = {float16: "Half", float32: "Float", float64: "Double", int32: "Int", int64: "Long", bool_: "Bool"}
CPP_TYPE_NAMES = {float16: "c10::Half", float32: "float", float64: "double", int32: "int", int64: "long int",
                  bool_: "bool"}


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


def result_type(*operands):
    """Result dtype of an elementwise op on Tensors and Python numbers (PyTorch's rule).

    Args:
        operands: Tensors (anything with ``.dtype`` and ``.ndim``) or Python numbers.

    Returns:
        numpy.dtype

    >>> import minigrad
    >>> result_type(minigrad.ones(2), 2.5)
    dtype('float32')
    >>> result_type(minigrad.ones(2, dtype=minigrad.int64), 2.5)
    dtype('float32')
    >>> result_type(minigrad.ones(2), minigrad.tensor(1.0, dtype=minigrad.float64))
    dtype('float32')
    """
    dimensioned = zero_dim = scalar = None
    for op in operands:
        if hasattr(op, "ndim"):
            if op.ndim:
                dimensioned = op.dtype if dimensioned is None else np.promote_types(dimensioned, op.dtype)
            else:
                zero_dim = op.dtype if zero_dim is None else np.promote_types(zero_dim, op.dtype)
        else:
            d = dtype_of_python_scalar(op)
            scalar = d if scalar is None else (d if _category(d) > _category(scalar) else scalar)
    result = dimensioned
    for weaker in (zero_dim, scalar):
        if weaker is None:
            continue
        if result is None or _category(weaker) > _category(result):
            # A weaker operand of a higher category decides the category; a
            # Python number then takes that category's default dtype.
            result = weaker
    return result
