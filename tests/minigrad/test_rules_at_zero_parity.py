"""Values and gradients at zero, where PyTorch's formula has a rule of its own, checked against it.

- ``xlogy(x, y)``: 0 where x == 0, unless y is nan. Its gradient for x is ``xlogy(grad, y)``,
  so at x == 0 it is grad * log(y), except where y <= 0 (there 0).
- ``x ** y`` (two tensors): the gradient for x is exactly 0 where y == 0; the one for y is 0
  where x == 0 and y >= 0, but 0 ** y * log(0) (-inf) where y < 0.
- ``cumsum``: the running sum starts at +0., so no -0. comes out.

A found-by-sweep set: each of these gave a different number here before (not only a signed zero).
"""

import numpy as np
import pytest

import minigrad

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, 4.0, np.inf, -np.inf, np.nan]  # (powers of these are exact: no last-bit noise)


def _grid():
    """Every pair of the special values: x and y as two flat arrays."""
    x, y = np.meshgrid(SPECIAL, SPECIAL, indexing="ij")
    return x.ravel(), y.ravel()


def _outcome(lib, fn, *arrays, upstream_seed=0):
    """Values and every input's gradient, as lists (repr keeps -0. and nan apart)."""
    leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = fn(lib, *leaves)
    upstream = np.random.default_rng(upstream_seed).choice([1.0, -2.0, 0.5], size=tuple(out.shape))
    grads = lib.autograd.grad([out], leaves, [lib.tensor(upstream, dtype=out.dtype)], allow_unused=True)
    return repr([out.tolist()] + [None if g is None else g.tolist() for g in grads])


CASES = {
    "xlogy(x, y)": (lambda lib, x, y: lib.xlogy(x, y), 2),
    "x ** y": (lambda lib, x, y: x ** y, 2),
    "pow(x, y) with a 0-d exponent": (lambda lib, x, y: lib.pow(x, y[3]), 2),  # (y[3] is -1)
    "cumsum": (lambda lib, x: (-x).cumsum(0), 1),  # (starting at -0.)
    "cumsum of a matrix": (lambda lib, x: x.reshape(9, 9).cumsum(1), 1),
}


@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_at_zero_are_pytorchs(name, torch):
    fn, inputs = CASES[name]
    arrays = _grid()[:inputs]
    with np.errstate(all="ignore"):
        assert _outcome(minigrad, fn, *arrays) == _outcome(torch, fn, *arrays)


def test_xlogy_is_nan_where_y_is_nan_even_at_x_zero(torch):
    for lib in (minigrad, torch):
        out = lib.xlogy(lib.tensor([0.0, 0.0, 1.0]), lib.tensor([np.nan, 0.0, np.nan]))
        assert repr(out.tolist()) == "[nan, 0.0, nan]"


@pytest.mark.parametrize("name", ["xlogy(x, y)", "x ** y"])
def test_under_create_graph_the_gradient_is_the_same(name, torch):
    """The rules are in the formula, not only in its NumPy shortcut: a recorded backward agrees."""
    fn, inputs = CASES[name]
    arrays = _grid()[:inputs]

    def first_order(lib):
        leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
        out = fn(lib, *leaves)
        grads = lib.autograd.grad([out], leaves, [lib.ones(tuple(out.shape), dtype=out.dtype)], create_graph=True)
        assert all(g.requires_grad for g in grads)
        return repr([g.tolist() for g in grads])

    with np.errstate(all="ignore"):
        assert first_order(minigrad) == first_order(torch)
