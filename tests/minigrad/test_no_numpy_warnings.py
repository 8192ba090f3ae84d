"""No NumPy warning from inside minigrad, whatever the numbers: PyTorch gives none for inf and nan.

``inf - inf`` is nan and ``3e38 + 3e38`` overflows to inf in PyTorch silently; NumPy warns
("invalid value encountered in add"), from a line inside minigrad that means nothing to a
learner. So every op of the table runs, forward and backward, on inputs laced with inf, -inf,
nan, zeros and numbers near float32's largest, with NumPy's RuntimeWarnings made errors.
"""

import warnings

import numpy as np
import pytest

import minigrad
from op_table import OPS
from torch_parity import pytorch_part

SPECIAL = np.array([np.inf, -np.inf, np.nan, 0.0, 3e38, -3e38, 1e-45], dtype=np.float32)


def _laced(array, rng):
    """``array`` (float32) with about half its elements replaced by special values."""
    out = array.astype(np.float32).copy()
    flat = out.reshape(-1)
    where = rng.random(flat.shape) < 0.5
    flat[where] = rng.choice(SPECIAL, size=int(where.sum()))
    return out


def _run(lib, case, arrays):
    tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = case.fn(lib, *tensors)
    out = out[0] if isinstance(out, tuple) else out
    if out.requires_grad:
        out.sum().backward()


@pytest.mark.parametrize("case", OPS, ids=[case.name for case in OPS])
def test_an_op_on_inf_nan_and_huge_numbers_gives_no_numpy_warning(case, torch):
    rng = np.random.default_rng(0)
    for _ in range(3):
        arrays = [_laced(a, rng) for a in case.draw(rng)]
        try:
            _run(torch, case, arrays)
        except Exception:  # noqa: BLE001 (where PyTorch refuses these numbers, minigrad may too)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            _run(minigrad, case, arrays)


HUGE_NUMBERS = [
    "lib.tensor([1e300])", "lib.tensor(1e300)", "lib.tensor([1e300, 1.0], dtype=lib.float16)",
    "lib.ones(2) + 1e300", "1e300 - lib.ones(2)", "lib.ones(2) * 1e300", "lib.ones(2, dtype=lib.float16) * 70000.0",
    "lib.tensor([1e300, 1.0], dtype=lib.float64).float()", "lib.as_tensor([1e300])", "lib.ones(2) / 1e-300",
    "lib.ones(2) ** 1e300",
    # where PyTorch checks that the number fits the tensor's dtype, and refuses it
    "lib.full((2,), 1e300)", "lib.full((2,), 70000.0, dtype=lib.float16)", "lib.full_like(lib.ones(2), 1e300)",
    "lib.ones(2).new_full((2,), 1e300)", "lib.zeros(2).fill_(1e300)", "lib.zeros(1, dtype=lib.int32).fill_(2 ** 40)",
    "lib.zeros(1, dtype=lib.int8).fill_(300)", "lib.zeros(1, dtype=lib.int64).fill_(1e30)",
    "lib.ones(2).clamp(max=1e300)", "lib.ones(2).clamp(min=-1e300, max=1e300)",
    "lib.where(lib.ones(2) > 0, 1e300, lib.ones(2))", "lib.zeros(3).index_fill(0, lib.tensor([1]), 1e300)",
    "lib.zeros(2).masked_fill(lib.tensor([True, False]), 1e300)",
    # and numbers that fit, or are inf and nan themselves
    "lib.full((2,), float('inf'))", "lib.zeros(2).fill_(float('nan'))", "lib.ones(2).clamp(max=float('inf'))",
    "lib.full((2,), 3.0e38)", "lib.zeros(1, dtype=lib.int8).fill_(127)",
]


def _outcome(lib, expression):
    try:
        return "value", str(eval(expression, {"lib": lib}).tolist())  # (as text: a nan equals a nan)
    except RuntimeError as error:
        return "error", pytorch_part(error)


@pytest.mark.parametrize("expression", HUGE_NUMBERS)
def test_a_number_too_large_for_the_dtype_is_inf_or_refused_as_in_pytorch(expression, torch):
    # Arithmetic with such a number is inf, silently; writing it into a tensor (full, fill_, clamp,
    # where, masked_fill) is PyTorch's error. Never a NumPy warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        mine = _outcome(minigrad, expression)
    assert mine == _outcome(torch, expression)


def test_a_number_too_large_written_into_a_tensor_is_refused_as_by_pytorch(torch):
    def written(lib):
        z, y = lib.zeros(3), lib.zeros(3)
        try:
            z[0] = 1e300
        except RuntimeError as error:
            refused = pytorch_part(error)
        y.copy_(lib.tensor([1e300] * 3, dtype=lib.float64))  # (a tensor, not a number: inf, silently)
        return refused, z.tolist(), y.tolist()

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        mine = written(minigrad)
    assert mine == written(torch)
