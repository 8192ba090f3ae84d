"""gradcheck / gradgradcheck: they pass right gradients, catch wrong ones, and say so as PyTorch does."""

import os
import re
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd import GradcheckError, gradcheck, gradgradcheck

if os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")


def pair(array, requires_grad=True):
    """The same float64 values as a minigrad tensor and a torch tensor."""
    array = np.asarray(array, dtype=np.float64)
    return (minigrad.tensor(array, requires_grad=requires_grad),
            torch.tensor(array, requires_grad=requires_grad))


def error_of(fn, *args, **kwargs):
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return info.value


def same_text(torch_text, minigrad_text):
    """Equal once PyTorch's ``torch.`` names read ``minigrad.`` (URLs like pytorch.org stay)."""
    return re.sub(r"\btorch\.", "minigrad.", torch_text) == minigrad_text


def make_square(lib, wrong):
    """A custom Function y = x**2 whose backward is right (2x) or wrong (x)."""

    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x if wrong else grad * 2 * x

    return Square


# --- passing ----------------------------------------------------------------------------


@pytest.mark.parametrize("fast_mode", [False, True])
@pytest.mark.parametrize("fn", [
    lambda x, y: (x * y).exp(),
    lambda x, y: x @ y.T,
    lambda x, y: ((x - y) ** 2).sum(),
    lambda x, y: (x.softmax(1), y.tanh()),          # two outputs
    lambda x, y: x.sum(0) / y.sum(),
])
def test_right_gradients_pass_as_in_torch(fn, fast_mode):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3)), rng.uniform(0.5, 1.5, (2, 3))
    (mx, tx), (my, ty) = pair(a), pair(b)
    assert torch.autograd.gradcheck(fn, (tx, ty), fast_mode=fast_mode) is True
    assert gradcheck(fn, (mx, my), fast_mode=fast_mode) is True


def test_right_custom_function_passes_and_inputs_are_left_as_they_were():
    x = minigrad.tensor([0.5, -1.5, 2.0], dtype=minigrad.float64, requires_grad=True)
    before, version = x.detach().numpy().copy(), x._version
    assert gradcheck(make_square(minigrad, wrong=False).apply, (x,))
    np.testing.assert_array_equal(x.detach().numpy(), before)
    assert x._version == version and x.grad is None


def test_non_tensor_inputs_pass_through_and_a_single_tensor_is_accepted():
    x = minigrad.tensor([1.0, 2.0], dtype=minigrad.float64, requires_grad=True)
    assert gradcheck(lambda t, k: t * k, (x, 3))
    assert gradcheck(lambda t: t.sum(), x)
    assert gradcheck(lambda t: (t * 2, t.argmax()), (x,))  # an integer output is not differentiable


# --- failing ----------------------------------------------------------------------------


def test_wrong_custom_backward_gives_torchs_message():
    (mx, tx) = pair([1.0, 2.0])
    t_err = error_of(torch.autograd.gradcheck, make_square(torch, wrong=True).apply, (tx,))
    m_err = error_of(gradcheck, make_square(minigrad, wrong=True).apply, (mx,))
    assert isinstance(m_err, GradcheckError) and isinstance(m_err, RuntimeError)
    assert str(m_err).startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert same_text(str(t_err), str(m_err))
    assert gradcheck(make_square(minigrad, wrong=True).apply, (mx,), raise_exception=False) is False


def test_jacobian_layout_is_torchs_for_a_non_square_jacobian():
    # y = W x (J = W, 3x2) with a backward that doubles: analytical J is 2W.
    w = np.arange(6.0).reshape(3, 2) + 1

    def make(lib):
        W = lib.tensor(w, dtype=lib.float64)

        class Lin(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return W @ x

            @staticmethod
            def backward(ctx, grad):
                return 2 * (W.T @ grad)

        return Lin

    mx, tx = pair([1.0, -1.0])
    t_err = error_of(torch.autograd.gradcheck, make(torch).apply, (tx,))
    m_err = error_of(gradcheck, make(minigrad).apply, (mx,))
    assert same_text(str(t_err), str(m_err))
    # Both Jacobians are printed as (input numel, output numel): the transpose of J.
    analytical = str(m_err).split("analytical:")[1]
    assert analytical == repr(minigrad.tensor(2 * w.T)) + "\n"


def test_error_names_the_output_and_input_index():
    Square = make_square(minigrad, wrong=True)
    x, y = pair([1.0, 2.0])[0], pair([3.0])[0]
    err = error_of(gradcheck, lambda a, b: (a * 2, Square.apply(b)), (x, y))
    assert str(err).startswith("Jacobian mismatch for output 1 with respect to input 1,")


def test_fast_mode_catches_a_wrong_backward_and_shows_the_slow_mode_jacobians():
    mx, tx = pair([1.0, 2.0])
    t_err = error_of(torch.autograd.gradcheck, make_square(torch, wrong=True).apply, (tx,), fast_mode=True)
    m_err = error_of(gradcheck, make_square(minigrad, wrong=True).apply, (mx,), fast_mode=True)
    assert isinstance(m_err, GradcheckError)
    head, _, slow = str(m_err).partition("\nThe above quantities")
    assert head.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    # The random directions differ from PyTorch's; the slow-mode recomputation must not.
    assert same_text(str(t_err).partition("\nThe above quantities")[2], slow)
    # For this Jacobian (diag(2x) vs diag(x)) the analytical product is half the numerical one.
    numerical = float(head.split("numerical:")[1].split("\n")[0])
    analytical = float(head.split("analytical:")[1].split("\n")[0])
    assert analytical == pytest.approx(numerical / 2, rel=1e-6)


def test_fast_mode_passes_and_leaves_the_global_generator_alone():
    x = minigrad.tensor([0.3, 0.7], dtype=minigrad.float64, requires_grad=True)
    minigrad.manual_seed(5)
    expected = minigrad.rand(3).numpy()
    minigrad.manual_seed(5)
    assert gradcheck(lambda t: t.sin() * t, (x,), fast_mode=True)
    np.testing.assert_array_equal(minigrad.rand(3).numpy(), expected)


def is_zero(g):
    return float(g.abs().sum()) == 0.0


def test_backward_not_multiplied_by_grad_output():
    def make(lib):
        class Leaky(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                # Right for every basis vector, but not 0 for a zero grad_output.
                return grad * 2 * x + (1.0 if is_zero(grad) else 0.0)

        return Leaky

    mx, tx = pair([1.0, 2.0])
    t_err = error_of(torch.autograd.gradcheck, make(torch).apply, (tx,))
    m_err = error_of(gradcheck, make(minigrad).apply, (mx,))
    assert str(m_err) == str(t_err) == "backward not multiplied by grad_output"
    assert isinstance(m_err, GradcheckError)


def make_two_outputs(lib, on_partly_undefined):
    """y = (2x, 3x), with materialize_grads off: backward sees None for an undefined grad.

    Gradcheck's Jacobian rows give (e_j, None) or (None, e_j); its undefined-grad
    check gives (0, None) and (None, 0). ``on_partly_undefined`` decides what
    backward does with the latter.
    """

    class Two(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            if g1 is None and g2 is None:
                return None
            given = g1 if g2 is None else g2
            if (g1 is None or g2 is None) and is_zero(given):
                return on_partly_undefined(given)
            return (0 if g1 is None else g1 * 2) + (0 if g2 is None else g2 * 3)

    return Two


def raise_runtime_error(grad):
    raise RuntimeError("an output gradient is missing")


@pytest.mark.parametrize("on_partly_undefined, start", [
    (raise_runtime_error, "Expected backward function to handle undefined output grads."),
    (lambda grad: grad + 1, "Expected all input grads to be undefined or zero when all output grads"),
])
def test_undefined_output_grads_that_backward_mishandles(on_partly_undefined, start):
    mx, tx = pair([1.0, 2.0])
    with warnings.catch_warnings(record=True) as t_warn:
        warnings.simplefilter("always")
        t_err = error_of(torch.autograd.gradcheck, make_two_outputs(torch, on_partly_undefined).apply, (tx,))
    with warnings.catch_warnings(record=True) as m_warn:
        warnings.simplefilter("always")
        m_err = error_of(gradcheck, make_two_outputs(minigrad, on_partly_undefined).apply, (mx,))
    assert isinstance(m_err, GradcheckError)
    assert str(m_err) == str(t_err) and str(m_err).startswith(start)
    assert str(m_err.__cause__) == str(t_err.__cause__)
    assert [str(w.message) for w in m_warn] == [str(w.message) for w in t_warn]
    # Without the undefined-gradient check, the Jacobians themselves are right.
    assert gradcheck(make_two_outputs(minigrad, on_partly_undefined).apply, (mx,), check_undefined_grad=False)


def test_undefined_output_grads_are_fine_for_materialized_grads():
    class Two(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):  # None gradients arrive as zeros
            return g1 * 2 + g2 * 3

    assert gradcheck(Two.apply, (pair([1.0, 2.0])[0],))


def test_nondeterministic_backward_is_not_reentrant():
    def make(lib):
        calls = []

        class Drift(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                calls.append(1)
                return grad * (2 + 1e-9 * len(calls))  # a little different every time

        return Drift

    mx, tx = pair([1.0, 2.0])
    t_err = error_of(torch.autograd.gradcheck, make(torch).apply, (tx,))
    m_err = error_of(gradcheck, make(minigrad).apply, (mx,))
    assert str(m_err) == str(t_err)
    assert str(m_err).startswith("Backward is not reentrant")
    assert gradcheck(make(minigrad).apply, (mx,), nondet_tol=1e-6)


def test_function_that_changes_without_a_differentiable_output():
    mx, tx = pair([1.0, 2.0])
    t_err = error_of(torch.autograd.gradcheck, lambda t: (t * 2).detach(), (tx,))
    m_err = error_of(gradcheck, lambda t: (t * 2).detach(), (mx,))
    assert str(m_err) == str(t_err) == "Numerical gradient for function expected to be zero"
    m_err = error_of(gradcheck, lambda t: (t * 2).detach(), (mx,), fast_mode=True)
    assert str(m_err) == "Numerical gradient for function expected to be zero"


# --- arguments --------------------------------------------------------------------------


def test_float32_input_warns_with_torchs_wording():
    tx = torch.tensor([1.0, 2.0], requires_grad=True)
    mx = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as t_warn:
        warnings.simplefilter("always")
        torch.autograd.gradcheck(lambda t: t * 2, (tx,), eps=1e-3, atol=1e-2)
    with pytest.warns(UserWarning) as m_warn:
        assert gradcheck(lambda t: t * 2, (mx,), eps=1e-3, atol=1e-2)
    assert [str(w.message) for w in m_warn] == [str(w.message) for w in t_warn]
    assert m_warn[0].filename == __file__  # points at the caller


def test_float32_with_default_eps_fails():
    # eps=1e-6 is below float32 resolution at 1.0: the numerical Jacobian is noise.
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.warns(UserWarning):
        assert gradcheck(lambda t: t * 2, (x,), raise_exception=False) is False


def test_no_input_requiring_grad():
    mx, tx = pair([1.0], requires_grad=False)
    t_err = error_of(torch.autograd.gradcheck, lambda t: t * 2, (tx,))
    m_err = error_of(gradcheck, lambda t: t * 2, (mx,))
    assert type(m_err) is ValueError and str(m_err) == str(t_err)


def test_expanded_input_is_refused():
    tx = torch.ones(1, dtype=torch.float64).expand(3).requires_grad_()
    mx = minigrad.ones(1, dtype=minigrad.float64).expand(3).requires_grad_()
    t_err = error_of(torch.autograd.gradcheck, lambda t: t * 2, (tx,))
    m_err = error_of(gradcheck, lambda t: t * 2, (mx,))
    assert type(m_err) is RuntimeError and str(m_err) == str(t_err)


@pytest.mark.parametrize("kwargs, error", [
    ({"check_batched_grad": True}, NotImplementedError),
    ({"check_forward_ad": True}, NotImplementedError),
    ({"check_backward_ad": False}, AssertionError),
    ({"check_batched_forward_grad": True}, AssertionError),
])
def test_unimplemented_options_raise(kwargs, error):
    x = pair([1.0])[0]
    with pytest.raises(error):
        gradcheck(lambda t: t * 2, (x,), **kwargs)


def test_masked_relaxes_only_the_zero_gradient_check():
    x = pair([1.0, 2.0])[0]
    assert gradcheck(lambda t: t.exp(), (x,), masked=True)
    assert gradcheck(lambda t: t.exp(), (x,), masked=False)


# --- gradgradcheck ------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [
    lambda x: x ** 3,
    lambda x: x.tanh() * x,
    lambda x: x.softmax(-1),
    lambda x: (x.exp().sum(), x.sigmoid()),
])
def test_gradgradcheck_passes_right_second_derivatives(fn):
    rng = np.random.default_rng(1)
    mx, tx = pair(rng.standard_normal((2, 3)))
    assert torch.autograd.gradgradcheck(fn, (tx,)) is True
    assert gradgradcheck(fn, (mx,)) is True
    assert gradgradcheck(fn, (mx,), gen_non_contig_grad_outputs=True) is True


def test_gradgradcheck_with_given_grad_outputs_and_fast_mode():
    mx, _ = pair([0.5, -1.0, 2.0])
    go = minigrad.tensor([1.0, -2.0, 0.5], dtype=minigrad.float64, requires_grad=True)
    assert gradgradcheck(lambda t: t ** 3, (mx,), (go,))
    assert gradgradcheck(lambda t: t ** 3, (mx,), go, fast_mode=True)


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    def make(lib):
        class Detached(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return grad * 2 * x.detach()  # right, but hides x from double backward

        return Detached

    mx, tx = pair([1.0, 2.0])
    m_go = minigrad.ones(2, dtype=minigrad.float64, requires_grad=True)
    t_go = torch.ones(2, dtype=torch.float64, requires_grad=True)
    assert gradcheck(make(minigrad).apply, (mx,))  # first derivatives are fine
    t_err = error_of(torch.autograd.gradgradcheck, make(torch).apply, (tx,), (t_go,))
    m_err = error_of(gradgradcheck, make(minigrad).apply, (mx,), (m_go,))
    assert isinstance(m_err, GradcheckError)
    assert same_text(str(t_err), str(m_err))
    assert gradgradcheck(make(minigrad).apply, (mx,), (m_go,), raise_exception=False) is False


def test_gradgradcheck_random_grad_outputs_come_from_the_seeded_generator():
    x = pair([0.5, 1.5])[0]
    seen = []

    def fn(t):
        return t ** 3

    minigrad.manual_seed(3)
    assert gradgradcheck(fn, (x,))
    seen.append(minigrad.rand(2).numpy())
    minigrad.manual_seed(3)
    assert gradgradcheck(fn, (x,))
    seen.append(minigrad.rand(2).numpy())
    np.testing.assert_array_equal(*seen)
