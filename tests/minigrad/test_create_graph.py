"""create_graph=True: the backward pass is recorded, so derivatives of any order work."""

import math
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import minigrad

grad = minigrad.autograd.grad


def in_minigrad_words(text):
    """PyTorch's warning as minigrad must word it: torch. read as minigrad, no C++ location."""
    text = re.sub(r" \(Triggered internally at [^)]*\)$", "", text)
    return text.replace("torch.", "minigrad.")


def f64(value):
    return minigrad.tensor(value, dtype=minigrad.float64, requires_grad=True)


# --- higher derivatives by hand ---------------------------------------------------


def test_derivatives_of_x_cubed_to_third_order():
    """y = x^3 at x = 2: y' = 3x^2 = 12, y'' = 6x = 12, y''' = 6."""
    x = f64(2.0)
    y = x ** 3
    (d1,) = grad(y, x, create_graph=True)
    (d2,) = grad(d1, x, create_graph=True)
    (d3,) = grad(d2, x, create_graph=True)
    assert (d1.item(), d2.item(), d3.item()) == (12.0, 12.0, 6.0)


def test_derivatives_of_a_polynomial_by_hand():
    """y = x^4 - 2x^2 at x = 3: y' = 4x^3 - 4x = 96, y'' = 12x^2 - 4 = 104, y''' = 24x = 72, y'''' = 24."""
    x = f64(3.0)
    y = x ** 4 - 2 * x ** 2
    derivatives = []
    d = y
    for _ in range(4):
        (d,) = grad(d, x, create_graph=True)
        derivatives.append(d.item())
    assert derivatives == [96.0, 104.0, 72.0, 24.0]


def test_derivatives_of_a_product_of_two_variables():
    """f = x^2 y at (x, y) = (3, 5): df/dx = 2xy = 30, d2f/dxdy = 2x = 6, d2f/dx2 = 2y = 10."""
    x, y = f64(3.0), f64(5.0)
    f = x * x * y
    (fx,) = grad(f, x, create_graph=True)
    fxx, fxy = grad(fx, (x, y))
    assert (fx.item(), fxx.item(), fxy.item()) == (30.0, 10.0, 6.0)


def test_derivatives_of_tanh_to_third_order():
    """t = tanh(x): t' = 1 - t^2, t'' = -2t(1 - t^2), t''' = -2(1 - t^2)(1 - 3t^2), at x = 0.5 in float64."""
    x = f64(0.5)
    y = x.tanh()
    (d1,) = grad(y, x, create_graph=True)
    (d2,) = grad(d1, x, create_graph=True)
    (d3,) = grad(d2, x)
    t = math.tanh(0.5)
    assert d1.item() == pytest.approx(1 - t * t, rel=1e-12)
    assert d2.item() == pytest.approx(-2 * t * (1 - t * t), rel=1e-12)
    assert d3.item() == pytest.approx(-2 * (1 - t * t) * (1 - 3 * t * t), rel=1e-12)


def test_second_derivative_of_exp_and_sin():
    """d2/dx2 [exp(x) sin(x)] = 2 exp(x) cos(x) (the exp*sin terms cancel), at x = 0.3."""
    x = f64(0.3)
    (d1,) = grad(x.exp() * x.sin(), x, create_graph=True)
    (d2,) = grad(d1, x)
    assert d2.item() == pytest.approx(2 * math.exp(0.3) * math.cos(0.3), rel=1e-12)


def test_hessian_vector_product():
    """f = x0^2 x1 + x1^3 has H = [[2x1, 2x0], [2x0, 6x1]] = [[4, 2], [2, 12]] at (1, 2); H @ [1, 1] = [6, 14]."""
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    f = x[0] ** 2 * x[1] + x[1] ** 3
    (g,) = grad(f, x, create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), [4.0, 13.0])  # [2 x0 x1, x0^2 + 3 x1^2]
    v = minigrad.tensor([1.0, 1.0], dtype=minigrad.float64)
    (hv,) = grad(g, x, grad_outputs=v)
    np.testing.assert_array_equal(hv.numpy(), [6.0, 14.0])


def test_hessian_vector_product_through_backward_into_grad():
    """The same H v, taken by calling backward on (g . v): x.grad = [6, 14]."""
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    f = x[0] ** 2 * x[1] + x[1] ** 3
    (g,) = grad(f, x, create_graph=True)
    (g * minigrad.tensor([1.0, 1.0], dtype=minigrad.float64)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 14.0])


def test_double_backward_matches_torch(torch):
    """Second derivatives of a small network-like expression agree with PyTorch's."""

    def run(lib):
        x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        w = lib.tensor([1.5, 0.25, -0.75], dtype=lib.float64, requires_grad=True)
        y = ((x * w).sigmoid() * x.exp()).sum() / (w ** 2).sum()
        gx, gw = lib.autograd.grad(y, (x, w), create_graph=True)
        hx, hw = lib.autograd.grad((gx * gx).sum() + gw.sum(), (x, w))
        return np.asarray(hx.tolist()), np.asarray(hw.tolist())

    for got, expected in zip(run(minigrad), run(torch)):
        np.testing.assert_allclose(got, expected, rtol=1e-10)


# --- what the recorded gradient looks like -------------------------------------------


def test_grad_with_create_graph_has_a_grad_fn():
    """With create_graph=True the returned gradient is a non-leaf that requires grad."""
    x = f64(2.0)
    (g,) = grad(x ** 3, x, create_graph=True)
    assert g.requires_grad
    assert g.grad_fn is not None
    assert not g.is_leaf


def test_grad_without_create_graph_has_no_grad_fn():
    """Without create_graph, the gradient is a plain tensor: no grad_fn, no requires_grad."""
    x = f64(2.0)
    (g,) = grad(x ** 3, x)
    assert g.grad_fn is None
    assert not g.requires_grad


def test_backward_with_create_graph_gives_dot_grad_a_grad_fn():
    """backward(create_graph=True) leaves x.grad = 3x^2 = 12 with a grad_fn; backward on it gives 6x = 12."""
    x = f64(2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        (x ** 3).backward(create_graph=True)
    g = x.grad
    assert g.item() == 12.0 and g.grad_fn is not None
    (d2,) = grad(g, x)
    assert d2.item() == 12.0


def test_backward_through_dot_grad_accumulates_into_dot_grad(torch):
    """x.grad.backward() after backward(create_graph=True) adds the second derivative into x.grad, as PyTorch."""

    def run(lib):
        x = lib.tensor(3.0, dtype=lib.float64, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            (x ** 3).backward(create_graph=True)  # x.grad = 27
            x.grad.backward()  # adds 6x = 18
        return x.grad.item()

    assert run(minigrad) == run(torch) == 45.0


def test_create_graph_inside_no_grad_matches_torch(torch):
    """Whether the gradient from grad(create_graph=True) called under no_grad requires grad agrees with PyTorch."""

    def run(lib):
        x = lib.tensor(2.0, requires_grad=True)
        y = x ** 3
        with lib.no_grad():
            (g,) = lib.autograd.grad(y, x, create_graph=True)
        return g.requires_grad, g.item()

    assert run(minigrad) == run(torch)


# --- the reference-cycle warning ------------------------------------------------------


def test_backward_with_create_graph_warns_about_the_reference_cycle(torch):
    """Tensor.backward(create_graph=True) warns (UserWarning) with PyTorch's reference-cycle wording."""

    def run(lib):
        x = lib.tensor(2.0, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (x * x).backward(create_graph=True)
        return [(w.category, in_minigrad_words(str(w.message))) for w in caught]

    def told_to_warn_always(lib):  # (both warn once per process, unless told to warn always)
        warn_always = lib.is_warn_always_enabled()
        lib.set_warn_always(True)
        try:
            return run(lib)
        finally:
            lib.set_warn_always(warn_always)

    expected = told_to_warn_always(torch)
    assert len(expected) == 1 and expected[0][0] is UserWarning
    assert told_to_warn_always(minigrad) == expected


def test_autograd_grad_with_create_graph_does_not_warn():
    """autograd.grad(create_graph=True) is the recommended way and does not warn."""
    x = minigrad.tensor(2.0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (g,) = grad(x * x, x, create_graph=True)
    assert g.item() == 4.0  # 2x at x = 2


def test_the_first_grad_with_create_graph_is_a_recorded_copy_as_in_pytorch(torch):
    # PyTorch stores it with copy_ into a new tensor: CopyBackwards, at version 1. A later
    # backward without create_graph adds in place: same tensor, same grad_fn, version 2.
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the reference-cycle warning: see the next test
            (x ** 3).sum().backward(create_graph=True)
        first = x.grad
        node = first.grad_fn
        seen = [node.name(), node.next_functions[0][0], first._version, first.tolist()]
        (x * 5).sum().backward()
        return seen + [x.grad is first, x.grad.grad_fn is node, x.grad._version, x.grad.tolist()]

    mine, theirs = run(minigrad), run(torch)
    assert mine == theirs
    assert mine == ["torch::autograd::CopyBackwards", None, 1, [3.0, 12.0], True, True, 2, [8.0, 17.0]]


CYCLE_WARNING = """
import warnings, {lib} as torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
for call in ("method", "method again", "function"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if call == "function":
            torch.autograd.backward((x * x).sum(), create_graph=True)
        else:
            (x * x).sum().backward(create_graph=True)
    print(call, [str(w.message) for w in caught if issubclass(w.category, UserWarning)])
"""


def test_backward_with_create_graph_warns_about_the_reference_cycle_once_per_process_as_pytorch(torch):
    # PyTorch warns the first time only (TORCH_WARN_ONCE), even with the "always" filter: each
    # library runs in a fresh process, where the first call is the first.
    def seen(lib):
        done = subprocess.run([sys.executable, "-c", CYCLE_WARNING.format(lib=lib)], capture_output=True, text=True,
                              timeout=120, check=True)
        # PyTorch's C++ warnings end by naming the source line that raised them
        return [re.sub(r" \(Triggered internally at [^)]*\)", "", line).replace(lib, "LIB")
                for line in done.stdout.splitlines()]

    mine, theirs = seen("minigrad"), seen("torch")
    assert "reference cycle between the parameter and its gradient" in theirs[0]
    assert theirs[1:] == ["method again []", "function []"]
    assert mine == theirs
