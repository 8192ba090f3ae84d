"""softmax (and log_softmax) against PyTorch: every path of ops/nn._stable_softmax.

Along the last dim of a float32/float64 array the sums are BLAS products with ones, and the max is
subtracted only where a slice's sum of exps would be below 1 or overflow (a vector's max read at
its argmax); elsewhere the ufuncs' reductions; float16 is computed in float32 and
rounded once, as PyTorch's kernel does; an empty tensor gives an empty result. Values, dtypes,
nan and inf patterns and gradients must be PyTorch's (to the dtype's rounding: neither library
promises the last bit of a sum).
"""

import numpy as np
import pytest

import minigrad

SHAPES_AND_DIMS = [((16,), 0), ((16,), -1), ((4, 4), 1), ((4, 4), 0), ((128, 10), -1), ((2, 3, 5), 2),
                   ((2, 3, 5), 1), ((2, 3, 5), 0), ((1000,), 0), ((1, 1), 1), ((), 0)]
EMPTY = [((3, 0), 1), ((0, 3), 1), ((0, 3), 0), ((2, 0, 4), 2), ((0,), 0)]
# (relative, absolute) tolerance per dtype: a few units in the last place of the result
TOLERANCE = {np.float32: (4e-6, 1e-7), np.float64: (1e-14, 1e-300), np.float16: (1e-3, 1e-6)}


def _both(torch, x, op, dim):
    mine = getattr(minigrad.tensor(x), op)(dim)
    theirs = getattr(torch.tensor(x), op)(dim)
    return mine.numpy(), theirs.numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16], ids=["float32", "float64", "float16"])
@pytest.mark.parametrize("shape,dim", SHAPES_AND_DIMS, ids=[f"{s}-dim{d}" for s, d in SHAPES_AND_DIMS])
def test_softmax_values_are_pytorchs(shape, dim, dtype, torch):
    rng = np.random.default_rng(len(shape) * 10 + dim)
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    mine, theirs = _both(torch, x, "softmax", dim)
    assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
    rtol, atol = TOLERANCE[dtype]
    np.testing.assert_allclose(mine.astype(np.float64), theirs.astype(np.float64), rtol=rtol, atol=atol)


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape,dim", EMPTY, ids=[f"{s}-dim{d}" for s, d in EMPTY])
def test_an_empty_tensor_gives_an_empty_result_and_gradient(shape, dim, op, torch):
    def run(lib):
        x = lib.zeros(shape, requires_grad=True)
        y = getattr(x, op)(dim)
        y.sum().backward()
        return tuple(y.shape), str(y.dtype).split(".")[-1], tuple(x.grad.shape)

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("row", [[1.0, np.nan, 2.0], [np.inf, 1.0, 0.0], [-np.inf, 1.0, 0.0], [-np.inf] * 3,
                                 [np.inf, np.inf, 1.0], [1e30, 1e30, -1e30], [-1e30, 0.0, 0.0]])
def test_nan_and_inf_come_out_where_pytorchs_do(row, torch):
    x = np.array(row, np.float32)
    for array, dim in [(x, 0), (np.stack([x, x]), 1), (np.stack([x, x]).T.copy(), 0)]:
        mine, theirs = _both(torch, array, "softmax", dim)
        np.testing.assert_array_equal(np.isnan(mine), np.isnan(theirs))
        np.testing.assert_allclose(np.nan_to_num(mine), np.nan_to_num(theirs), rtol=4e-6)


# Slices on either side of the unshifted path's bounds (a sum of exps of at least 1, and finite):
# sums just above and below 1, exps close to overflow, tiny exps beside a large one, and a matrix
# whose rows fall on different sides (each row is computed as its own side requires).
BOUNDS = {
    "sum just over 1": [-0.69, -40.0, -50.0],
    "sum just under 1": [-0.71, -40.0, -50.0],
    "every value negative, sum over 1": [-0.1] * 16,
    "every value very negative": [-100.0, -101.0, -150.0],
    "underflowing beside the largest": [0.0, -100.0, -103.0, -150.0],
    "near float32's overflow": [88.0, 87.5, 80.0],
    "over float32's overflow": [89.0, 88.9, 0.0],
    "near float64's overflow": [709.0, 708.0, 1.0],
    "over float64's overflow": [710.0, 709.9, 1.0],
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", list(BOUNDS))
def test_slices_either_side_of_the_unshifted_paths_bounds_are_pytorchs(name, dtype, torch):
    row = np.array(BOUNDS[name], dtype)
    other = np.linspace(-2.0, 2.0, row.size).astype(dtype)
    rtol = TOLERANCE[dtype][0]
    atol = 4 * float(np.finfo(dtype).smallest_subnormal)  # (a tiny exp is imprecise in both libraries)
    for array in (row, np.stack([other, row]), np.stack([row, other, row])):
        mine, theirs = _both(torch, array, "softmax", -1)
        assert not np.isnan(theirs).any()
        np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol)


@pytest.mark.parametrize("shape,dim", [((16,), 0), ((8, 10), 1), ((8, 10), 0), ((2, 3, 4), -1)])
def test_the_gradient_is_pytorchs(shape, dim, torch):
    rng = np.random.default_rng(7)
    x, weights = rng.standard_normal(shape).astype(np.float32), rng.standard_normal(shape).astype(np.float32)

    def grad(lib):
        t = lib.tensor(x, requires_grad=True)
        (t.softmax(dim) * lib.tensor(weights)).sum().backward()
        return t.grad.numpy()

    np.testing.assert_allclose(grad(minigrad), grad(torch), rtol=1e-5, atol=1e-7)


def test_vectors_of_ones_are_kept_apart_by_dtype(torch):
    # (The sums' vectors of ones are cached by length and dtype: a float64 row after a float32 one.)
    x = np.linspace(-3, 3, 7)
    for dtype in (np.float32, np.float64, np.float32):
        mine, theirs = _both(torch, x.astype(dtype), "softmax", 0)
        assert mine.dtype == theirs.dtype
        np.testing.assert_allclose(mine, theirs, rtol=TOLERANCE[dtype][0])


INTEGER_CASES = [("softmax", "long", (1, 2), 0), ("log_softmax", "long", (1, 2), 0), ("softmax", "long", (1, 2), 1),
                 ("log_softmax", "long", (1, 2), -1), ("softmax", "bool", (1, 1), 1), ("softmax", "int32", (3,), 0),
                 ("softmax", "long", (), 0), ("softmax", "long", (0,), 0), ("log_softmax", "long", (2, 0), 1)]


@pytest.mark.parametrize("op,dtype,shape,dim", INTEGER_CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}-dim{c[3]}" for c in INTEGER_CASES])
def test_integers_are_pytorchs_not_implemented_error(op, dtype, shape, dim, torch):
    # (log_softmax of integers used to return float64 numbers; softmax raised NumPy's casting error.)
    def outcome(lib):
        x = lib.ones(shape, dtype=getattr(lib, dtype))
        seen = []
        for call in (lambda: getattr(x, op)(dim), lambda: getattr(lib.nn.functional, op)(x, dim)):
            try:
                result = call()
            except NotImplementedError as error:
                seen.append(("NotImplementedError", str(error).split("\n\n")[0]))
            else:
                seen.append((tuple(result.shape), str(result.dtype).split(".")[-1]))
        return seen

    assert outcome(minigrad) == outcome(torch)


def test_dtype_converts_integers_first(torch):
    def run(lib):
        x = lib.tensor([1, 2, 3])
        return lib.softmax(x, 0, dtype=lib.float32).tolist(), lib.nn.functional.log_softmax(x, 0, dtype=lib.float64).tolist()

    mine, theirs = run(minigrad), run(torch)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-6)
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape,dim", [((128, 10), 1), ((300, 3), -1), ((4, 3), 1), ((2, 64, 5), 2), ((5, 7), 0),
                                       ((64, 40), 1), ((128, 10), 0)])
def test_log_softmax_values_and_gradient_are_pytorchs(shape, dim, dtype, torch):
    """log_softmax along many short rows (the max read down the columns of a transposed copy, the
    sums BLAS products with ones) or any other way: PyTorch's values, nan and inf patterns and
    gradients, including rows with a nan, an inf or a -inf and a row of one large logit."""
    rng = np.random.default_rng(shape[0] + len(shape))
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    rows = np.moveaxis(x, dim, -1).reshape(-1, shape[dim])  # (a view: writes land in x)
    rows[0, :2] = [np.nan, 1.0]
    rows[1, :2] = [np.inf, 1.0]
    rows[2, :2] = [-np.inf, 1.0]
    rows[3, :] = -30.0
    rows[3, 0] = 60.0  # (log-probabilities of the others near -90, of the largest about -1e-39: 0)
    weights = rng.standard_normal(shape).astype(dtype)

    def run(lib):
        t = lib.tensor(x, requires_grad=True)
        out = t.log_softmax(dim)
        (out.nan_to_num(0.0, 0.0, 0.0) * lib.tensor(weights)).sum().backward()
        return out.detach().numpy(), t.grad.numpy()

    (mine, mine_grad), (theirs, theirs_grad) = run(minigrad), run(torch)
    rtol = TOLERANCE[dtype][0]
    atol = 4 * float(np.finfo(dtype).eps)  # (a log-probability near 0 is log(1 + s): its error is s's rounding)
    np.testing.assert_array_equal(np.isnan(mine), np.isnan(theirs))
    np.testing.assert_array_equal(np.isinf(mine), np.isinf(theirs))
    np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol)
    np.testing.assert_allclose(mine_grad, theirs_grad, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=atol)
