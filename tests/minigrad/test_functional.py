"""autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp against PyTorch and by hand."""

import os
import re

import numpy as np
import pytest

import minigrad
from minigrad.autograd import functional as MF

if os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")
TF = torch.autograd.functional

RNG = np.random.default_rng(0)
A = RNG.standard_normal((2, 3))
B = RNG.uniform(0.5, 1.5, 3)
VA = RNG.standard_normal((2, 3))
VB = RNG.standard_normal(3)


def both(*arrays):
    """Each float64 array as (minigrad tensors, torch tensors)."""
    return (tuple(minigrad.tensor(a) for a in arrays), tuple(torch.tensor(a) for a in arrays))


def assert_same_structure_and_values(m, t):
    """Same nesting (Tensor vs tuple, lengths), shapes, dtypes and values."""
    if isinstance(t, tuple):
        assert isinstance(m, tuple) and len(m) == len(t)
        for mi, ti in zip(m, t):
            assert_same_structure_and_values(mi, ti)
        return
    assert isinstance(m, minigrad.Tensor) and not isinstance(m, tuple)
    assert m.shape == tuple(t.shape)
    assert m.dtype == t.detach().numpy().dtype
    np.testing.assert_allclose(m.detach().numpy(), t.detach().numpy(), rtol=1e-12, atol=1e-12)


def run_both(fn_name, func, arrays, v=None, unpack=(), **kwargs):
    """Call ``fn_name`` of both libraries on the same data; ``unpack`` marks tuple arguments."""
    (m_in, t_in) = both(*arrays)
    m_args = m_in if "inputs" in unpack else m_in[0]
    t_args = t_in if "inputs" in unpack else t_in[0]
    extra_m, extra_t = (), ()
    if v is not None:
        m_v, t_v = both(*v)
        extra_m = (m_v if "v" in unpack else m_v[0],)
        extra_t = (t_v if "v" in unpack else t_v[0],)
    m = getattr(MF, fn_name)(func, m_args, *extra_m, **kwargs)
    t = getattr(TF, fn_name)(func, t_args, *extra_t, **kwargs)
    return m, t


def two_in_two_out(x, y):
    return (x * y).sum(1), x.exp()


def two_in_one_out(x, y):
    return (x * y).tanh()


def scalar(x):
    return (x ** 3).sum() + (x[0] * x[1]).sum()


def scalar2(x, y):
    return ((x * y).sum() ** 2) + y.exp().sum()


# --- jacobian -----------------------------------------------------------------------------


@pytest.mark.parametrize("func, arrays, unpack", [
    (lambda x: x.exp(), (A,), ()),                               # tensor -> tensor
    (lambda x: (x.exp(), x.sum()), (A,), ()),                    # tensor -> tuple
    (two_in_one_out, (A, B), ("inputs",)),                       # tuple -> tensor
    (two_in_two_out, (A, B), ("inputs",)),                       # tuple -> tuple of tuples
    (lambda x: x.softmax(0), (B,), ()),
])
def test_jacobian_matches_torch(func, arrays, unpack):
    m, t = run_both("jacobian", func, arrays, unpack=unpack)
    assert_same_structure_and_values(m, t)


def test_jacobian_by_hand():
    x = minigrad.tensor([1.0, 2.0, 3.0], dtype=minigrad.float64)
    # d(x**2)/dx = diag(2x); shape output.shape + input.shape.
    np.testing.assert_array_equal(MF.jacobian(lambda t: t ** 2, x).numpy(), np.diag([2.0, 4.0, 6.0]))
    j = MF.jacobian(lambda t: t.reshape(3, 1) * t, x)
    assert j.shape == (3, 3, 3)


def test_jacobian_of_unused_input_is_zeros_or_strict_error():
    m, t = run_both("jacobian", lambda x, y: x * 2, (A, B), unpack=("inputs",))
    assert_same_structure_and_values(m, t)
    assert not m[1].numpy().any()


def test_jacobian_is_detached_unless_create_graph():
    x = minigrad.tensor(A, requires_grad=True)
    j = MF.jacobian(lambda t: t ** 3, x)
    assert not j.requires_grad and j.grad_fn is None
    x.grad = None
    j = MF.jacobian(lambda t: t ** 3, x, create_graph=True)
    assert j.requires_grad
    j.sum().backward()
    tx = torch.tensor(A, requires_grad=True)
    TF.jacobian(lambda t: t ** 3, tx, create_graph=True).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), 6 * A, rtol=1e-12)  # J = diag(3 x^2), so d(sum J)/dx = 6 x


def test_jacobian_works_inside_no_grad_and_leaves_inputs_alone():
    x = minigrad.tensor(B, requires_grad=True)
    with minigrad.no_grad():
        j = MF.jacobian(lambda t: t.exp(), x)
    np.testing.assert_allclose(j.numpy(), np.diag(np.exp(B)), rtol=1e-12)
    assert x.grad is None and x._version == 0


# --- hessian ------------------------------------------------------------------------------


@pytest.mark.parametrize("func, arrays, unpack", [
    (scalar, (A,), ()),
    (scalar2, (A, B), ("inputs",)),
    (lambda x: x.logsumexp(0), (B,), ()),
])
def test_hessian_matches_torch(func, arrays, unpack):
    m, t = run_both("hessian", func, arrays, unpack=unpack)
    assert_same_structure_and_values(m, t)


def test_hessian_by_hand():
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64)
    h = MF.hessian(lambda t: t[0] ** 2 * t[1], x)  # [[2 y, 2 x], [2 x, 0]]
    np.testing.assert_allclose(h.numpy(), [[4.0, 2.0], [2.0, 0.0]], rtol=1e-12)


def test_hessian_create_graph_is_differentiable():
    x = minigrad.tensor(B, requires_grad=True)
    h = MF.hessian(lambda t: (t ** 4).sum(), x, create_graph=True)
    h.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 24 * B, rtol=1e-12)  # H = diag(12 x^2), so d(sum H)/dx = 24 x


# --- vjp, jvp, hvp, vhp ---------------------------------------------------------------------


@pytest.mark.parametrize("fn_name, func, arrays, v, unpack", [
    ("vjp", lambda x: x.exp() * x, (A,), (VA,), ()),
    ("vjp", two_in_two_out, (A, B), (VB[:2], VA), ("inputs", "v")),
    ("vjp", lambda x: x.sum(), (A,), None, ()),
    ("jvp", lambda x: x.exp() * x, (A,), (VA,), ()),
    ("jvp", two_in_two_out, (A, B), (VA, VB), ("inputs", "v")),
    ("jvp", lambda x: x.softmax(0), (B,), (VB,), ()),
    ("hvp", scalar, (A,), (VA,), ()),
    ("hvp", scalar2, (A, B), (VA, VB), ("inputs", "v")),
    ("vhp", scalar, (A,), (VA,), ()),
    ("vhp", scalar2, (A, B), (VA, VB), ("inputs", "v")),
])
@pytest.mark.parametrize("create_graph", [False, True])
def test_products_match_torch(fn_name, func, arrays, v, unpack, create_graph):
    m, t = run_both(fn_name, func, arrays, v=v, unpack=unpack, create_graph=create_graph)
    assert_same_structure_and_values(m, t)


def test_jvp_is_the_jacobian_times_v():
    x = minigrad.tensor(B)
    v = minigrad.tensor(VB)
    f = lambda t: t.softmax(0) * t.sum()  # noqa: E731
    _, jv = MF.jvp(f, x, v)
    np.testing.assert_allclose(jv.numpy(), MF.jacobian(f, x).numpy() @ VB, rtol=1e-12)


def test_hvp_equals_vhp_for_a_smooth_function():
    x, v = minigrad.tensor(A), minigrad.tensor(VA)
    np.testing.assert_allclose(MF.hvp(scalar, x, v)[1].numpy(), MF.vhp(scalar, x, v)[1].numpy(), rtol=1e-12)


def test_single_element_input_needs_no_v():
    x = minigrad.tensor(2.0, dtype=minigrad.float64)
    out, jv = MF.jvp(lambda t: t ** 3, x)
    assert out.item() == 8.0 and jv.item() == 12.0
    out, hv = MF.hvp(lambda t: t ** 3, x)
    assert hv.item() == 12.0


def test_jvp_of_a_constant_function_is_zero():
    m, t = run_both("jvp", lambda x: x * 0 + 1, (B,), v=(VB,))
    assert_same_structure_and_values(m, t)


# --- errors ---------------------------------------------------------------------------------


def error_text(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type is compared below)
        return f"{type(e).__name__}: {e}"
    return "no error"


ERROR_CASES = [
    ("vjp", lambda lib, T: MF_or_TF(lib).vjp(lambda x: x * 2, T(A))),
    ("vjp wrong v size", lambda lib, T: MF_or_TF(lib).vjp(lambda x: x * 2, T(A), T(B))),
    ("vjp v tuple length", lambda lib, T: MF_or_TF(lib).vjp(lambda x: (x * 2, x), T(A), (T(A),))),
    ("vjp v entry size", lambda lib, T: MF_or_TF(lib).vjp(lambda x: (x * 2, x), T(A), (T(A), T(B)))),
    ("jvp no v", lambda lib, T: MF_or_TF(lib).jvp(lambda x: x * 2, T(A))),
    ("jacobian strict unused", lambda lib, T: MF_or_TF(lib).jacobian(lambda x, y: x * 2, (T(A), T(B)), strict=True)),
    ("jacobian strict detached", lambda lib, T: MF_or_TF(lib).jacobian(lambda x: x.detach(), T(A), strict=True)),
    ("hessian non-scalar", lambda lib, T: MF_or_TF(lib).hessian(lambda x: x, T(A))),
    ("hessian tuple", lambda lib, T: MF_or_TF(lib).hessian(lambda x: (x, x), T(A))),
    ("hessian strict linear", lambda lib, T: MF_or_TF(lib).hessian(lambda x: (x * 2).sum(), T(A), strict=True)),
    ("hvp non-scalar", lambda lib, T: MF_or_TF(lib).hvp(lambda x: x, T(A), T(A))),
    ("hvp tuple", lambda lib, T: MF_or_TF(lib).hvp(lambda x: (x.sum(),), T(A), T(A))),
    ("vhp strict linear", lambda lib, T: MF_or_TF(lib).vhp(lambda x: x.sum(), T(A), T(A), strict=True)),
    ("list inputs", lambda lib, T: MF_or_TF(lib).jacobian(lambda x: x, [T(A)])),
    ("tuple with a number", lambda lib, T: MF_or_TF(lib).jacobian(lambda x, y: x, (T(A), 3))),
    ("non-tensor output", lambda lib, T: MF_or_TF(lib).jacobian(lambda x: 3, T(A))),
    ("bad strategy", lambda lib, T: MF_or_TF(lib).jacobian(lambda x: x, T(A), strategy="bad")),
    ("vectorize strict", lambda lib, T: MF_or_TF(lib).jacobian(lambda x: x, T(A), strict=True, vectorize=True)),
    ("forward needs vectorize", lambda lib, T: MF_or_TF(lib).jacobian(lambda x: x, T(A), strategy="forward-mode")),
    ("forward create_graph", lambda lib, T: MF_or_TF(lib).jacobian(lambda x: x, T(A), create_graph=True,
                                                                   strategy="forward-mode")),
    ("vjp strict unused", lambda lib, T: MF_or_TF(lib).vjp(lambda x, y: x.sum(), (T(A), T(B)), strict=True)),
    ("jvp strict unused", lambda lib, T: MF_or_TF(lib).jvp(lambda x, y: x.sum(), (T(A), T(B)), (T(A), T(B)),
                                                          strict=True)),
]


def MF_or_TF(lib):
    return MF if lib is minigrad else TF


@pytest.mark.parametrize("name, case", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors_match_torch(name, case):
    t = error_text(lambda: case(torch, torch.tensor))
    m = error_text(lambda: case(minigrad, minigrad.tensor))
    assert t != "no error"
    assert m == re.sub(r"\btorch\.", "minigrad.", t)


@pytest.mark.parametrize("options", [dict(vectorize=True), dict(vectorize=True, strategy="forward-mode")],
                         ids=["vectorize", "forward-mode"])
def test_vectorize_and_forward_mode_give_pytorchs_jacobian(options):
    """vectorize=True (vmap in PyTorch) and forward mode run minigrad's row loop: the same numbers."""

    def f(x, y):
        return (x * y).tanh(), x.sum() * y

    got = MF.jacobian(f, (minigrad.tensor(A), minigrad.tensor(B)), **options)
    expected = TF.jacobian(f, (torch.tensor(A), torch.tensor(B)), **options)
    for got_row, expected_row in zip(got, expected):
        for g, e in zip(got_row, expected_row):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6)


def test_vectorized_hessian_is_pytorchs():
    def f(x):
        return (x ** 3).sum() * x[0, 0]

    got = MF.hessian(f, minigrad.tensor(A), vectorize=True, outer_jacobian_strategy="forward-mode")
    expected = TF.hessian(f, torch.tensor(A), vectorize=True, outer_jacobian_strategy="forward-mode")
    np.testing.assert_allclose(got.numpy(), expected.detach().numpy(), rtol=1e-6)
