"""minigrad.autograd.backward and minigrad.autograd.grad: arguments, results and errors."""

import warnings

import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error, in_minigrad_words

def leaf(values):
    return minigrad.tensor(values, requires_grad=True)


# --- autograd.backward ---------------------------------------------------------------


def test_backward_of_several_tensors_sums_their_vjps():
    """backward([2x, x*x], [ones, ones]) gives x.grad = 2 + 2x = [4, 6] at x = [1, 2]."""
    x = leaf([1.0, 2.0])
    minigrad.autograd.backward([x * 2.0, x * x], [minigrad.ones(2), minigrad.ones(2)])
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 6.0])


def test_backward_grad_tensors_weight_each_output():
    """backward([2x, x*x], [[1, 10], [100, 1000]]) gives 2*[1, 10] + 2x*[100, 1000] = [202, 4020] at x = [1, 2]."""
    x = leaf([1.0, 2.0])
    minigrad.autograd.backward(
        (x * 2.0, x * x), (minigrad.tensor([1.0, 10.0]), minigrad.tensor([100.0, 1000.0])))
    np.testing.assert_array_equal(x.grad.numpy(), [202.0, 4020.0])


def test_backward_accepts_a_single_tensor_and_a_single_gradient():
    """backward(y, v) with one tensor and one gradient (not sequences): x.grad = 3v = [3, 30]."""
    x = leaf([1.0, 2.0])
    minigrad.autograd.backward(x * 3.0, minigrad.tensor([1.0, 10.0]))
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 30.0])


def test_backward_of_a_single_scalar_needs_no_gradient():
    """backward(y) for a scalar y: implicit gradient 1, x.grad = 2x = [2, 4]."""
    x = leaf([1.0, 2.0])
    minigrad.autograd.backward((x * x).sum())
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_backward_sequence_of_scalars_with_none_gradients():
    """backward([s1, s2], [None, None]) uses implicit ones for both scalars: d(sum x + sum 3x) = 4."""
    x = leaf([1.0, 2.0])
    minigrad.autograd.backward([x.sum(), (x * 3.0).sum()], [None, None])
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 4.0])


def test_backward_with_python_float_gradient_matches_torch(torch):
    """A gradient given as a Python number for a scalar output is accepted as in PyTorch (x.grad = 2 * 5)."""

    def run(lib):
        x = lib.tensor(1.0, requires_grad=True)
        try:
            lib.autograd.backward(x * 2.0, 5.0)
        except Exception as e:  # noqa: BLE001 - the outcome itself is compared
            return type(e).__name__
        return x.grad.item()

    assert run(minigrad) == run(torch)


def test_backward_count_mismatch_is_an_error(torch):
    """Two tensors and one gradient raise PyTorch's 'got 2 tensors and 1 gradients'."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.backward([x.sum(), (x * 2).sum()], [lib.tensor(1.0)])

    assert_same_error(run, torch, expect_hint=False)


def test_backward_reports_the_index_of_the_tensor_without_grad_fn(torch):
    """In backward([y, constant]) the message names element 1."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.backward([x.sum(), lib.tensor(1.0)])

    assert_same_error(run, torch, expect_hint=True)


def test_backward_non_scalar_in_sequence_needs_a_gradient(torch):
    """backward([scalar, vector]) without gradients raises the implicit-gradient message."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.backward([x.sum(), x * 2])

    assert_same_error(run, torch, expect_hint=True)


def test_backward_wrong_shape_in_a_sequence_is_an_error(torch):
    """A wrong-shaped first gradient in a sequence gives 'Mismatch in shape: grad_output[0] ...'."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.backward([x * 2, x * 3], [lib.ones(3), lib.ones(2)])

    assert_same_error(run, torch, expect_hint=True)


def test_backward_wrong_shape_reports_the_index_of_the_gradient():
    """A wrong-shaped second gradient is named grad_output[1] / output[1] (checked by hand)."""
    # PyTorch 2.13 means to say the same but finds the index with list.index(), which
    # compares tensors with == and fails with a broadcasting error instead; that accident
    # of its implementation is not copied.
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError) as info:
        minigrad.autograd.backward([x * 2.0, x * 3.0], [minigrad.ones(2), minigrad.ones(3)])
    assert str(info.value).split(HINT)[0] == (
        "Mismatch in shape: grad_output[1] has a shape of minigrad.Size([3]) "
        "and output[1] has a shape of minigrad.Size([2]).")


# --- retain_variables (PyTorch 0.2's name) ---------------------------------------------------


def test_retain_variables_is_accepted_with_a_deprecation_warning():
    """retain_variables=True still works, as retain_graph=True, but warns with DeprecationWarning."""
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    with pytest.warns(DeprecationWarning, match="retain_variables"):
        minigrad.autograd.backward(y, retain_variables=True)
    y.backward()  # the graph was retained, so this works: 2x + 2x
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])


def test_retain_variables_false_frees_the_graph():
    """retain_variables=False acts as retain_graph=False: a second backward raises the freed-graph error."""
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    with pytest.warns(DeprecationWarning):
        minigrad.autograd.backward(y, retain_variables=False)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_retain_variables_with_retain_graph_is_a_value_error():
    """Giving both retain_graph and retain_variables raises ValueError with the documented wording."""
    x = leaf([1.0, 2.0])
    with pytest.raises(ValueError) as info:
        minigrad.autograd.backward((x * x).sum(), retain_graph=True, retain_variables=True)
    assert str(info.value) == "only one of retain_graph and retain_variables can be specified"
    assert x.grad is None


# --- autograd.grad -------------------------------------------------------------------------


def test_grad_returns_a_tuple_with_one_gradient_per_input():
    """grad(sum(a*b), [a, b]) returns the tuple (b, a)."""
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    result = minigrad.autograd.grad((a * b).sum(), [a, b])
    assert type(result) is tuple and len(result) == 2
    np.testing.assert_array_equal(result[0].numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(result[1].numpy(), [1.0, 2.0])


def test_grad_with_a_single_input_returns_a_one_tuple():
    """grad(y, x) with x a single tensor still returns a tuple of length 1."""
    x = leaf(3.0)
    result = minigrad.autograd.grad(x * x, x)
    assert type(result) is tuple and len(result) == 1
    assert result[0].item() == 6.0


def test_grad_touches_no_dot_grad():
    """grad() leaves .grad of every leaf as it was (None here, or an older value)."""
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    b.grad = minigrad.tensor([7.0, 7.0])
    minigrad.autograd.grad((a * b).sum(), [a])
    assert a.grad is None
    np.testing.assert_array_equal(b.grad.numpy(), [7.0, 7.0])


def test_grad_and_retain_grad_match_torch(torch):
    """Whether grad() fills .grad of a retain_grad() non-leaf on the path is PyTorch's choice (it does: 2h)."""

    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        h = a * 2.0
        h.retain_grad()
        lib.autograd.grad((h * h).sum(), [a])
        return None if h.grad is None else h.grad.tolist(), a.grad

    assert run(minigrad) == run(torch)


def test_grad_with_grad_outputs():
    """grad(x*x, x, grad_outputs=v) = 2x * v = [2, 40] for x = [1, 2], v = [1, 10]."""
    x = leaf([1.0, 2.0])
    (g,) = minigrad.autograd.grad(x * x, x, grad_outputs=minigrad.tensor([1.0, 10.0]))
    np.testing.assert_array_equal(g.numpy(), [2.0, 40.0])


def test_grad_of_several_outputs_sums():
    """grad([sum x, sum x*x], x) = 1 + 2x = [3, 5] at x = [1, 2]."""
    x = leaf([1.0, 2.0])
    (g,) = minigrad.autograd.grad([x.sum(), (x * x).sum()], x)
    np.testing.assert_array_equal(g.numpy(), [3.0, 5.0])


def test_grad_with_respect_to_a_non_leaf():
    """grad(sum(h*h), h) with h = 2x is 2h = [4, 8]; nothing reaches x."""
    x = leaf([1.0, 2.0])
    h = x * 2.0
    (g,) = minigrad.autograd.grad((h * h).sum(), h)
    np.testing.assert_array_equal(g.numpy(), [4.0, 8.0])
    assert x.grad is None


def test_grad_count_mismatch_is_an_error(torch):
    """Two outputs and one grad_output raise PyTorch's error."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.grad([x.sum(), x.sum()], [x], grad_outputs=[lib.tensor(1.0)])

    assert_same_error(run, torch, expect_hint=False)


def test_grad_of_input_that_does_not_require_grad_is_an_error(torch):
    """grad(y, c) where c does not require grad raises 'One of the differentiated Tensors does not require grad'."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.tensor([1.0, 2.0])
        lib.autograd.grad((x * c).sum(), [c])

    assert_same_error(run, torch, expect_hint=False)


# --- unused inputs --------------------------------------------------------------------------


def test_unused_input_error_names_its_index(torch):
    """grad(y, [x, unused]) raises 'The differentiated Tensor at index 1 appears to not have been used in the graph.'"""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        unused = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.grad((x * 2).sum(), [x, unused])

    assert_same_error(run, torch, expect_hint=True)


def test_unused_input_error_names_index_zero(torch):
    """The first input unused: the message says index 0."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        unused = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.grad((x * 2).sum(), [unused, x])

    assert_same_error(run, torch, expect_hint=True)


def test_allow_unused_returns_none_for_unused_input():
    """allow_unused=True: (2, 2) for x, None for the unused tensor."""
    x, unused = leaf([1.0, 2.0]), leaf([1.0, 2.0])
    gx, gu = minigrad.autograd.grad((x * 2.0).sum(), [x, unused], allow_unused=True)
    np.testing.assert_array_equal(gx.numpy(), [2.0, 2.0])
    assert gu is None


def test_materialize_grads_returns_zeros_for_unused_input():
    """materialize_grads=True: zeros of the unused input's shape instead of None."""
    x, unused = leaf([1.0, 2.0]), leaf([[1.0, 2.0, 3.0]])
    gx, gu = minigrad.autograd.grad((x * 2.0).sum(), [x, unused], materialize_grads=True)
    np.testing.assert_array_equal(gx.numpy(), [2.0, 2.0])
    assert gu.shape == (1, 3)
    np.testing.assert_array_equal(gu.numpy(), [[0.0, 0.0, 0.0]])


def test_materialize_grads_with_allow_unused_false_is_a_value_error(torch):
    """materialize_grads=True with allow_unused=False raises PyTorch's ValueError."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        lib.autograd.grad((x * 2).sum(), [x], allow_unused=False, materialize_grads=True)

    assert_same_error(run, torch, expect_hint=False)


def test_input_on_a_pruned_branch_is_unused():
    """y depends on a only; grad(y, [a, b]) with allow_unused gives None for b although b is in the graph of another tensor."""
    a, b = leaf(1.0), leaf(2.0)
    other = b * 3.0  # noqa: F841 - b is used, but not by y
    y = a * 4.0
    ga, gb = minigrad.autograd.grad(y, [a, b], allow_unused=True)
    assert ga.item() == 4.0 and gb is None


def test_grad_does_not_warn():
    """autograd.grad without create_graph emits no warning."""
    x = leaf([1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (g,) = minigrad.autograd.grad((x * x).sum(), x)
    assert g.tolist() == [2.0, 4.0]
