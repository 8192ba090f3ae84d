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
