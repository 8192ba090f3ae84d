"""Every op in ``op_table.OPS``: forward against NumPy, backward against finite differences.

For each case:

* forward: the value equals the NumPy reference, in float64 and in float32,
  and float32 stays float32 (so do its gradients), as in PyTorch;
* first order: ``out.backward(gradient=v)`` leaves in each input's ``.grad``
  the gradient of ``<v, f(x)>``, measured by central differences;
* second order: with ``create_graph=True`` the first-order gradient ``g(x)``
  is itself differentiable, and the gradient of ``<w, g(x)>`` equals central
  differences of ``g`` (a Hessian-vector product when ``f`` is a scalar);
* the ``grad_fn`` name is PyTorch's, asked of PyTorch itself when it is installed.
"""

import zlib

import numpy as np
import pytest

import minigrad
from numerical import numerical_gradients, numerical_vjp
from op_table import MARGIN, OPS, distinct, nonzero, positive, uniform

CASES = [pytest.param(case, id=case.name) for case in OPS]


def _rng(case, salt=""):
    """A generator seeded by the case's name: each case draws the same inputs on every run."""
    return np.random.default_rng(zlib.crc32((case.name + salt).encode()))


def _leaves(arrays):
    return [minigrad.tensor(a, requires_grad=True) for a in arrays]


def _forward(case, arrays):
    """``case.fn`` on fresh leaves made from ``arrays``; returns (leaves, output)."""
    leaves = _leaves(arrays)
    return leaves, case.fn(minigrad, *leaves)


def _first_order(case, arrays, v):
    """minigrad's gradients of ``<v, f(x)>`` at ``arrays``, as float64 arrays."""
    leaves, out = _forward(case, arrays)
    grads = minigrad.autograd.grad(out, leaves, grad_outputs=minigrad.tensor(v), allow_unused=True)
    return [np.zeros(a.shape) if g is None else np.asarray(g, dtype=np.float64) for g, a in zip(grads, arrays)]


def test_table_has_unique_names():
    names = [case.name for case in OPS]
    assert len(names) == len(set(names))


def test_input_generators_keep_away_from_kinks():
    rng = np.random.default_rng(0)
    for _ in range(20):
        x, y = distinct((2, 3, 4), (3,)).draw(rng)
        values = np.sort(np.concatenate([x.ravel(), y.ravel()]))
        assert np.diff(values).min() >= 0.49 * 4.0 / 27  # about half a grid step: no ties
        assert np.abs(values).min() >= 0.24 * 4.0 / 27  # and no zero
        (z,) = uniform((50,), avoid=(-0.5, 0.5)).draw(rng)
        assert np.abs(np.abs(z) - 0.5).min() >= MARGIN
        assert positive((50,)).draw(rng)[0].min() >= 0.5
        assert np.abs(nonzero((50,)).draw(rng)[0]).min() >= MARGIN


MAX_MIN_WITH_DIM = [("max", np.max, np.argmax, 1, False), ("max", np.max, np.argmax, -1, True),
                    ("min", np.min, np.argmin, 0, False), ("min", np.min, np.argmin, -2, True)]


@pytest.mark.parametrize("name, reduce, arg, dim, keepdim", MAX_MIN_WITH_DIM)
def test_max_min_with_dim_give_values_and_numpy_indices(name, reduce, arg, dim, keepdim):
    (array,) = distinct((2, 3, 4)).draw(np.random.default_rng(1))
    result = getattr(minigrad.tensor(array, requires_grad=True), name)(dim=dim, keepdim=keepdim)
    values, indices = result  # a pair, as torch.return_types.max
    assert values is result.values and indices is result.indices
    np.testing.assert_array_equal(np.asarray(values), reduce(array, axis=dim, keepdims=keepdim))
    np.testing.assert_array_equal(np.asarray(indices), arg(array, axis=dim, keepdims=keepdim))
    assert indices.dtype == np.int64


@pytest.mark.parametrize("case", CASES)
def test_forward_float64_matches_numpy(case):
    arrays = case.draw(_rng(case))
    _, out = _forward(case, arrays)
    expected = np.asarray(case.reference(*arrays))
    assert out.dtype == np.float64
    assert out.shape == expected.shape
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES)
def test_forward_and_backward_float32_stay_float32(case):
    arrays = [a.astype(np.float32) for a in case.draw(_rng(case))]
    leaves, out = _forward(case, arrays)
    # The reference in float64 on the very same (float32-rounded) numbers.
    expected = np.asarray(case.reference(*[a.astype(np.float64) for a in arrays]))
    assert out.dtype == np.float32
    assert out.shape == expected.shape
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-5, atol=1e-5)

    v = _rng(case, "v").standard_normal(out.shape).astype(np.float32)
    out.backward(gradient=minigrad.tensor(v))
    for leaf in leaves:
        assert leaf.grad is not None
        assert leaf.grad.dtype == np.float32
        assert leaf.grad.shape == leaf.shape


@pytest.mark.parametrize("case", CASES)
def test_first_order_gradient_matches_finite_differences(case):
    rng = _rng(case)
    arrays = case.draw(rng)
    leaves, out = _forward(case, arrays)
    v = rng.standard_normal(out.shape)
    out.backward(gradient=minigrad.tensor(v))

    # The finite differences use the NumPy reference: an independent definition of f.
    expected = numerical_vjp(case.reference, arrays, v)
    for position, (leaf, want) in enumerate(zip(leaves, expected)):
        assert leaf.grad is not None, f"input {position} got no gradient"
        assert leaf.grad.shape == leaf.shape
        np.testing.assert_allclose(np.asarray(leaf.grad), want, rtol=1e-6, atol=1e-7,
                                   err_msg=f"gradient of input {position}")


@pytest.mark.parametrize("case", CASES)
def test_second_order_gradient_matches_finite_differences(case):
    rng = _rng(case)
    arrays = case.draw(rng)
    leaves, out = _forward(case, arrays)
    v = rng.standard_normal(out.shape)
    w = [rng.standard_normal(a.shape) for a in arrays]

    grads = minigrad.autograd.grad(out, leaves, grad_outputs=minigrad.tensor(v), create_graph=True)
    # Recording the backward pass must not change its result.
    for g, plain in zip(grads, _first_order(case, arrays, v)):
        np.testing.assert_allclose(np.asarray(g), plain, rtol=1e-12, atol=1e-12)

    # <w, g(x)>; a gradient that does not depend on x (a linear op) has no graph: its derivative is 0.
    terms = [(g * minigrad.tensor(wi)).sum() for g, wi in zip(grads, w) if g.requires_grad]
    if terms:
        second = minigrad.autograd.grad(sum(terms[1:], terms[0]), leaves, allow_unused=True)
    else:
        second = [None] * len(leaves)
    analytic = [np.zeros(a.shape) if s is None else np.asarray(s) for s, a in zip(second, arrays)]

    def inner_product_with_gradient(*points):
        return sum(float(np.sum(wi * g)) for wi, g in zip(w, _first_order(case, points, v)))

    expected = numerical_gradients(inner_product_with_gradient, arrays)
    for position, (got, want) in enumerate(zip(analytic, expected)):
        assert got.shape == arrays[position].shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7, err_msg=f"second derivative, input {position}")


@pytest.mark.parametrize("case", CASES)
def test_grad_fn_name_is_pytorchs(case, torch):
    arrays = case.draw(_rng(case))
    torch_leaves = [torch.tensor(a, requires_grad=True) for a in arrays]
    expected = case.fn(torch, *torch_leaves).grad_fn.name()
    _, out = _forward(case, arrays)
    assert out.grad_fn is not None
    assert out.grad_fn.name() == expected
