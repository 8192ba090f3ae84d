"""``minigrad.testing.assert_close``: PyTorch's way to check that two results agree.

Tests written against PyTorch compare tensors with ``torch.testing.assert_close``; here it is
with PyTorch's rules and messages:

1. The inputs are paired up: two tensors, two Python numbers, or two sequences / mappings
   whose items are paired in turn. Anything else is a TypeError.
2. Tensors must agree in shape and dtype before their values are compared.
3. Values are close when ``|actual - expected| <= atol + rtol * |expected|`` (``isclose``), with
   tolerances chosen by dtype unless both are given: float32 1.3e-6 / 1e-5, float64 1e-7 / 1e-7,
   exact for integers and booleans.
4. A failure names how many elements differ and the greatest absolute and relative difference,
   with the index where each occurs.
"""

import collections.abc

import numpy as np

from . import dtypes
from .tensor import Tensor

# (rtol, atol) by dtype, PyTorch's defaults; every other dtype is compared exactly.
_TOLERANCES = {
    np.dtype(np.float16): (1e-3, 1e-5),
    np.dtype(np.float32): (1.3e-6, 1e-5),
    np.dtype(np.float64): (1e-7, 1e-7),
}


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raise AssertionError unless ``actual`` and ``expected`` are close (see the module docstring).

    Args:
        actual, expected: tensors, Python numbers, or sequences / mappings of them.
        rtol, atol: relative and absolute tolerance; give both or neither.
        equal_nan: treat two NaNs as equal.
        check_dtype: require the same dtype (else both are compared in their common dtype).
        msg: a message to raise instead of the generated one.

    Raises:
        AssertionError: the inputs differ; TypeError: inputs that cannot be paired up.

    >>> import minigrad
    >>> minigrad.testing.assert_close(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 2.0000001]))
    >>> minigrad.testing.assert_close(minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 2.5]))
    Traceback (most recent call last):
    ...
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 2 (50.0%)
    Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)
    """
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, "
                         f"but got no {'rtol' if rtol is None else 'atol'}.")
    failure = _compare(actual, expected, (), rtol, atol, equal_nan, check_dtype)
    if failure is not None:
        text, path = failure
        if path:
            text += "\n\nThe failure occurred for item " + "".join(str([item]) for item in path)
        raise AssertionError(msg if isinstance(msg, str) else text)


def _compare(actual, expected, path, rtol, atol, equal_nan, check_dtype):
    """None when close, else ``(message, path to the failing item)`` (rule 1)."""
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        message = _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype)
        return None if message is None else (message, path)
    numbers = (bool, int, float)
    if isinstance(actual, numbers) and isinstance(expected, numbers):
        message = _compare_numbers(actual, expected, rtol, atol, equal_nan, check_dtype)
        return None if message is None else (message, path)
    is_sequence = lambda x: isinstance(x, collections.abc.Sequence) and not isinstance(x, str)  # noqa: E731
    if is_sequence(actual) and is_sequence(expected):
        if len(actual) != len(expected):
            return f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", path
        items = zip(range(len(actual)), actual, expected)
    elif isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            return (f"The keys of the mappings do not match:\n\nMissing keys in the actual mapping: "
                    f"{sorted(set(expected) - set(actual))}\nExtra keys in the actual mapping: "
                    f"{sorted(set(actual) - set(expected))}"), path
        items = ((key, actual[key], expected[key]) for key in actual)
    else:
        raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.")
    for key, a, e in items:
        failure = _compare(a, e, path + (key,), rtol, atol, equal_nan, check_dtype)
        if failure is not None:
            return failure
    return None


def _tolerances(dtype, rtol, atol):
    if rtol is not None:
        return rtol, atol
    return _TOLERANCES.get(np.dtype(dtype), (0.0, 0.0))


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype):
    """Rules 2-4 for two tensors."""
    if actual.shape != expected.shape:
        return f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}."
    a, e = actual._data, expected._data
    if a.dtype != e.dtype:
        if check_dtype:
            return f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}."
        common = np.promote_types(a.dtype, e.dtype)
        a, e = a.astype(common), e.astype(common)
    rtol, atol = _tolerances(a.dtype, rtol, atol)
    matches = _isclose(a, e, rtol, atol, equal_nan)
    if matches.all():
        return None
    if a.ndim == 0:
        return _number_mismatch(a.item(), e.item(), rtol, atol)
    if not dtypes.is_floating(a.dtype):
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.abs(a - e).ravel()
        abs_diff[matches.ravel()] = 0
        rel_diff = (abs_diff / np.abs(e).ravel()).astype(abs_diff.dtype if dtypes.is_floating(a.dtype) else np.float32)
        rel_diff[matches.ravel()] = 0
    worst_abs, worst_rel = int(np.argmax(abs_diff)), int(np.argmax(rel_diff))
    mismatched = matches.size - int(matches.sum())
    return _mismatch_message(
        "Tensor-likes", f"Mismatched elements: {mismatched} / {matches.size} ({mismatched / matches.size:.1%})",
        [("absolute", abs_diff[worst_abs].item(), np.unravel_index(worst_abs, a.shape), atol),
         ("relative", rel_diff[worst_rel].item(), np.unravel_index(worst_rel, a.shape), rtol)],
        rtol, atol)


def _isclose(a, e, rtol, atol, equal_nan):
    if not dtypes.is_floating(a.dtype):
        return a == e
    with np.errstate(all="ignore"):
        close = (a == e) | (np.abs(a - e) <= atol + rtol * np.abs(e))
    return close | (np.isnan(a) & np.isnan(e)) if equal_nan else close


def _compare_numbers(actual, expected, rtol, atol, equal_nan, check_dtype):
    if check_dtype and type(actual) is not type(expected):
        return f"The (d)types do not match: {type(actual)} != {type(expected)}."
    kind = float if isinstance(actual, float) or isinstance(expected, float) else int
    rtol, atol = _tolerances(np.float64 if kind is float else np.int64, rtol, atol)
    if _isclose(np.asarray(actual, dtype=kind), np.asarray(expected, dtype=kind), rtol, atol, equal_nan):
        return None
    return _number_mismatch(actual, expected, rtol, atol)


def _number_mismatch(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_message("Scalars", f"Expected {expected} but got {actual}.",
                             [("absolute", abs_diff, None, atol), ("relative", rel_diff, None, rtol)], rtol, atol)


def _mismatch_message(what, extra, differences, rtol, atol):
    equality = rtol == 0 and atol == 0
    lines = [f"{what} are not {'equal' if equality else 'close'}!", "", extra]
    for kind, diff, index, tolerance in differences:
        line = (f"{kind.title()} difference: {diff}" if index is None
                else f"Greatest {kind} difference: {diff} at index {tuple(int(i) for i in index)}")
        lines.append(line if equality else f"{line} (up to {tolerance} allowed)")
    return "\n".join(lines)
