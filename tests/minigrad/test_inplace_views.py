"""In-place changes through views, as PyTorch records them: CopySlices and AsStridedBackward0.

``v = h[:2]; v.mul_(2)`` changes ``h`` too. The base's ``grad_fn`` becomes ``CopySlices`` (the
op's backward inside the view, the gradient passed through outside it) and the view's becomes
``AsStridedBackward0`` (read those positions of the base). A view taken before its base changed
is re-read from the base's new graph when next used. Expectations are worked out by hand, and
the graphs (names, edges, saved geometry) and gradients are compared with PyTorch's.
"""

import numpy as np
import pytest

import minigrad
from minigrad import messages
from torch_parity import graph_names, pytorch_part


# Each program builds from a 2x2 leaf ``x`` and lists the tensors whose graphs we compare.
PROGRAMS = {
    "mul_ through a column": "y = x * 2; v = y[:, 0]; v *= 3; out = [y, v]",
    "slice += 1 of a clone": "h = x.clone(); h[1:] += 1; out = [h]",
    "base changed after the view was taken": "y = x * 2; v = y[0]; y.mul_(2); out = [v]",
    "add_ through a transpose": "y = x * 2; v = y.t(); v.add_(1); out = [y, v]",
    "a view of a view": "y = x * 2; v = y[0]; w = v[1:]; w.mul_(5); out = [y, v, w]",
    "copy_ into a row": "y = x * 2; v = y[0]; v.copy_(x[1]); out = [y]",
    "zero_ a row": "y = x * 2; v = y[0]; v.zero_(); out = [y, v]",
    "a constant base takes a gradient through its view": "y = lib.zeros(2, 2); v = y[0]; v.mul_(x[1]); out = [y, v]",
    "a constant base changed by a tensor that requires grad": "y = lib.zeros(2, 2); v = y[1]; y.add_(x); out = [v]",
    "sub_ through a flattened view": "y = x * 3; v = y.view(4); v.sub_(x.view(4) ** 2); out = [y, v]",
    "clamp_ through a slice": "y = x * 4; y[:, 1:].clamp_(0.5, 2.0); out = [y]",
}


def run(lib, code):
    x = lib.tensor([[0.2, 0.7], [0.9, 0.1]], dtype=lib.float64, requires_grad=True)
    scope = {"x": x, "lib": lib}
    exec(code, scope)
    out = scope["out"]
    loss = sum((t * t * (i + 1)).sum() for i, t in enumerate(out))
    (grad,) = lib.autograd.grad(loss, x)
    return [graph_names(t.grad_fn, geometry=True) for t in out], grad.detach().numpy()


@pytest.mark.parametrize("code", PROGRAMS.values(), ids=PROGRAMS.keys())
def test_graphs_and_gradients_match_pytorch(code, torch):
    mine_graphs, mine_grad = run(minigrad, code)
    their_graphs, their_grad = run(torch, code)
    assert mine_graphs == their_graphs
    np.testing.assert_allclose(mine_grad, their_grad, rtol=1e-12)


def test_the_base_becomes_copyslices_and_the_view_as_strided_by_hand():
    x = minigrad.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    h = x * 1
    part = h[:2]
    part.mul_(2)
    assert h.tolist() == [2.0, 4.0, 3.0, 4.0]
    assert h.grad_fn.name() == "torch::autograd::CopySlices"
    # h's old grad_fn, then the op's other input (the number 2: a constant, no edge), as in PyTorch
    assert [node and node.name() for node, _ in h.grad_fn.next_functions] == ["MulBackward0", None]
    assert part.grad_fn.name() == "AsStridedBackward0"
    assert part.grad_fn.next_functions == ((h.grad_fn, 0),)
    assert (part.grad_fn._saved_size, part.grad_fn._saved_stride, part.grad_fn._saved_storage_offset) == ((2,), (1,), 0)
    h.sum().backward()
    # inside the view h = 2 * x, outside h = x
    assert x.grad.tolist() == [2.0, 2.0, 1.0, 1.0]


def test_a_view_taken_before_its_base_changed_reads_the_new_values():
    x = minigrad.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    h = x * 1
    part = h[:2]
    h.mul_(2)
    assert part.tolist() == [2.0, 4.0]
    assert part.grad_fn.name() == "AsStridedBackward0"  # not SliceBackward0 of the old h
    (grad,) = minigrad.autograd.grad((part * 3).sum(), x)
    assert grad.tolist() == [6.0, 6.0, 0.0, 0.0]  # part = 2 * x[:2]


def test_an_input_of_the_op_gets_its_gradient_through_copyslices():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = minigrad.tensor([5.0, 7.0], requires_grad=True)
    h = x * 1
    h[1:].mul_(w)  # h = [x0, x1 * w0, x2 * w1]
    h.sum().backward()
    assert x.grad.tolist() == [1.0, 5.0, 7.0]
    assert w.grad.tolist() == [2.0, 3.0]
    assert [n.name() for n, _ in h.grad_fn.next_functions] == ["MulBackward0", "torch::autograd::AccumulateGrad"]


def test_a_view_of_a_constant_is_not_a_constant_after_a_tensor_that_requires_grad_changed_its_base():
    # Without the refresh, v would still look constant and w's product would lose x's share silently.
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = minigrad.zeros(2, 2)
    v = y[1]
    y.add_(x)
    assert v.requires_grad
    (v * minigrad.tensor([3.0, 4.0])).sum().backward()
    assert x.grad.tolist() == [3.0, 4.0]


def test_a_change_made_under_no_grad_keeps_the_gradient():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    part = h[1:]
    with minigrad.no_grad():
        h[0:1].mul_(10)
    (part * part).sum().backward()
    assert x.grad.tolist() == [0.0, 16.0, 24.0]  # d/dx (2x)^2 = 8x on the view's elements


def test_second_derivatives_through_copyslices_match_pytorch(torch):
    def second(lib):
        x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        h = x * x
        h[1:].mul_(x[:2])
        (g,) = lib.autograd.grad(h.sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), x)
        return g.detach().numpy(), gg.numpy()

    for mine, theirs in zip(second(minigrad), second(torch)):
        np.testing.assert_allclose(mine, theirs, rtol=1e-12)


def test_gradcheck_and_gradgradcheck_through_an_in_place_view_change():
    def f(x):
        h = x * x  # (exp would save its result, which the next lines change: PyTorch's error too)
        h[1:].mul_(x[:-1])
        h.t()[0].add_(x[0])
        return h

    x = minigrad.tensor(np.random.default_rng(0).standard_normal((3, 3)), requires_grad=True)
    assert minigrad.autograd.gradcheck(f, (x,))
    assert minigrad.autograd.gradgradcheck(f, (x,))


def test_retain_graph_false_frees_the_op_inside_copyslices():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    h[:1].mul_(x[1:])
    loss = h.sum()
    loss.backward()
    assert h.grad_fn.released
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        loss.backward()


def test_what_pytorch_still_refuses(torch):
    def errors(lib):
        found = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        for attempt in (lambda: x[:1].mul_(2),  # a view of a leaf that requires grad
                        lambda: (x * 1).expand(2, 2).mul_(2)):  # elements written twice
            try:
                attempt()
                found.append(None)
            except RuntimeError as error:
                found.append(pytorch_part(error))
        y = x * 1
        with lib.no_grad():
            v = y[:1]
        try:
            v.mul_(2)
            found.append(None)
        except RuntimeError as error:
            found.append(pytorch_part(error))
        return found

    mine, theirs = errors(minigrad), errors(torch)
    assert None not in theirs
    assert mine == [t.replace("torch", "minigrad") for t in theirs]
    assert mine[2] == pytorch_part(messages.NO_GRAD_VIEW_INPLACE)


def test_a_base_whose_memory_is_not_in_c_order_matches_pytorch(torch):
    def run(lib):
        a = lib.from_numpy(np.asfortranarray(np.arange(6.0).reshape(3, 2)))  # column-major memory
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        a[1].mul_(x)  # row 1 is [2, 3] before
        (grad,) = lib.autograd.grad((a * a).sum(), x)
        return a.detach().numpy(), grad.numpy()

    (mine_a, mine_grad), (their_a, their_grad) = run(minigrad), run(torch)
    np.testing.assert_array_equal(mine_a, their_a)
    np.testing.assert_allclose(mine_grad, their_grad, rtol=1e-12)
    np.testing.assert_allclose(mine_grad, [2 * 2.0 * 2.0 * 1.0, 2 * 3.0 * 3.0 * 2.0])  # d/dx (r x)^2 = 2 r^2 x


# A view made under no_grad of a tensor that requires grad, then changed in place (an optimizer
# step on its base is the learner's way there). PyTorch refuses to say its grad_fn from then on,
# so every recorded use of it is an error rather than a gradient that silently goes nowhere.
NO_GRAD_VIEW_USES = {
    "grad_fn": lambda lib, v: v.grad_fn,
    "is_leaf": lambda lib, v: v.is_leaf,
    "requires_grad": lambda lib, v: v.requires_grad,
    "recorded op": lambda lib, v: (v * 2).grad_fn is None,
    "recorded view": lambda lib, v: v[1:].grad_fn is None,
    "backward": lambda lib, v: v.sum().backward(),
    "op under no_grad": lambda lib, v: _under_no_grad(lib, lambda: (v * 2).requires_grad),
    "detach": lambda lib, v: v.detach().tolist(),
    "version": lambda lib, v: v._version,
    "repr": lambda lib, v: repr(v).replace("torch", "minigrad"),
}


def _under_no_grad(lib, read):
    with lib.no_grad():
        return read()


@pytest.mark.parametrize("change", ["base under no_grad", "view under no_grad", "none"])
@pytest.mark.parametrize("use", NO_GRAD_VIEW_USES)
def test_a_no_grad_view_changed_in_place_since_is_refused_as_by_pytorch(use, change, torch):
    def outcome(lib):
        weight = lib.ones(3, 4, requires_grad=True)
        with lib.no_grad():
            row = weight[0]
        with lib.no_grad():
            if change == "base under no_grad":
                weight.sub_(0.5)  # an optimizer's step
            elif change == "view under no_grad":
                row.mul_(3)
        try:
            result = NO_GRAD_VIEW_USES[use](lib, row)
        except RuntimeError as error:
            return "error", pytorch_part(error)
        return "value", result if not isinstance(result, lib.autograd.graph.Node) else result.name()

    mine, theirs = outcome(minigrad), outcome(torch)
    assert mine == theirs
    if change != "none" and use in ("grad_fn", "recorded op", "backward"):
        assert mine == ("error", pytorch_part(messages.NO_GRAD_VIEW_CHANGED))


def test_a_no_grad_view_changed_in_grad_mode_is_refused_before_the_leaf_check(torch):
    def failure(lib):
        weight = lib.ones(3, 4, requires_grad=True)
        with lib.no_grad():
            row = weight[0]
        with pytest.raises(RuntimeError) as info:
            row.mul_(3)  # a view of a leaf too: PyTorch names the no_grad view first
        return pytorch_part(info.value)

    assert failure(minigrad) == failure(torch) == pytorch_part(messages.NO_GRAD_VIEW_INPLACE)
