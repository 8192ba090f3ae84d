"""``x.sum()`` against PyTorch on either side of fast_path.sum_all's BLAS path.

A float32/float64 array of at most ``SMALL_SUM`` numbers is summed as a product with ones (BLAS);
a larger one, another dtype, or a sum of negative zeros (BLAS's -0.0, PyTorch's 0.0) is NumPy's
sum. Values must be PyTorch's to the dtype's rounding (neither library promises the last bit of
a sum), and exactly where they are exact: zeros with their sign, inf and nan.
"""

import math

import numpy as np
import pytest

import minigrad
from minigrad.fast_path import SMALL_SUM

SIZES = [1, 2, 15, 16, SMALL_SUM - 1, SMALL_SUM, SMALL_SUM + 1, 1000]
# (relative tolerance per dtype, for n numbers of about the same size: a few units in the last place)
RTOL = {np.float32: 1e-6, np.float64: 1e-14, np.float16: 2e-3}


def _sums(torch, array):
    mine, theirs = minigrad.tensor(array).sum(), torch.tensor(array).sum()
    assert str(mine.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    return mine.item(), theirs.item()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=["float32", "float64", "float16"])
@pytest.mark.parametrize("size", SIZES)
def test_a_vector_and_a_matrix_sum_as_pytorchs(size, dtype, torch):
    rng = np.random.default_rng(size)
    vector = rng.uniform(0.5, 1.5, size).astype(dtype)
    for array in (vector, vector.reshape(1, size), np.stack([vector, vector]).T):  # (the last not contiguous)
        mine, theirs = _sums(torch, array)
        assert mine == pytest.approx(theirs, rel=RTOL[dtype])


INTEGER_REDUCTIONS = ["x.sum()", "x.sum(0)", "x.sum(0, keepdim=True)", "x.nansum()", "x.prod()", "x.prod(0)",
                      "x.cumsum(0)", "x.cumprod(0)"]


@pytest.mark.parametrize("dtype", ["int64", "int32", "int8", "uint8", "bool"])
def test_integers_and_bools_sum_exactly_and_in_pytorchs_dtype(dtype, torch):
    # (uint8 gave uint64, NumPy's dtype for its sums and products; PyTorch's is int64.)
    def outcome(lib):
        x = lib.tensor((np.arange(1, 8) % 3).tolist(), dtype=getattr(lib, dtype))
        results = [eval(expression, {"x": x}) for expression in INTEGER_REDUCTIONS]
        return [(str(r.dtype).split(".")[-1], r.tolist()) for r in results]

    assert outcome(minigrad) == outcome(torch)


SPECIAL = {
    "one negative zero": [-0.0],
    "negative zeros": [-0.0] * 16,
    "zeros of both signs": [-0.0, 0.0, -0.0],
    "a sum of zero": [1.5, -1.5],
    "inf": [1.0, math.inf],
    "inf and -inf": [math.inf, -math.inf, 1.0],
    "nan": [1.0, math.nan, 2.0],
    "overflow": [3e38, 3e38],
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", list(SPECIAL))
def test_zeros_infs_and_nans_come_out_as_pytorchs(name, dtype, torch):
    array = np.array(SPECIAL[name], dtype)
    mine, theirs = _sums(torch, array)
    if math.isnan(theirs):
        assert math.isnan(mine)
    else:
        assert mine == theirs and math.copysign(1.0, mine) == math.copysign(1.0, theirs)


def test_the_gradient_of_a_small_sum_is_ones():
    x = minigrad.tensor(np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4), requires_grad=True)
    x.sum().backward()
    assert x.grad.dtype == minigrad.float32
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((4, 4), np.float32))
