"""In-place operations: version counters, the saved-tensor check, leaves, and correct gradients."""


import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error, in_minigrad_words

def leaf(values):
    return minigrad.tensor(values, requires_grad=True)


# --- the version counter ------------------------------------------------------------------

IN_PLACE = {
    "add_": lambda lib, t: t.add_(1.0),
    "sub_": lambda lib, t: t.sub_(1.0),
    "mul_": lambda lib, t: t.mul_(2.0),
    "div_": lambda lib, t: t.div_(2.0),
    "zero_": lambda lib, t: t.zero_(),
    "fill_": lambda lib, t: t.fill_(5.0),
    "copy_": lambda lib, t: t.copy_(lib.tensor([7.0, 8.0, 9.0])),
    "clamp_": lambda lib, t: t.clamp_(1.5, 2.5),
    "iadd": lambda lib, t: t.__iadd__(1.0),
    "isub": lambda lib, t: t.__isub__(1.0),
    "imul": lambda lib, t: t.__imul__(2.0),
    "itruediv": lambda lib, t: t.__itruediv__(2.0),
    "setitem_int": lambda lib, t: t.__setitem__(0, 5.0),
    "setitem_slice": lambda lib, t: t.__setitem__(slice(0, 2), lib.tensor([5.0, 6.0])),
}

# What each leaves in [1, 2, 3], worked out by hand.
EXPECTED_VALUES = {
    "add_": [2.0, 3.0, 4.0], "sub_": [0.0, 1.0, 2.0], "mul_": [2.0, 4.0, 6.0], "div_": [0.5, 1.0, 1.5],
    "zero_": [0.0, 0.0, 0.0], "fill_": [5.0, 5.0, 5.0], "copy_": [7.0, 8.0, 9.0], "clamp_": [1.5, 2.0, 2.5],
    "iadd": [2.0, 3.0, 4.0], "isub": [0.0, 1.0, 2.0], "imul": [2.0, 4.0, 6.0], "itruediv": [0.5, 1.0, 1.5],
    "setitem_int": [5.0, 2.0, 3.0], "setitem_slice": [5.0, 6.0, 3.0],
}


@pytest.mark.parametrize("op", list(IN_PLACE))
def test_in_place_op_bumps_version_by_one(op):
    """Each in-place op changes the values in place (same object) and bumps _version from 0 to 1."""
    t = minigrad.tensor([1.0, 2.0, 3.0])
    assert t._version == 0
    result = IN_PLACE[op](minigrad, t)
    assert t._version == 1
    assert t.tolist() == EXPECTED_VALUES[op]
    if result is not None:
        assert result is t


@pytest.mark.parametrize("op", list(IN_PLACE))
def test_in_place_op_version_matches_torch(op, torch):
    """Applying the op twice gives the same _version as PyTorch (2)."""

    def run(lib):
        t = lib.tensor([1.0, 2.0, 3.0])
        IN_PLACE[op](lib, t)
        IN_PLACE[op](lib, t)
        return t._version

    assert run(minigrad) == run(torch)


def test_out_of_place_ops_do_not_bump_version():
    """x + 1, x * 2, x[0] and x.exp() leave x._version at 0."""
    x = minigrad.tensor([1.0, 2.0])
    x + 1.0, x * 2.0, x[0], x.exp()
    assert x._version == 0


def test_augmented_assignment_keeps_the_same_object():
    """t += 1 rebinds t to the very same tensor (in place), not to a new one."""
    t = minigrad.tensor([1.0])
    before = t
    t += 1.0
    assert t is before and t.tolist() == [2.0]


def test_setitem_on_int_tensor_bumps_version():
    """t[0] = 5 on an int64 tensor bumps _version too."""
    t = minigrad.tensor([1, 2, 3])
    t[0] = 5
    assert t._version == 1 and t.tolist() == [5, 2, 3]


# --- modifying a saved tensor -----------------------------------------------------------------


def saved_leaf_modified_under_no_grad(lib):
    """x*x saves x; x changed under no_grad; no producer, so no 'which is output' part."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    with lib.no_grad():
        x.add_(1.0)
    y.backward()


def saved_result_modified(lib):
    """exp saves its result; e.add_(1) changes it: '... which is output 0 of Exp'."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = x.exp()
    e.add_(1.0)
    e.sum().backward()


def saved_result_modified_twice(lib):
    """Two in-place changes: 'is at version 2; expected version 0'."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    e = x.exp()
    e.add_(1.0)
    e.mul_(2.0)
    e.sum().backward()


def saved_input_modified(lib):
    """v = exp(x) is saved by sin(v); then v.mul_(2)."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = x.exp()
    s = v.sin()
    v.mul_(2.0)
    s.sum().backward()


def saved_at_version_one(lib):
    """v changed once, then saved by sin, then changed again: 'is at version 2; expected version 1'."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = x * 1.0
    v.add_(1.0)
    s = v.sin()
    v.add_(1.0)
    s.sum().backward()


def saved_float64_matrix(lib):
    """A float64 2x2 saved tensor is named [DoubleTensor [2, 2]]."""
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
    h = x * 1.0
    y = h.tanh()
    y.add_(1.0)
    y.sum().backward()


def modified_through_setitem(lib):
    """h saved by h*h, then h[0] = 0."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x.exp()
    y = (h * h).sum()
    h[0] = 0.0
    y.backward()


def modified_through_detach(lib):
    """The saved leaf x is changed through x.detach(), which shares its version counter."""
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    x.detach().mul_(2.0)
    y.backward()


@pytest.mark.parametrize("case", [
    saved_leaf_modified_under_no_grad, saved_result_modified, saved_result_modified_twice, saved_input_modified,
    saved_at_version_one, saved_float64_matrix, modified_through_setitem, modified_through_detach,
], ids=lambda f: f.__name__)
def test_modified_saved_tensor_raises_torch_message(case, torch):
    """backward after an in-place change of a saved tensor raises PyTorch's message, versions and names included."""
    assert_same_error(case, torch, expect_hint=True)


def test_modifying_a_tensor_nobody_saved_is_fine():
    """y = x + h does not save h, so changing h in place afterwards is harmless: x.grad = 1."""
    x = leaf([1.0, 2.0])
    h = x * 2.0
    y = (x + h.detach()).sum()
    h.add_(5.0)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])


# --- leaves ---------------------------------------------------------------------------------


@pytest.mark.parametrize("op", list(IN_PLACE))
def test_in_place_on_leaf_requiring_grad_is_an_error(op, torch):
    """Any in-place op on a leaf that requires grad (outside no_grad) raises PyTorch's leaf message."""

    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        IN_PLACE[op](lib, x)

    assert_same_error(run, torch, expect_hint=True)


def test_failed_in_place_on_leaf_changes_nothing():
    """The refused in-place op leaves the values and the version alone."""
    x = leaf([1.0, 2.0])
    with pytest.raises(RuntimeError):
        x.add_(1.0)
    assert x.tolist() == [1.0, 2.0] and x._version == 0


@pytest.mark.parametrize("op", list(IN_PLACE))
def test_in_place_on_leaf_inside_no_grad_works(op):
    """Inside no_grad the op changes the leaf, bumps its version, and it stays a leaf that requires grad."""
    x = leaf([1.0, 2.0, 3.0])
    with minigrad.no_grad():
        IN_PLACE[op](minigrad, x)
    assert x.tolist() == EXPECTED_VALUES[op]
    assert x._version == 1
    assert x.requires_grad and x.is_leaf and x.grad_fn is None


def test_sgd_step_inside_no_grad_then_new_gradient():
    """x -= 0.1 * x.grad under no_grad: x = 3 - 0.1 * 6 = 2.4; a new forward gives grad 2 * 2.4."""
    x = leaf(3.0)
    (x * x).backward()
    with minigrad.no_grad():
        x -= 0.1 * x.grad
    x.grad = None
    (x * x).backward()
    assert x.item() == pytest.approx(2.4)
    assert x.grad.item() == pytest.approx(4.8)


# --- gradients through in-place ops on non-leaves ------------------------------------------------


def chain_add_mul(lib, x, w):
    y = x * 2
    y0 = x.exp()
    y.add_(1)
    y.mul_(y0)
    return y.sum()


def clamp_div_sub(lib, x, w):
    y = x.clone()
    y.clamp_(0.5, 1.5)
    y.div_(w)
    y.sub_(x)
    return (y * y).sum()


def augmented_operators(lib, x, w):
    y = x * w
    y *= 3.0
    y += x
    y -= w * 2
    y /= w
    return (y * x).sum()


def zero_then_add(lib, x, w):
    y = x * w
    y.zero_()
    y += x
    return (y * w).sum()


def fill_then_multiply(lib, x, w):
    y = x * w
    y.fill_(2.0)
    return (y * x).sum()


def copy_from_another(lib, x, w):
    y = x * 1.0
    y.copy_(w * 3)
    return (y * x).sum()


def setitem_from_itself(lib, x, w):
    y = x * 1.0
    y[0] = y[1] * 3
    return (y * w).sum()


def setitem_slice_of_expression(lib, x, w):
    y = x * w
    y[1:] = x[:2].exp()
    return (y * y).sum()


def mul_by_itself(lib, x, w):
    y = x * 1.0
    y.mul_(y)
    return y.sum()


@pytest.mark.parametrize("build", [
    chain_add_mul, clamp_div_sub, augmented_operators, zero_then_add, fill_then_multiply,
    copy_from_another, setitem_from_itself, setitem_slice_of_expression, mul_by_itself,
], ids=lambda f: f.__name__)
def test_in_place_on_non_leaf_gives_torch_gradients(build, torch):
    """A chain of in-place ops on non-leaves gives PyTorch's forward value and gradients (or its error)."""

    def run(lib):
        x = lib.tensor([0.25, 1.0, 2.0], dtype=lib.float64, requires_grad=True)
        w = lib.tensor([1.5, -0.5, 3.0], dtype=lib.float64, requires_grad=True)
        try:
            out = build(lib, x, w)
            out.backward()
        except RuntimeError as e:
            return "error", in_minigrad_words(str(e).split(HINT)[0])
        return out.item(), [None if g is None else g.tolist() for g in (x.grad, w.grad)]

    got, expected = run(minigrad), run(torch)
    if expected[0] == "error":
        assert got == expected
    else:
        assert got[0] != "error", got
        assert got[0] == pytest.approx(expected[0], rel=1e-12)
        for got_grad, expected_grad in zip(got[1], expected[1]):
            assert (got_grad is None) == (expected_grad is None)
            if expected_grad is not None:
                np.testing.assert_allclose(got_grad, expected_grad, rtol=1e-12)


def test_setitem_gradient_flows_to_base_and_value():
    """y = x*1; y[1] = 2v; loss = y . [10, 100, 1000]: x.grad = [10, 0, 1000] (slot 1 overwritten), v.grad = 2*100."""
    x = leaf([1.0, 2.0, 3.0])
    v = leaf(5.0)
    y = x * 1.0
    y[1] = v * 2.0
    assert y.tolist() == [1.0, 10.0, 3.0]
    (y * minigrad.tensor([10.0, 100.0, 1000.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 0.0, 1000.0])
    assert v.grad.item() == 200.0


def test_setitem_with_slice_value_gradient():
    """y = x*1; y[0:2] = v (shape 2): v.grad = weights[0:2] = [1, 2], x.grad = [0, 0, 3]."""
    x = leaf([1.0, 1.0, 1.0])
    v = leaf([4.0, 5.0])
    y = x * 1.0
    y[0:2] = v
    (y * minigrad.tensor([1.0, 2.0, 3.0])).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 3.0])


def test_in_place_on_non_leaf_moves_its_grad_fn():
    """After y.add_(1), y is still not a leaf and its grad_fn is the add node, as in PyTorch (AddBackward0)."""
    x = leaf([1.0])
    y = x * 2.0
    y.add_(1.0)
    assert not y.is_leaf
    assert y.grad_fn.name() == "AddBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"


# --- detach() and .data ---------------------------------------------------------------------


def test_detach_shares_memory_and_version_counter(torch):
    """d = x.detach(); d.add_(1) changes x and bumps x._version, as in PyTorch."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        d = x.detach()
        d.add_(1.0)
        return x.tolist(), x._version, d._version

    assert run(minigrad) == run(torch) == ([2.0, 3.0], 1, 1)


def test_data_shares_memory_but_not_the_version_counter(torch):
    """x.data.add_(1) changes x, but x._version stays 0 (autograd does not see it), as in PyTorch."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.data.add_(1.0)
        return x.tolist(), x._version

    assert run(minigrad) == run(torch) == ([2.0, 3.0], 0)


def test_change_through_data_is_not_detected(torch):
    """y = x*x saves x; x.data.mul_(2) goes unnoticed and backward uses the new x, as in PyTorch: 2 * [2, 4]."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        x.data.mul_(2.0)
        y.backward()
        return x.grad.tolist()

    assert run(minigrad) == run(torch) == [4.0, 8.0]


def test_in_place_through_detach_keeps_the_graph_as_torch_does(torch):
    """A change through detach() does not make the non-leaf's graph stale; only saved tensors are checked."""
    for lib in (minigrad, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x + 1  # AddBackward0 saves nothing: the new values do not matter to it
        h.detach().zero_()
        h.sum().backward()
        assert x.grad.tolist() == [1.0, 1.0]
    # exp saves its result, so the same change is an error at backward, in both.
    assert_same_error(lambda lib: _detach_zero_then_backward(lib), torch, expect_hint=True)


def _detach_zero_then_backward(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    h.detach().zero_()
    h.sum().backward()


# A value that does not fit x[index]: PyTorch copies it by expand (basic index) or index_put_ (an
# integer-array or mask index), and says so in those ops' words; a fitting one writes.
VALUES_FOR_INDEX = [((3,), 0), ((2, 4), 0), ((4, 1), 0), ((2, 3), (slice(0, 2), slice(0, 2))), ((2, 5), slice(None)),
                    ((1, 4), 0), ((1, 1, 4), 0), ((1, 3, 4), slice(None)), ((5,), [0, 1]), ((1, 5), [0, 1]),
                    ((2, 1, 4), [0, 1]), ((1, 2, 4), [0, 1]), ((2,), "mask"), ((1,), "mask")]


@pytest.mark.parametrize("value_shape, index", VALUES_FOR_INDEX, ids=[f"{v}-{i}" for v, i in VALUES_FOR_INDEX])
def test_setitem_of_a_value_that_does_not_fit_is_pytorchs_error(value_shape, index, torch):
    def outcome(lib):
        x = lib.zeros(3, 4)
        where = x == 0 if isinstance(index, str) else index
        try:
            x[where] = lib.ones(*value_shape)
        except RuntimeError as error:
            return in_minigrad_words(str(error).split("\n\n")[0]) if lib is torch else str(error).split("\n\n")[0]
        return x.sum().item()

    assert outcome(minigrad) == outcome(torch)
