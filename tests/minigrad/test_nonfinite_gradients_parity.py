"""inf and nan through backward, checked against PyTorch over the whole op table.

An inf or a nan reaches a gradient in real training: a loss that overflows, a log of 0, a
learning rate that is too large. Where a formula blocks the gradient (relu below 0, clamp
outside its bounds, max away from the maximum, an overwritten element), PyTorch *selects*
(``where``, ``masked_fill``, zeros with a scatter), so the blocked places get exact zeros
whatever flows in. Multiplying by a 0/1 mask instead turns inf * 0 into nan and spreads it
into weights that had nothing to do with it. And a nan *input* is neither above nor below
anything: PyTorch lets the gradient through it (relu, maximum), or gives it the whole of it
(max(), median()), where a mask made of comparisons would block it.

Every expectation is PyTorch's, on the same float64 inputs; ``torch`` is the fixture.
"""

import warnings
import zlib

import numpy as np
import pytest

import minigrad
from op_table import OPS

FILLS = {"inf": np.inf, "-inf": -np.inf, "nan": np.nan}


def _seeded(case, salt):
    return np.random.default_rng(zlib.crc32((case.name + salt).encode()))


def _run(lib, case, arrays, upstream, create_graph=False):
    """``case.fn`` under ``lib`` on leaves made from ``arrays``; returns (output, input gradients),
    the gradients of ``<upstream(shape), output>``. With ``create_graph``, the upstream gradient
    itself hangs on a graph (a leaf times 2), so what a formula returns can record."""
    leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (invalid values: the point of these tests)
        out = case.fn(lib, *leaves)
        grad = lib.tensor(upstream(tuple(out.shape)), dtype=out.dtype, requires_grad=create_graph)
        if create_graph:
            grad = grad * 2
        grads = lib.autograd.grad([out], leaves, [grad], allow_unused=True, create_graph=create_graph)
    return out, grads


def _values(t):
    if t is None:
        return None
    if type(t).__module__.startswith("torch"):
        return np.asarray(t.detach().numpy(force=True), dtype=np.float64)  # (force: a ZeroTensor too)
    return np.asarray(t.detach().numpy(), dtype=np.float64)


def _assert_same(mine, theirs, what):
    """Same values, same infs, nans in the same places (a nan is where PyTorch has one, nowhere else)."""
    if theirs is None:
        assert mine is None or not np.any(mine), f"{what}: PyTorch has no gradient"
        return
    assert mine is not None, f"{what}: minigrad has no gradient"
    np.testing.assert_allclose(mine, theirs, rtol=1e-7, atol=1e-12, equal_nan=True, err_msg=what)


@pytest.mark.parametrize("fill", FILLS)
@pytest.mark.parametrize("case", OPS, ids=[case.name for case in OPS])
def test_an_infinite_or_nan_upstream_gradient_is_blocked_where_pytorch_blocks_it(case, fill, torch):
    arrays = case.draw(_seeded(case, "inputs"))

    def upstream(shape):
        return np.full(shape, FILLS[fill])

    _, mine = _run(minigrad, case, arrays, upstream)
    _, theirs = _run(torch, case, arrays, upstream)
    for position, (m, t) in enumerate(zip(mine, theirs)):
        _assert_same(_values(m), _values(t), f"{case.name}: gradient of input {position}, upstream all {fill}")


@pytest.mark.parametrize("fill", FILLS)
@pytest.mark.parametrize("case", OPS, ids=[case.name for case in OPS])
def test_an_infinite_or_nan_input_gives_pytorchs_values_and_gradients(case, fill, torch):
    rng = _seeded(case, "inputs " + fill)
    arrays = case.draw(rng)
    for array in arrays:  # one element of each input replaced
        if array.size:
            array.flat[rng.integers(array.size)] = FILLS[fill]
    upstream_rng = _seeded(case, "upstream")
    upstream = upstream_rng.uniform(-2, 2, size=1000)

    def finite_upstream(shape):
        return upstream[:int(np.prod(shape))].reshape(shape)

    out, mine = _run(minigrad, case, arrays, finite_upstream)
    expected_out, theirs = _run(torch, case, arrays, finite_upstream)
    _assert_same(_values(out), _values(expected_out), f"{case.name}: output with an input element {fill}")
    for position, (m, t) in enumerate(zip(mine, theirs)):
        _assert_same(_values(m), _values(t), f"{case.name}: gradient of input {position}, an input element {fill}")


@pytest.mark.parametrize("case", OPS, ids=[case.name for case in OPS])
def test_a_blocked_gradient_hangs_on_no_graph_as_in_pytorch(case, torch):
    """Under create_graph, the zeros of an op whose derivative is 0 (floor, sign, fill_, x ** 0)
    are plain zeros in PyTorch (``requires_grad`` False), not ``grad * 0`` on the graph."""
    arrays = case.draw(_seeded(case, "inputs"))

    def ones(shape):
        return np.ones(shape)

    _, mine = _run(minigrad, case, arrays, ones, create_graph=True)
    _, theirs = _run(torch, case, arrays, ones, create_graph=True)
    assert [g is not None and g.requires_grad for g in mine] == [g is not None and g.requires_grad for g in theirs]
